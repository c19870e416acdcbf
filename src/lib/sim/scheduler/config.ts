/**
 * KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): strict decoding, defaulting and
 * validation, and the plugin sets merged with the defaults as upstream does (mergePluginSet for
 * each extension point, then the multiPoint expansion of NewFramework).
 */
import { parse } from 'yaml';
import { EXTENSION_POINTS, type ExtensionPoint } from './types';
import { argsFields, defaultMultiPoint, registry } from './registry';

export const API_VERSION = 'kubescheduler.config.k8s.io/v1';
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

export interface PluginRef {
  name: string;
  weight?: number;
}

export interface ResolvedProfile {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  /** Enabled plugin names per extension point, in run order. */
  plugins: Record<ExtensionPoint, string[]>;
  /** Score weight per score plugin. */
  weights: Record<string, number>;
  /** Defaulted args per plugin name. */
  args: Record<string, Record<string, unknown>>;
}

export interface SchedulerConfig {
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  profiles: ResolvedProfile[];
}

export class SchedulerConfigError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('\n'));
    this.name = 'SchedulerConfigError';
  }
}

const TOP_FIELDS = [
  'apiVersion',
  'kind',
  'profiles',
  'percentageOfNodesToScore',
  'podInitialBackoffSeconds',
  'podMaxBackoffSeconds',
  'parallelism',
  'leaderElection',
  'clientConnection',
  'healthzBindAddress',
  'metricsBindAddress',
  'enableProfiling',
  'enableContentionProfiling',
  'extenders',
  'delayCacheUntilActive'
];
const PROFILE_FIELDS = ['schedulerName', 'plugins', 'pluginConfig', 'percentageOfNodesToScore'];
const PLUGIN_POINTS = [...EXTENSION_POINTS, 'preEnqueue', 'preBind', 'postBind', 'multiPoint'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function unknownFields(o: Obj, allowed: string[], path: string, errs: string[]): void {
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) errs.push(`${path}${path ? '.' : ''}${k}: unknown field "${k}"`);
}

function pct(v: unknown, path: string, errs: string[]): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) {
    errs.push(`${path}: Invalid value: ${JSON.stringify(v)}: not in valid range [0-100]`);
    return undefined;
  }
  return v;
}

interface PluginSet {
  enabled: PluginRef[];
  disabled: PluginRef[];
}

function readSet(v: unknown, path: string, errs: string[]): PluginSet {
  const out: PluginSet = { enabled: [], disabled: [] };
  if (v === undefined || v === null) return out;
  if (!isObj(v)) {
    errs.push(`${path}: Invalid value: expected an object with enabled/disabled`);
    return out;
  }
  unknownFields(v, ['enabled', 'disabled'], path, errs);
  for (const which of ['enabled', 'disabled'] as const) {
    const list = v[which] ?? [];
    if (!Array.isArray(list)) {
      errs.push(`${path}.${which}: Invalid value: must be a list`);
      continue;
    }
    list.forEach((p: unknown, i) => {
      const f = `${path}.${which}[${i}]`;
      if (!isObj(p) || typeof p.name !== 'string') {
        errs.push(`${f}.name: Required value`);
        return;
      }
      unknownFields(p, ['name', 'weight'], f, errs);
      if (p.name !== '*' && !registry[p.name]) errs.push(`${f}.name: unknown plugin "${p.name}"`);
      if (
        p.weight !== undefined &&
        (typeof p.weight !== 'number' || !Number.isInteger(p.weight) || p.weight < 0 || p.weight > 100)
      ) {
        errs.push(`${f}.weight: Invalid value: ${JSON.stringify(p.weight)}: not in valid range [0, 100]`);
      }
      out[which].push({ name: p.name, weight: p.weight as number | undefined });
    });
  }
  return out;
}

/** mergePluginSet: defaults minus disabled ("*" drops all), re-configured ones in place, the rest appended. */
export function mergePluginSet(defaults: PluginSet, custom: PluginSet): PluginSet {
  const disabled = new Set(custom.disabled.map((p) => p.name));
  const customIdx = new Map(custom.enabled.map((p, i) => [p.name, i]));
  const replaced = new Set<number>();
  const enabled: PluginRef[] = [];
  if (!disabled.has('*')) {
    for (const d of defaults.enabled) {
      if (disabled.has(d.name)) continue;
      const i = customIdx.get(d.name);
      if (i !== undefined) {
        enabled.push(custom.enabled[i]);
        replaced.add(i);
      } else enabled.push(d);
    }
  }
  custom.enabled.forEach((p, i) => {
    if (!replaced.has(i)) enabled.push(p);
  });
  return { enabled, disabled: custom.disabled };
}

