/**
 * Prometheus (component kind `prometheus`): scrapes every target of the metrics registry on a
 * virtual 30 s interval (kube-prometheus' ServiceMonitors' default), keeps the scrapes for the
 * longest rule window (6 h), and evaluates the alerting rules after each scrape, as Prometheus'
 * rule manager does with evaluation_interval = scrape_interval:
 *
 *   inactive → pending (the expression is true) → firing (still true `for:` later) → resolved
 *
 * A pending alert whose expression turns false goes back to inactive without firing. Everything is
 * in component state, so alerts are part of snapshots and time travel. Nothing here writes to the
 * API or the event log.
 */
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import type { BootstrapStep } from '../scenario/hooks';
import { deepFreeze } from '../api/types';
import { RULES, type Severity } from './rules';
import { scrape, type Scrape } from './scrape';

export const PROMETHEUS_ID = 'prometheus';
export const PROMETHEUS_KIND = 'prometheus';
export const SCRAPE_INTERVAL_MS = 30_000;
/** The longest range a rule reads (KubeAPIErrorBudgetBurn's 6 h window). */
export const RETENTION_MS = 6 * 60 * 60_000;
/** Resolved alerts stay listed this long (Prometheus' resolvedRetention). */
export const RESOLVED_RETENTION_MS = 15 * 60_000;
const MAX_TRANSITIONS = 500;

export type AlertState = 'pending' | 'firing' | 'resolved';

export interface Alert {
  alert: string;
  severity: Severity;
  labels: Record<string, string>;
  state: AlertState;
  /** When the expression became true (Prometheus' activeAt). */
  activeAt: number;
  firedAt?: number;
  resolvedAt?: number;
  forMs: number;
  value: number;
}

export interface Transition {
  t: number;
  alert: string;
  severity: Severity;
  labels: Record<string, string>;
  to: AlertState | 'inactive';
}

interface State {
  scrapes: Scrape[];
  /** By alert key: alert name, severity and labels. */
  alerts: Record<string, Alert>;
  transitions: Transition[];
}

export function alertKey(alert: string, severity: string, labels: Record<string, string>): string {
  const l = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
  return `${alert}{severity=${severity}${l ? ',' + l : ''}}`;
}

export class Prometheus implements Component {
  readonly id = PROMETHEUS_ID;
  readonly kind = PROMETHEUS_KIND;
  readonly args: Record<string, never> = {};
  private state: State = { scrapes: [], alerts: {}, transitions: [] };

  constructor(private cluster: Cluster) {}

  start(): void {
    this.cluster.engine.schedule(0, this.id, 'scrape');
  }

  getState(): unknown {
    // Scrapes and transitions are frozen: snapshots share them.
    return {
      scrapes: [...this.state.scrapes],
      alerts: structuredClone(this.state.alerts),
      transitions: [...this.state.transitions]
    };
  }

  setState(s: unknown): void {
    const st = s as State;
    this.state = {
      scrapes: st.scrapes.map((x) => (Object.isFrozen(x) ? x : deepFreeze(structuredClone(x)))),
      alerts: structuredClone(st.alerts),
      transitions: st.transitions.map((x) => (Object.isFrozen(x) ? x : deepFreeze(structuredClone(x))))
    };
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'scrape') return;
    this.scrapeAndEvaluate();
    this.cluster.engine.schedule(SCRAPE_INTERVAL_MS, this.id, 'scrape');
  }

  get scrapes(): readonly Scrape[] {
    return this.state.scrapes;
  }

  /** Alerts pending, firing, or resolved within the last 15 minutes. */
  alerts(): Alert[] {
    return Object.values(this.state.alerts);
  }

  get transitions(): readonly Transition[] {
    return this.state.transitions;
  }

  private scrapeAndEvaluate(): void {
    const now = this.cluster.now;
    const scrapes = this.state.scrapes;
    scrapes.push(deepFreeze(scrape(this.cluster)));
    while (scrapes.length > 1 && scrapes[0].t < now - RETENTION_MS) scrapes.shift();
    const seen = new Set<string>();
    for (const rule of RULES) {
      for (const a of rule.eval(scrapes)) {
        const key = alertKey(rule.alert, rule.severity, a.labels);
        seen.add(key);
        let cur = this.state.alerts[key];
        if (!cur || cur.state === 'resolved') {
          cur = {
            alert: rule.alert,
            severity: rule.severity,
            labels: a.labels,
            state: 'pending',
            activeAt: now,
            forMs: rule.forMs,
            value: a.value
          };
          this.state.alerts[key] = cur;
          this.transition(cur, 'pending');
        }
        cur.value = a.value;
        if (cur.state === 'pending' && now - cur.activeAt >= rule.forMs) {
          cur.state = 'firing';
          cur.firedAt = now;
          this.transition(cur, 'firing');
        }
      }
    }
    for (const [key, a] of Object.entries(this.state.alerts)) {
      if (seen.has(key)) continue;
      if (a.state === 'pending') {
        delete this.state.alerts[key];
        this.transition(a, 'inactive');
      } else if (a.state === 'firing') {
        a.state = 'resolved';
        a.resolvedAt = now;
        this.transition(a, 'resolved');
      } else if (a.resolvedAt !== undefined && now - a.resolvedAt >= RESOLVED_RETENTION_MS) {
        delete this.state.alerts[key];
      }
    }
  }

  private transition(a: Alert, to: Transition['to']): void {
    const list = this.state.transitions;
    list.push(
      deepFreeze({ t: this.cluster.now, alert: a.alert, severity: a.severity, labels: { ...a.labels }, to })
    );
    if (list.length > MAX_TRANSITIONS) list.splice(0, list.length - MAX_TRANSITIONS);
  }
}

export const prometheusComponent = defineComponent(
  PROMETHEUS_KIND,
  (cluster: Cluster) => new Prometheus(cluster)
);

export function prometheus(cluster: Cluster): Prometheus | undefined {
  return cluster.component<Prometheus>(PROMETHEUS_ID);
}

/** Bootstrap step: every cluster is monitored. */
export const prometheusStep: BootstrapStep = (cluster) => {
  cluster.addComponent(PROMETHEUS_KIND, {});
};
