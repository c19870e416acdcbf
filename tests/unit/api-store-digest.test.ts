/**
 * What the API server stores, pinned by hash: every version every write committed (as watchers
 * receive it) and every object at the end (JSON in the store's order, so key order,
 * resourceVersions, generations, timestamps and owner metadata all count), with the request
 * counts. The write path shares unchanged subtrees between versions and skips work for what a
 * write did not touch; none of that may change a byte of what `kubectl get -o json` prints.
 * The pins were taken on the write path before that work.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/lib/sim/engine/duration';
import { createCluster, loadScenario } from '../../src/lib/sim/scenario';
import { RESOURCES } from '../../src/lib/sim/api/resources';
import { scenario as benchScenario } from '../../bench/workload';

interface Digest {
  hash: string;
  writes: string;
  objects: number;
  resourceVersion: number;
}

function storeDigest(text: string, fileName: string, until: number): Digest {
  const { cluster } = createCluster(text, { fileName });
  const writes = createHash('sha256');
  for (const r of RESOURCES)
    cluster.api.watch(r.kind, (type, obj) => {
      writes.update(`${type} ${JSON.stringify(obj)}\n`);
    });
  cluster.engine.runUntil(until);
  const snap = cluster.api.snapshot();
  const all = JSON.stringify({ objects: snap.objects, requests: snap.requests, errors: snap.requestErrors });
  return {
    hash: createHash('sha256').update(all).digest('hex').slice(0, 16),
    writes: writes.digest('hex').slice(0, 16),
    objects: snap.objects.length,
    resourceVersion: snap.resourceVersion
  };
}

function scenarioDigest(file: string): Digest {
  const text = readFileSync(`scenarios/${file}`, 'utf8');
  const until = parseDuration(String(loadScenario(text, file).spec.duration ?? '10m'));
  return storeDigest(text, file, until);
}

// Leases carry no metadata.generation (pkg/registry/coordination/lease/strategy.go sets none): every
// hash below moved with that, and nothing else did (the same objects and resourceVersions).
const PINNED: Record<string, Digest> = {
  'three-nodes.yaml': {
    hash: 'd7bc955b121b8921',
    writes: '39cc3a21a9b47283',
    objects: 185,
    resourceVersion: 393
  },
  'heartbeat-loss.yaml': {
    hash: 'dd11159ce6f2b187',
    writes: '1f35fd6b2db53e3e',
    objects: 180,
    resourceVersion: 484
  },
  'etcd-quorum.yaml': {
    hash: '63fb7a7eddfdc107',
    writes: '3f0c5c5997c378e4',
    objects: 193,
    resourceVersion: 595
  },
  'no-cni.yaml': { hash: 'b26f8530d13b88b9', writes: '2f92e344cf6b8d5a', objects: 80, resourceVersion: 166 },
  'autoscaler-scale-up.yaml': {
    hash: '55f3d11e6c07e0ed',
    writes: '8e258b35b2bc5c82',
    objects: 170,
    resourceVersion: 742
  },
  'ha-failover.yaml': {
    hash: '0a2d76089a8f5621',
    writes: '70d48f0b933b49eb',
    objects: 193,
    resourceVersion: 505
  },
  // The EndpointSlice reconciler keeps endpoints in place (staging/src/k8s.io/endpointslice/
  // reconciler.go): kube-dns's slice lists the CoreDNS pods in the order they got their IPs, not
  // by name. Same writes, same resourceVersions.
  'managed-eks.yaml': {
    hash: '8f938cb3ac1cf367',
    writes: '0e5d60f2320a7fbe',
    objects: 141,
    resourceVersion: 402
  }
};

/** The bench's cluster, small: 10 nodes, three Deployments (100 + 100 + 100 replicas), 2 minutes. */
const BENCH_PIN: Digest = {
  hash: '975f3e248eedb16b',
  writes: 'e14b44e70f4c5657',
  objects: 2109,
  resourceVersion: 4479
};

describe('the API server stores the same objects', () => {
  for (const f of Object.keys(PINNED)) {
    it(f, { timeout: 300_000 }, () => {
      expect(scenarioDigest(f)).toEqual(PINNED[f]);
    });
  }
  it('the bench cluster at 10 nodes / 300 pods', { timeout: 300_000 }, () => {
    expect(storeDigest(benchScenario(10, 300), 'bench-10.yaml', 120_000)).toEqual(BENCH_PIN);
  });
});
