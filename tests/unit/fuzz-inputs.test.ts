/**
 * Hostile input through every door: a bounded fuzz run per generator (the longer one is
 * `npm run fuzz`), and the named pathological cases — billion laughs, deep nesting, 10 MB
 * documents, absurd quantities, 300-character names, invalid label keys, duplicate keys. Each is
 * accepted or rejected with a message naming the file and line or the field; a rejected input
 * changes nothing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main';
import { fuzz, lyingBomb, targets, zipBomb } from '../../fuzz/targets';
import { readPackZip } from '../../src/lib/packs/zip';
import { english } from '../fixtures/packs/read';
import type { Cluster } from '../../src/lib/sim/cluster';
import { ConsoleSession } from '../../src/lib/sim/kubectl/console';
import { ManifestError, applyManifests, parseManifests } from '../../src/lib/sim/manifests';
import { MAX_YAML_DEPTH } from '../../src/lib/sim/manifests/depth';
import { createCluster } from '../../src/lib/sim/scenario';
import { decodeFragment } from '../../src/lib/ui/lab/share';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

describe('bounded fuzz run (npm run fuzz runs longer)', () => {
  for (const t of targets()) {
    it(`${t.name}: ${RUNS} inputs, each accepted or rejected with a named place`, { timeout: 60_000 }, () => {
      const tally = fuzz(t, RUNS, 7);
      expect(tally.failures).toEqual([]);
      expect(tally.accepted + tally.rejected).toBe(RUNS);
    });
  }
});

describe('lesson pack bombs', () => {
  // upstream (format): APPNOTE.TXT 4.3.7 / 4.3.12, the sizes in the local header and central directory
  it('a 40 MiB file declared as 40 MiB is refused before inflating; declared as 100 bytes, nothing past that is unpacked', () => {
    const honest = readPackZip(zipBomb(), 'bomb.zip');
    expect(honest.files).toBeUndefined();
    expect(english(honest.issues)).toEqual([
      {
        file: 'bomb.zip: 01-cordon/zeros.md',
        message: 'the file unpacks to 40 MiB; one file is at most 1 MiB'
      },
      { file: 'bomb.zip', message: 'the archive unpacks to 40 MiB; a pack is at most 16 MiB unpacked' }
    ]);
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const heap = used();
    const lying = readPackZip(lyingBomb(), 'bomb.zip');
    expect(lying.files).toBeUndefined();
    expect(english(lying.issues)).toEqual([
      { file: 'bomb.zip: 01-cordon/zeros.md', message: 'not text: it contains NUL characters' }
    ]);
    // Not the 40 MiB the data inflates to.
    expect(used() - heap).toBeLessThan(20 * 1024 * 1024);
  });
});

function cluster(): Cluster {
  const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'), {
    fileName: 'three-nodes.yaml'
  });
  cluster.runUntil(20_000);
  return cluster;
}

const deployment = (f: { name?: string; label?: string; replicas?: string; cpu?: string; memory?: string }) =>
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${f.name ?? 'web'}
  labels: { ${f.label ?? 'app'}: web }
spec:
  replicas: ${f.replicas ?? 1}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: c
          image: nginx:1.27
          resources: { requests: { cpu: ${f.cpu ?? '100m'}, memory: ${f.memory ?? '64Mi'} } }
`;

function laughs(levels: number): string {
  const lines = ['  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < levels; i++)
    lines.push(
      `  a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]`
    );
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: lol }\ndata:\n${lines.join('\n')}\n`;
}

const deepPod = (n: number) =>
  `apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  x: ${'['.repeat(n)}${']'.repeat(n)}\n`;

/** Apply as the editor does; the first issue as `file:line:col: message`, and whether the cluster changed. */
function rejectApply(text: string, file = 'm.yaml'): { message: string; changed: boolean; ms: number } {
  const c = cluster();
  const before = JSON.stringify(c.api.snapshot().objects);
  const t0 = performance.now();
  let message = '';
  try {
    applyManifests(c, parseManifests(text, file).objects, { component: 'kubectl' });
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    message = (e as ManifestError).message;
  }
  const ms = performance.now() - t0;
  return { message, changed: JSON.stringify(c.api.snapshot().objects) !== before, ms };
}

