// What the load generator stands for: clusterloader2's Service objects (perf-tests
// clusterloader2/testing/load: ClusterIP Services selecting a Deployment's pods). The Services
// go through the API server as any client's: ClusterIP allocation (pkg/registry/core/service/
// ipallocator), then the EndpointSlice controller (pkg/controller/endpointslice) and kube-proxy.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { ConsoleSession } from '../kubectl/console';
import { kubeProxyOf } from '../network/kubeproxy';
import { createCluster } from '../scenario/bootstrap';

const scenario = readFileSync(
  new URL('../../../../lessons/08-kube-proxy/scenario.yaml', import.meta.url),
  'utf8'
);

function lab() {
  const cluster = createCluster(scenario, { fileName: 'scenario.yaml' }).cluster;
  cluster.runUntil(30_000);
  return { cluster, sh: new ConsoleSession(cluster, {}) };
}

const loadServices = (c: ReturnType<typeof lab>['cluster']) =>
  c.api.list<KubeObject>('Service', { labelSelector: 'nodeplane.dev/load=services' });

describe('nodeplane load services', () => {
  it('creates N ClusterIP Services selecting the pods; each gets a ClusterIP and a slice with the ready pods', () => {
    const { cluster, sh } = lab();
    const r = sh.exec('nodeplane load services 20 --selector app=web --port 80');
    expect(r).toMatchObject({
      exitCode: 0,
      stderr: '',
      stdout:
        '20 Services created, 0 deleted: 20 load Services in namespace default (load-1 … load-20), selector app=web, port 80/TCP\n'
    });
    const svcs = loadServices(cluster);
    expect(svcs).toHaveLength(20);
    const ips = new Set(svcs.map((s) => s.spec!.clusterIP as string));
    expect(ips.size).toBe(20);
    for (const ip of ips) expect(ip).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(svcs[0].spec).toMatchObject({ type: 'ClusterIP', selector: { app: 'web' } });
    cluster.runUntil(35_000);
    const slices = cluster.api.list<KubeObject>('EndpointSlice', {
      labelSelector: 'kubernetes.io/service-name=load-7'
    });
    expect(slices).toHaveLength(1);
    expect((slices[0].endpoints as unknown[]).length).toBe(3);
    // kube-proxy programs them: kubernetes, kube-dns' three ports, web and the 20 load Services.
    const kp = kubeProxyOf(cluster, 'worker-1')!;
    expect(kp.state.ports).toHaveLength(25);
    expect(kp.state.syncs.at(-1)).toMatchObject({ full: false, servicePorts: 25 });
  });

  it('scales to the count given: down deletes the highest, the same count changes nothing', () => {
    const { cluster, sh } = lab();
    sh.exec('nodeplane load services 10 --selector app=web');
    expect(sh.exec('nodeplane load services 4 --selector app=web').stdout).toBe(
      '0 Services created, 6 deleted: 4 load Services in namespace default (load-1 … load-4), selector app=web, port 80/TCP\n'
    );
    expect(
      loadServices(cluster)
        .map((s) => s.metadata.name)
        .sort()
    ).toEqual(['load-1', 'load-2', 'load-3', 'load-4']);
    expect(sh.exec('nodeplane load services 4 --selector app=web').stdout).toMatch(
      /^0 Services created, 0 deleted/
    );
    expect(sh.exec('nodeplane load services 0 --selector app=web').stdout).toBe(
      '0 Services created, 4 deleted: 0 load Services in namespace default (none), selector app=web, port 80/TCP\n'
    );
  });

  it('refuses bad input with a message naming the problem and creates nothing', () => {
    const { cluster, sh } = lab();
    const cases: [string, string][] = [
      ['nodeplane load services', 'error: the number of Services is missing\n'],
      [
        'nodeplane load services lots --selector app=web',
        'error: invalid count "lots": expected a whole number from 0 to 10000\n'
      ],
      [
        'nodeplane load services 20000 --selector app=web',
        'error: invalid count "20000": expected a whole number from 0 to 10000\n'
      ],
      [
        'nodeplane load services 5',
        'error: --selector is required: the pods the Services send traffic to, e.g. --selector app=web\n'
      ],
      [
        'nodeplane load services 5 --selector app',
        'error: invalid selector "app": expected key=value[,key=value]\n'
      ],
      [
        'nodeplane load services 5 --selector app=web --port 70000',
        'error: invalid port "70000": expected a number from 1 to 65535\n'
      ],
      ['nodeplane load services 5 --colour red', 'error: unknown flag: --colour\n']
    ];
    for (const [cmd, msg] of cases) {
      const r = sh.exec(cmd);
      expect(r.exitCode, cmd).toBe(1);
      expect(r.stderr.startsWith(msg), `${cmd}: ${r.stderr}`).toBe(true);
    }
    expect(sh.exec('nodeplane load pods 5').stderr).toMatch(/^usage: nodeplane load services <count>/);
    expect(loadServices(cluster)).toHaveLength(0);
  });

  it('a namespace that does not exist is the API server’s NotFound, as for any client', () => {
    const { cluster, sh } = lab();
    const r = sh.exec('nodeplane load services 3 --selector app=web -n shop');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('Error from server (NotFound): namespaces "shop" not found\n');
    expect(loadServices(cluster)).toHaveLength(0);
  });
});
