// upstream: pkg/printers/internalversion/printers.go (printEndpoints, formatEndpoints)
// upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go (describeEndpoints)
// upstream: staging/src/k8s.io/client-go/rest/warnings.go (warnings printed as "Warning: <text>", deduplicated)
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { ConsoleSession } from './console';

const WARNING = 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n';

function addr(ip: string) {
  return { ip, nodeName: 'worker-1', targetRef: { kind: 'Pod', namespace: 'default', name: ip, uid: ip } };
}

function setup() {
  const cluster = new Cluster();
  const ep = (name: string, subsets?: unknown[]) =>
    cluster.api.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, namespace: 'default', labels: { app: name } },
      ...(subsets ? { subsets } : {})
    });
  ep('empty');
  ep('notready', [{ notReadyAddresses: [addr('10.244.1.9')], ports: [{ port: 80, protocol: 'TCP' }] }]);
  ep('web', [
    {
      addresses: [addr('10.244.1.2'), addr('10.244.1.3')],
      notReadyAddresses: [addr('10.244.1.4')],
      ports: [
        { name: 'http', port: 8080, protocol: 'TCP' },
        { name: 'metrics', port: 9090, protocol: 'TCP' }
      ]
    }
  ]);
  ep('headless', [{ addresses: [addr('10.244.2.2')] }]);
  cluster.engine.runUntil(65_000);
  return new ConsoleSession(cluster, {});
}

describe('kubectl get/describe endpoints', () => {
  it('prints the table with `+ N more...`, port by port, and the deprecation warning on stderr', () => {
    const s = setup();
    expect(s.exec('kubectl get ep')).toEqual({
      stdout:
        'NAME       ENDPOINTS                                                     AGE\n' +
        'empty      <none>                                                        65s\n' +
        'headless   10.244.2.2                                                    65s\n' +
        'notready                                                                 65s\n' +
        'web        10.244.1.2:8080,10.244.1.3:8080,10.244.1.2:9090 + 1 more...   65s\n',
      stderr: WARNING,
      exitCode: 0
    });
  });

  it('warns once per command, also on errors, and not for other resources', () => {
    const s = setup();
    expect(s.exec('kubectl get endpoints web nope').stderr).toBe(
      WARNING + 'Error from server (NotFound): endpoints "nope" not found\n'
    );
    expect(s.exec('kubectl get endpointslices').stderr).toBe('No resources found in default namespace.\n');
  });

  it('describes each subset’s addresses and ports', () => {
    const s = setup();
    const r = s.exec('kubectl describe endpoints web');
    expect(r.stderr).toBe(WARNING);
    expect(r.stdout).toBe(
      [
        'Name:         web',
        'Namespace:    default',
        'Labels:       app=web',
        'Annotations:  <none>',
        'Subsets:',
        '  Addresses:          10.244.1.2,10.244.1.3',
        '  NotReadyAddresses:  10.244.1.4',
        '  Ports:',
        '    Name     Port  Protocol',
        '    ----     ----  --------',
        '    http     8080  TCP',
        '    metrics  9090  TCP',
        '',
        'Events:  <none>',
        ''
      ].join('\n')
    );
  });
});