function implementsPoint(name: string, point: string): boolean {
  return (registry[name]?.points as string[] | undefined)?.includes(point) ?? false;
}

/** NewFramework's expandMultiPointPlugins plus the explicit per-point lists. */
function resolvePoints(
  sets: Record<string, PluginSet>,
  path: string,
  errs: string[]
): ResolvedProfile['plugins'] & { weights: Record<string, number> } {
  const multi = sets.multiPoint;
  const weights: Record<string, number> = {};
  const plugins = {} as Record<ExtensionPoint, string[]>;
  for (const m of multi.enabled) if (implementsPoint(m.name, 'score')) weights[m.name] = m.weight || 1;
  for (const point of EXTENSION_POINTS) {
    const set = sets[point];
    set.enabled.forEach((p, i) => {
      if (registry[p.name] && !implementsPoint(p.name, point)) {
        errs.push(`${path}.${point}.enabled[${i}].name: plugin "${p.name}" does not extend ${point} plugin`);
      }
    });
    const explicit = set.enabled.map((p) => p.name);
    const disabled = new Set(set.disabled.map((p) => p.name));
    const fromMulti: string[] = [];
    if (!disabled.has('*')) {
      for (const m of multi.enabled) {
        if (!implementsPoint(m.name, point) || disabled.has(m.name) || explicit.includes(m.name)) continue;
        if (fromMulti.includes(m.name)) {
          errs.push(`${path}.multiPoint.enabled: plugin "${m.name}" already registered as "${point}"`);
          continue;
        }
        fromMulti.push(m.name);
      }
    }
    const multiNames = new Set(multi.enabled.map((m) => m.name));
    const overrides = explicit.filter((n) => multiNames.has(n));
    const others = explicit.filter((n) => !multiNames.has(n));
    plugins[point] = [...overrides, ...fromMulti, ...others];
    if (point === 'score') for (const p of set.enabled) weights[p.name] = p.weight || 1;
  }
  return Object.assign(plugins, { weights });
}

export function resolveConfig(raw: unknown, source = 'config'): SchedulerConfig {
  const errs: string[] = [];
  const o: Obj = isObj(raw) ? raw : {};
  if (raw !== undefined && raw !== null && !isObj(raw))
    errs.push(`${source}: expected a KubeSchedulerConfiguration object`);
  if (o.apiVersion !== undefined && o.apiVersion !== API_VERSION) {
    errs.push(
      `apiVersion: Unsupported value: ${JSON.stringify(o.apiVersion)}: supported values: "${API_VERSION}"`
    );
  }
  if (o.kind !== undefined && o.kind !== 'KubeSchedulerConfiguration') {
    errs.push(
      `kind: Unsupported value: ${JSON.stringify(o.kind)}: supported values: "KubeSchedulerConfiguration"`
    );
  }
  unknownFields(o, TOP_FIELDS, '', errs);
  const percentage = pct(o.percentageOfNodesToScore, 'percentageOfNodesToScore', errs);
  const initial = (o.podInitialBackoffSeconds as number | undefined) ?? 1;
  const max = (o.podMaxBackoffSeconds as number | undefined) ?? 10;
  if (!(initial > 0))
    errs.push(`podInitialBackoffSeconds: Invalid value: ${JSON.stringify(initial)}: must be greater than 0`);
  if (max < initial)
    errs.push(
      `podMaxBackoffSeconds: Invalid value: ${JSON.stringify(max)}: must be greater than or equal to PodInitialBackoffSeconds`
    );
  const rawProfiles = o.profiles === undefined ? [{}] : o.profiles;
  const profiles: ResolvedProfile[] = [];
  if (!Array.isArray(rawProfiles)) errs.push('profiles: Invalid value: must be a list');
  else {
    const names = new Set<string>();
    rawProfiles.forEach((p: unknown, i) => {
      const path = `profiles[${i}]`;
      if (!isObj(p)) {
        errs.push(`${path}: Invalid value: expected an object`);
        return;
      }
      unknownFields(p, PROFILE_FIELDS, path, errs);
      const name = (p.schedulerName as string | undefined) || DEFAULT_SCHEDULER_NAME;
      if (names.has(name)) errs.push(`${path}.schedulerName: Duplicate value: "${name}"`);
      names.add(name);
      profiles.push(resolveProfile(p, name, path, errs));
    });
  }
  if (errs.length) throw new SchedulerConfigError(errs);
  return {
    percentageOfNodesToScore: percentage,
    podInitialBackoffSeconds: initial,
    podMaxBackoffSeconds: max,
    profiles
  };
}

