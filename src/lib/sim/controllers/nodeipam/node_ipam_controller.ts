/**
 * node-ipam-controller with the RangeAllocator (pkg/controller/nodeipam/ipam/range_allocator.go):
 * gives every new node a /24 (--node-cidr-mask-size) from --cluster-cidr, searching from the
 * block after the last one handed out, as cidrset.AllocateNext does.
 *
 * The blocks in use are kept as the allocator's cidrset keeps them (cidrset/cidr_set.go: a bitmap
 * the allocator marks from the existing nodes' podCIDRs when it starts, occupyCIDRs, and clears
 * when a node is deleted, ReleaseCIDR), here by CIDR with a count of the nodes that hold it, so an
 * allocation does not list every Node.
 */
import type { KubeObject } from '../../api/types';
import type { Controller, ControllerHost } from '../controller';

/** --node-cidr-mask-size-ipv4 default. */
export const NODE_CIDR_MASK_SIZE = 24;

interface State {
  nextCandidate: number;
}

function parseCIDR(cidr: string): { base: number; prefix: number } {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
  if (!m) throw new Error(`invalid cluster CIDR "${cidr}"`);
  const base = ((+m[1] << 24) | (+m[2] << 16) | (+m[3] << 8) | +m[4]) >>> 0;
  const prefix = +m[5];
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { base: (base & mask) >>> 0, prefix };
}

function formatIP(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function nodeCIDRs(node: KubeObject | undefined): string[] {
  if (!node) return [];
  return ((node.spec?.podCIDRs ?? [node.spec?.podCIDR]) as (string | undefined)[]).filter(
    (c): c is string => !!c
  );
}

export class NodeIpamController implements Controller {
  readonly name = 'node-ipam-controller';
  private s: State = { nextCandidate: 0 };
  /**
   * The podCIDRs the Nodes hold, each with how many hold it; counted from the Nodes at the first
   * allocation and kept from the Node watch after (derived from API objects, not state).
   */
  private used: Map<string, number> | undefined;

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    return [
      this.host.cluster.api.watch('Node', (type, node, old) => {
        if (this.used) {
          const before = type === 'DELETED' ? nodeCIDRs(old ?? node) : nodeCIDRs(old);
          const after = type === 'DELETED' ? [] : nodeCIDRs(node);
          if (before.join() !== after.join()) {
            for (const c of before) this.occupy(c, -1);
            for (const c of after) this.occupy(c, 1);
          }
        }
        if (type !== 'DELETED' && !node.spec?.podCIDR) this.host.enqueue(node.metadata.name);
      })
    ];
  }

  private occupy(cidr: string, by: 1 | -1): void {
    const n = (this.used!.get(cidr) ?? 0) + by;
    if (n > 0) this.used!.set(cidr, n);
    else this.used!.delete(cidr);
  }

  /** The podCIDRs in use, counted over every Node (what the kept counts must equal). */
  countUsed(): Map<string, number> {
    const used = new Map<string, number>();
    for (const n of this.host.cluster.api.list<KubeObject>('Node'))
      for (const c of nodeCIDRs(n)) used.set(c, (used.get(c) ?? 0) + 1);
    return used;
  }

  /** The kept podCIDR counts, when kept (for tests). */
  keptUsed(): Map<string, number> | undefined {
    return this.used && new Map(this.used);
  }

  start(): void {}

  resyncKeys(): string[] {
    return this.host.cluster.api
      .list('Node')
      .filter((n) => !n.spec?.podCIDR)
      .map((n) => n.metadata.name);
  }

  getState(): unknown {
    return this.s;
  }

  setState(s: unknown): void {
    this.s = s as State;
  }

  sync(name: string): void {
    const api = this.host.cluster.api;
    const node = api.tryGet<KubeObject>('Node', undefined, name);
    if (!node || node.spec?.podCIDR) return;
    const { base, prefix } = parseCIDR(this.host.cluster.config.network.clusterCIDR);
    const size = NODE_CIDR_MASK_SIZE;
    const max = 2 ** Math.max(0, size - prefix);
    const used = (this.used ??= this.countUsed());
    const cidrAt = (i: number) => `${formatIP((base + i * 2 ** (32 - size)) >>> 0)}/${size}`;
    let found = -1;
    for (let i = 0; i < max; i++) {
      const candidate = (i + this.s.nextCandidate) % max;
      if (!used.has(cidrAt(candidate))) {
        found = candidate;
        break;
      }
    }
    if (found < 0) {
      this.host.cluster.recorder.event(
        { kind: 'Node', apiVersion: 'v1', metadata: { name, uid: node.metadata.uid } },
        'Normal',
        'CIDRNotAvailable',
        `Node ${name} status is now: CIDRNotAvailable`,
        { component: 'cidrAllocator' },
        this.host.ctx
      );
      throw new Error(
        `failed to allocate cidr from cluster cidr: CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range`
      );
    }
    const cidr = cidrAt(found);
    api.patch('Node', undefined, name, { spec: { podCIDR: cidr, podCIDRs: [cidr] } }, this.host.ctx);
    this.s.nextCandidate = (found + 1) % max;
  }
}