describe('pathological manifests are rejected with the place named, changing nothing', () => {
  it.each([
    // upstream: staging/src/k8s.io/apimachinery/pkg/api/validation (ValidateNonnegativeQuantity)
    [
      'cpu: -1',
      deployment({ cpu: '-1' }),
      'm.yaml:15:41: Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'
    ],
    [
      'memory: 1e400',
      deployment({ memory: '1e400' }),
      'm.yaml:15:55: spec.template.spec.containers[0].resources.requests[memory]: Invalid value'
    ],
    // upstream: staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1123Subdomain, 253)
    [
      'a 300-character name',
      deployment({ name: 'a'.repeat(300) }),
      'm.yaml:4:9: Deployment.apps "' + 'a'.repeat(300) + '" is invalid: metadata.name: Invalid value'
    ],
    [
      'an invalid label key',
      deployment({ label: '"bad key"' }),
      'm.yaml:5:3: Deployment.apps "web" is invalid: metadata.labels: Invalid value: "bad key"'
    ],
    [
      'a duplicate key',
      deployment({}).replace('  replicas: 1', '  replicas: 1\n  replicas: 2'),
      'm.yaml:8:3: YAML: Map keys must be unique'
    ],
    [
      'billion laughs',
      laughs(10),
      'm.yaml:1:1: YAML: Excessive alias count indicates a resource exhaustion attack'
    ],
    ['5,000 levels of nesting', deepPod(5000), `m.yaml:5:`]
  ])('%s', (_name, text, expected) => {
    const r = rejectApply(text);
    expect(r.message.split('\n')[0].startsWith(expected), r.message.slice(0, 300)).toBe(true);
    expect(r.changed).toBe(false);
    expect(r.ms).toBeLessThan(5_000);
  });

  it(`nesting deeper than ${MAX_YAML_DEPTH} levels: one line naming file and line, in flow, block and compact styles`, () => {
    const block = `apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n${Array.from({ length: 600 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n')} 1\n`;
    const compact = `apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  x:\n    ${'- '.repeat(3000)}1\n`;
    for (const text of [deepPod(5000), block, compact]) {
      const { message } = rejectApply(text);
      expect(message).toMatch(
        new RegExp(`^m\\.yaml:\\d+:\\d+: YAML: exceeded max depth of ${MAX_YAML_DEPTH}$`)
      );
    }
    // The depth a real manifest uses parses as before.
    expect(rejectApply(deployment({})).message).toBe('');
  });

  // upstream: staging/src/k8s.io/apiserver/pkg/server/config.go (MaxRequestBodyBytes 3 MiB)
  it('a 10 MB document: the API server limit, at once', () => {
    const big = `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: big }\ndata:\n  a: "${'x'.repeat(10 * 1024 * 1024)}"\n`;
    const r = rejectApply(big);
    expect(r.message).toBe('m.yaml:1:1: Request entity too large: limit is 3145728 (the file is 10.0 MiB)');
    expect(r.ms).toBeLessThan(1_000);
  });

  it(
    'replicas: 100000000 is a valid int32, accepted as upstream; the ReplicaSet controller creates pods at its client rate limit',
    {
      timeout: 30_000
    },
    () => {
      const c = cluster();
      applyManifests(
        c,
        parseManifests(deployment({ name: 'huge', replicas: '100000000' }), 'm.yaml').objects,
        {
          component: 'kubectl'
        }
      );
      c.runUntil(30_000);
      const pods = c.api
        .list('Pod', { namespace: 'default' })
        .filter((p) => p.metadata.name.startsWith('huge-'));
      // kube-controller-manager --kube-api-qps 20 / burst 30 (controllers/util/ratelimit.ts)
      expect(pods.length).toBeGreaterThan(30);
      expect(pods.length).toBeLessThanOrEqual(30 + 20 * 10);
    }
  );
});

// upstream: gopkg.in/yaml.v3 scannerc.go (flow level and indent limit 10000: "exceeded max depth of
// 10000"), the YAML library kubectl and kube-apiserver decode with through sigs.k8s.io/yaml; the
// limit here is lower (manifests/depth.ts) and the wording the same.
describe('the same deep document in every door', () => {
  const dir = mkdtempSync(join(tmpdir(), 'np-fuzz-'));
  const scenario = join(dir, 'deep-scenario.yaml');
  writeFileSync(
    scenario,
    `apiVersion: nodeplane.dev/v1alpha1\nkind: Scenario\nmetadata: { name: deep }\nspec:\n  seed: 1\n  x: ${'['.repeat(4000)}${']'.repeat(4000)}\n`
  );
  const pods = join(dir, 'deep-pods.yaml');
  writeFileSync(pods, deepPod(4000));

  const run = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
    return { code, stdout, stderr };
  };

  it.each([['run'], ['validate']])('nodeplane %s', async (cmd) => {
    const r = await run([cmd, scenario]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: the scenario was rejected:\ndeep-scenario.yaml:6:${260}: YAML: exceeded max depth of ${MAX_YAML_DEPTH}\n`
    );
  });

  it('nodeplane schedule', async () => {
    const r = await run(['schedule', '-f', pods]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${pods}: line 5: exceeded max depth of ${MAX_YAML_DEPTH}\n`);
  });

  it('kubectl apply in the console', () => {
    const c = cluster();
    const r = new ConsoleSession(c, { files: { 'deep.yaml': deepPod(4000) } }).exec(
      'kubectl apply -f deep.yaml'
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`deep\\.yaml:5:\\d+: YAML: exceeded max depth of ${MAX_YAML_DEPTH}`));
  });

  it('a damaged share link says so', () => {
    expect(() => decodeFragment('#lab=q1ZKyy_KTSxRslLKy09JLchJzEvVS0kt089JTNIvM1TSUSpO')).toThrow(
      /^the share link is damaged \(/
    );
  });
});
