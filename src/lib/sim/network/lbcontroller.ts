/**
 * A simulated cloud load balancer (the service controller of a cloud-controller-manager): every
 * `type: LoadBalancer` Service gets an external IP from a fixed pool after a provisioning delay,
 * written to status.loadBalancer.ingress. The pool is TEST-NET-2 (198.51.100.0/24, RFC 5737).
 */
import { ApiError, ConnectionError } from '../api/errors';
import type { RequestContext } from '../api/types';
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { addrAt } from './ip';

export const LB_POOL = '198.51.100.0/24';
/** Modelled: cloud load balancers take tens of seconds to provision. */
export const LB_PROVISION_MS = 15_000;
const CTX: RequestContext = { component: 'cloud-controller-manager' };

export class LoadBalancerController implements Component {
  readonly kind = 'service-lb-controller';
  readonly id = 'service-lb-controller';
  state: { queue: string[] } = { queue: [] };
  private unwatch: () => void;

  constructor(
    private cluster: Cluster,
    readonly args: Record<string, never> = {}
  ) {
    this.unwatch = cluster.api.watch('Service', (_t, o) => {
      const key = `${o.metadata.namespace}/${o.metadata.name}`;
      if (
        o.spec?.type === 'LoadBalancer' &&
        !o.status?.loadBalancer?.ingress?.length &&
        !this.state.queue.includes(key)
      ) {
        this.state.queue.push(key);
        cluster.engine.schedule(LB_PROVISION_MS, this.id, 'provision', key);
      }
    });
  }

  start(): void {}

  handle(ev: SimEvent): void {
    if (ev.type !== 'provision') return;
    const key = ev.data as string;
    const [ns, name] = key.split('/');
    const api = this.cluster.api;
    const svc = api.tryGet('Service', ns, name);
    if (!svc || svc.spec?.type !== 'LoadBalancer' || svc.status?.loadBalancer?.ingress?.length) {
      this.state.queue = this.state.queue.filter((k) => k !== key);
      return;
    }
    const used = new Set(
      api
        .list('Service')
        .flatMap((s) => ((s.status?.loadBalancer?.ingress ?? []) as { ip?: string }[]).map((i) => i.ip))
        .filter(Boolean)
    );
    let ip = '';
    for (let i = 10; i < 255 && !ip; i++) if (!used.has(addrAt(LB_POOL, i))) ip = addrAt(LB_POOL, i);
    try {
      api.patch(
        'Service',
        ns,
        name,
        { status: { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } } },
        CTX,
        { subresource: 'status' }
      );
      this.cluster.recorder.event(
        svc,
        'Normal',
        'EnsuredLoadBalancer',
        'Ensured load balancer',
        { component: 'service-controller' },
        CTX
      );
      this.state.queue = this.state.queue.filter((k) => k !== key);
    } catch (e) {
      if (!(e instanceof ApiError || e instanceof ConnectionError)) throw e;
      this.cluster.engine.schedule(5000, this.id, 'provision', key);
    }
  }

  getState(): unknown {
    return this.state;
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as { queue: string[] };
  }

  dispose(): void {
    this.unwatch();
  }
}

export const loadBalancerControllerComponent = defineComponent(
  'service-lb-controller',
  (cluster, args) => new LoadBalancerController(cluster, args)
);