function resolveProfile(p: Obj, name: string, path: string, errs: string[]): ResolvedProfile {
  const pl = p.plugins ?? {};
  if (!isObj(pl)) errs.push(`${path}.plugins: Invalid value: expected an object`);
  else unknownFields(pl, PLUGIN_POINTS, `${path}.plugins`, errs);
  const sets: Record<string, PluginSet> = {};
  for (const point of ['multiPoint', ...EXTENSION_POINTS]) {
    const custom = readSet(isObj(pl) ? pl[point] : undefined, `${path}.plugins.${point}`, errs);
    const defaults: PluginSet = { enabled: point === 'multiPoint' ? defaultMultiPoint : [], disabled: [] };
    sets[point] = mergePluginSet(defaults, custom);
  }
  const resolved = resolvePoints(sets, `${path}.plugins`, errs);
  const { weights, ...plugins } = resolved;
  if (plugins.queueSort.length !== 1)
    errs.push(`${path}.plugins.queueSort: Invalid value: one queue sort plugin required for profile`);
  if (!plugins.bind.length)
    errs.push(`${path}.plugins.bind: Invalid value: at least one bind plugin is needed`);
  const enabled = new Set(Object.values(plugins).flat());
  const args: Record<string, Record<string, unknown>> = {};
  for (const n of enabled) {
    const d = registry[n]?.defaultArgs?.();
    if (d) args[n] = d;
  }
  const pc = p.pluginConfig ?? [];
  if (!Array.isArray(pc)) errs.push(`${path}.pluginConfig: Invalid value: must be a list`);
  else {
    const seen = new Set<string>();
    pc.forEach((c: unknown, i) => {
      const f = `${path}.pluginConfig[${i}]`;
      if (!isObj(c) || typeof c.name !== 'string') {
        errs.push(`${f}.name: Required value`);
        return;
      }
      unknownFields(c, ['name', 'args'], f, errs);
      if (seen.has(c.name)) errs.push(`${f}.name: Duplicate value: "${c.name}"`);
      seen.add(c.name);
      const entry = registry[c.name];
      if (!entry) {
        errs.push(`${f}.name: unknown plugin "${c.name}"`);
        return;
      }
      if (!entry.argsKind) {
        errs.push(`${f}.args: Invalid value: plugin "${c.name}" does not take arguments`);
        return;
      }
      const a = (c.args ?? {}) as Obj;
      if (!isObj(a)) {
        errs.push(`${f}.args: Invalid value: expected an object`);
        return;
      }
      if (a.kind !== undefined && a.kind !== entry.argsKind) {
        errs.push(`${f}.args.kind: Invalid value: ${JSON.stringify(a.kind)}: expected "${entry.argsKind}"`);
      }
      const userArgs = { ...a };
      delete userArgs.kind;
      delete userArgs.apiVersion;
      unknownFields(userArgs, argsFields[entry.argsKind], `${f}.args`, errs);
      const merged = { ...entry.defaultArgs!(), ...userArgs };
      if (c.name === 'NodeResourcesFit' && isObj(userArgs.scoringStrategy)) {
        const s = userArgs.scoringStrategy as Obj;
        merged.scoringStrategy = {
          type: s.type ?? 'LeastAllocated',
          resources: s.resources ?? [
            { name: 'cpu', weight: 1 },
            { name: 'memory', weight: 1 }
          ],
          ...(s.requestedToCapacityRatio ? { requestedToCapacityRatio: s.requestedToCapacityRatio } : {})
        };
      }
      for (const e of entry.validate?.(merged) ?? []) errs.push(`${f}.args.${e}`);
      args[c.name] = merged;
    });
  }
  return {
    schedulerName: name,
    percentageOfNodesToScore: pct(p.percentageOfNodesToScore, `${path}.percentageOfNodesToScore`, errs),
    plugins,
    weights: Object.fromEntries(Object.entries(weights).filter(([n]) => plugins.score.includes(n))),
    args
  };
}

/** Parse YAML text; errors name the field. */
export function parseSchedulerConfig(text: string, source = 'config'): SchedulerConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    throw new SchedulerConfigError([`${source}: ${(e as Error).message}`]);
  }
  return resolveConfig(raw, source);
}

export function defaultSchedulerConfig(): SchedulerConfig {
  return resolveConfig({});
}
