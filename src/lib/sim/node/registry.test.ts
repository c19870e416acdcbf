import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { normalizeImage, resolveImage, setRegistryImages } from './registry';

describe('image registry model', () => {
  it('normalises references as containerd does', () => {
    expect(normalizeImage('nginx').full).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('nginx').implicitTag).toBe(true);
    expect(normalizeImage('calico/node:v3.30.3').full).toBe('docker.io/calico/node:v3.30.3');
    expect(normalizeImage('registry.k8s.io/pause:3.10').full).toBe('registry.k8s.io/pause:3.10');
    expect(normalizeImage('localhost:5000/app').full).toBe('localhost:5000/app:latest');
    expect(normalizeImage('nginx:1.27@sha256:abc').full).toBe('docker.io/library/nginx:1.27');
  });

  it('knows common images with their sizes', () => {
    const c = new Cluster();
    const r = resolveImage(c, 'nginx:1.27');
    expect(r).toEqual({
      ok: true,
      image: { repository: 'docker.io/library/nginx', tag: '1.27', sizeBytes: 72_100_000 }
    });
    expect(resolveImage(c, 'registry.k8s.io/pause:3.10').ok).toBe(true);
    expect(resolveImage(c, 'quay.io/cilium/cilium:v1.18.2').ok).toBe(true);
  });

  it('words an unknown tag as containerd NotFound', () => {
    const r = resolveImage(new Cluster(), 'nginx:1.277');
    expect(r).toEqual({
      ok: false,
      error:
        'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.277": failed to resolve reference "docker.io/library/nginx:1.277": docker.io/library/nginx:1.277: not found'
    });
  });

  it('reports an unknown registry host as a DNS failure', () => {
    const r = resolveImage(new Cluster(), 'regsitry.example.com/team/app:1.0');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe(
      'rpc error: code = Unknown desc = failed to pull and unpack image "regsitry.example.com/team/app:1.0": failed to resolve reference "regsitry.example.com/team/app:1.0": failed to do request: Head "https://regsitry.example.com/v2/team/app/manifests/1.0": dial tcp: lookup regsitry.example.com: no such host'
    );
  });

  it('takes scenario images through cluster.extensions (kept in snapshots)', () => {
    const c = new Cluster();
    setRegistryImages(c, [{ repository: 'registry.example.com/team/app', tag: '1.0', sizeBytes: 123 }]);
    const restored = Cluster.restore(c.snapshot());
    expect(resolveImage(restored, 'registry.example.com/team/app:1.0')).toEqual({
      ok: true,
      image: { repository: 'registry.example.com/team/app', tag: '1.0', sizeBytes: 123 }
    });
    expect(!resolveImage(restored, 'registry.example.com/team/app:2.0').ok).toBe(true);
  });
});

describe('example scenarios', () => {
  it('name only images the registry serves, so their pods can start', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('../../../../scenarios/', import.meta.url);
    const c = new Cluster();
    const missing: string[] = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml')))
      for (const m of readFileSync(new URL(f, dir), 'utf8').matchAll(/^\s*-?\s*image:\s*(\S+)/gm))
        if (!resolveImage(c, m[1]).ok) missing.push(`${f}: ${m[1]}`);
    expect(missing).toEqual([]);
    // The 200-node scenario's node-exporter DaemonSet, which no node could pull before.
    expect(resolveImage(c, 'quay.io/prometheus/node-exporter:v1.8.2')).toEqual({
      ok: true,
      image: { repository: 'quay.io/prometheus/node-exporter', tag: 'v1.8.2', sizeBytes: 11_800_000 }
    });
  });
});
