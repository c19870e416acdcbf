/**
 * The recorded explanation of one scheduling attempt, kept compactly. kube-scheduler keeps the last
 * attempts of up to ~2,000 pods (HISTORY_NODE_BUDGET node verdicts): an object per node and per
 * plugin made them a third of the live heap at 100 nodes / 3,000 pods. An `AttemptRecord` holds the
 * same facts with one small record per attempt:
 *
 * - the nodes, in the order the attempt recorded them, as a window of the cache's node list
 *   (shared by every attempt while the node list stays the same),
 * - the filter verdicts as one character per node (0 = passed every filter, else an index into the
 *   attempt's table of distinct failing verdicts: plugin, code and upstream reasons),
 * - the scores as one column per score plugin over the scored nodes, raw and normalized: a single
 *   number when every node got the same, a string of character codes when all are integers in
 *   0..65535, a frozen array otherwise; weighted and final scores are recomputed from them with the
 *   same floating-point steps as the cycle.
 *
 * Strings and frozen objects are immutable, so snapshots share records as they are. The read side
 * (`materializeAttempt`) builds the `SchedulingAttempt` shape the explanation views read, with
 * the same keys in the same order and the same values as the cycle would have recorded.
 */
import type { Code, NodeExplanation, SchedulingAttempt } from './types';

/** Numbers per scored node: one number when all alike, char codes when all fit, else an array. */
export type Column = number | string | readonly number[];

/** A failing Filter verdict: `at` is the plugin's index in the record's `filterPlugins`. */
export interface FailedVerdict {
  readonly at: number;
  readonly status: StatusRecord;
}

export interface ScoreColumns {
  /** The score plugins that ran (PreScore did not skip them), in the profile's order. */
  readonly plugins: readonly string[];
  readonly weights: readonly number[];
  /** Per plugin: Score's values, then NormalizeScore's, over the scored nodes in record order. */
  readonly raw: readonly Column[];
  readonly norm: readonly Column[];
}

type StatusRecord = { readonly code: Code; readonly reasons: readonly string[] };

export interface AttemptRecord {
  readonly t: number;
  readonly pod: string;
  readonly profile: string;
  readonly selectedNode: string | null;
  readonly message: string;
  readonly nominatedNodeName?: string;
  readonly victims?: readonly string[];
  readonly evaluatedNodes: number;
  readonly totalNodes: number;
  readonly preFilter: Readonly<Record<string, StatusRecord>>;
  readonly preScore: Readonly<Record<string, StatusRecord>>;
  readonly postFilter?: SchedulingAttempt['postFilter'];
  /** The nominated node, recorded first when the pod had one. */
  readonly first?: string;
  /** Then `count` names of `ring` from `start` on (wrapping), less `first` if the walk met it. */
  readonly ring: readonly string[];
  readonly start: number;
  readonly count: number;
  /** The Filter plugins as each node's record lists them: the `skipped` ones first (Skip). */
  readonly filterPlugins: readonly string[];
  readonly skipped: number;
  /** One char per recorded node: 0 when it passed, else 1 + its verdict's index in `fails`. */
  readonly verdicts: string;
  readonly fails: readonly FailedVerdict[];
  /** Absent when nothing was scored (no node or a single node passed). Nodes that passed are scored. */
  readonly scores?: ScoreColumns;
}

// ---- building ----------------------------------------------------------------------------------

/** Verdicts carrying no reasons, shared: a record lists one per plugin per node. */
export const SKIP_VERDICT: StatusRecord = Object.freeze({
  code: 'Skip',
  reasons: Object.freeze([]) as readonly string[]
});
export const SUCCESS_VERDICT: StatusRecord = Object.freeze({
  code: 'Success',
  reasons: Object.freeze([]) as readonly string[]
});

/**
 * A bounded intern table: equal values recorded again (the same failing verdict on every node and
 * in every attempt of a Deployment's pods) are held once. It is cleared when full, so it never
 * keeps more than `limit` values alive by itself.
 */
class Interner<T> {
  private m = new Map<string, T>();
  /** How many times the table was cleared: a value got before is the one a key gives while it stays. */
  clears = 0;
  constructor(private readonly limit: number) {}
  get(key: string, make: () => T): T {
    let v = this.m.get(key);
    if (v === undefined) {
      if (this.m.size >= this.limit) {
        this.m.clear();
        this.clears++;
      }
      v = make();
      this.m.set(key, v);
    }
    return v;
  }
}

const lists = new Interner<readonly string[]>(1024);
const numberLists = new Interner<readonly number[]>(1024);
const verdictTable = new Interner<FailedVerdict>(4096);

/** A frozen list of names, one instance per distinct list. */
export function internNames(names: readonly string[]): readonly string[] {
  return lists.get(names.join('\u0000'), () => Object.freeze(names.slice()));
}

function internNumbers(values: readonly number[]): readonly number[] {
  return numberLists.get(values.join(','), () => Object.freeze(values.slice()));
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The node names of the cache's current node list (the list keeps its identity until it changes). */
const ringOf = new WeakMap<readonly { name: string }[], readonly string[]>();
let lastRing: readonly string[] = Object.freeze([]);

export function nodeRing(nodes: readonly { name: string }[]): readonly string[] {
  let r = ringOf.get(nodes);
  if (r && r.length === nodes.length) {
    // Entries are replaced in place (a node's update): names stay where they were.
    return r;
  }
  const names = nodes.map((n) => n.name);
  r =
    names.length === lastRing.length && names.every((n, i) => n === lastRing[i])
      ? lastRing
      : Object.freeze(names);
  lastRing = r;
  ringOf.set(nodes, r);
  return r;
}

const CHUNK = 8192;

function charCodes(codes: ArrayLike<number>, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += CHUNK) {
    const part = Array.prototype.slice.call(codes, i, Math.min(n, i + CHUNK)) as number[];
    s += String.fromCharCode.apply(null, part);
  }
  return s;
}

/** Pack the first `n` values of `v` into a column (exact: -0, fractions and NaN keep an array). */
export function packColumn(v: ArrayLike<number>, n: number): Column {
  if (n === 0) return Object.freeze([]) as readonly number[];
  const first = v[0];
  let same = true;
  let small = true;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (same && !Object.is(x, first)) same = false;
    if (small && !(Number.isInteger(x) && x >= 0 && x <= 0xffff && !Object.is(x, -0))) small = false;
    if (!same && !small) break;
  }
  if (same) return first;
  if (small) return charCodes(v, n);
  return Object.freeze(Array.prototype.slice.call(v, 0, n) as number[]);
}

export function columnAt(c: Column, i: number): number {
  return typeof c === 'number' ? c : typeof c === 'string' ? c.charCodeAt(i) : c[i];
}

const EMPTY: readonly never[] = Object.freeze([]);

/** A status as an attempt records it (a reason-less Skip is the shared one). */
export function statusRecord(code: Code, reasons: readonly string[]): StatusRecord {
  if (!reasons.length) {
    if (code === 'Skip') return SKIP_VERDICT;
    if (code === 'Success') return SUCCESS_VERDICT;
  }
  return { code, reasons: reasons as string[] };
}

/**
 * Collects one attempt as the cycle runs; `finish` freezes it into an AttemptRecord. The cycle
 * reports each node it filtered (`node`), the score columns (`score`) and the outcome.
 */
export class AttemptBuilder {
  preFilter: Record<string, StatusRecord> = {};
  preScore: Record<string, StatusRecord> = {};
  postFilter?: SchedulingAttempt['postFilter'];
  selectedNode: string | null = null;
  message = '';
  nominatedNodeName?: string;
  victims?: string[];
  evaluatedNodes = 0;
  private first?: string;
  private ring: readonly string[] = EMPTY;
  private start = 0;
  private count = 0;
  private filterPlugins: readonly string[] = EMPTY;
  private skipped = 0;
  private codes: number[] = [];
  private fails: FailedVerdict[] = [];
  private failIndex = new Map<FailedVerdict, number>();
  /** The last failing verdict recorded, and its number (the next node often fails the same way). */
  private last?: {
    plugin: string | undefined;
    code: Code;
    reasons: readonly string[];
    plugins: readonly string[];
    clears: number;
    index: number;
  };
  private scorePlugins: string[] = [];
  private weights: number[] = [];
  private raw: Column[] = [];
  private norm: Column[] = [];
  private scored = false;

  constructor(
    readonly t: number,
    readonly pod: string,
    readonly profile: string,
    readonly totalNodes: number
  ) {}

  /** The Filter plugins this cycle: those PreFilter skipped, then those that run, in order. */
  filters(skippedNames: readonly string[], activeNames: readonly string[]): void {
    this.filterPlugins = internNames([...skippedNames, ...activeNames]);
    this.skipped = skippedNames.length;
  }

  /** The walk's node list and where it starts (the nodes are then reported in walk order). */
  walk(ring: readonly string[], start: number): void {
    this.ring = ring;
    this.start = start;
  }

  /** The nominated node's verdict (recorded first): null = passed. */
  nominated(name: string, plugin: string | undefined, code: Code, reasons: readonly string[] | null): void {
    this.first = name;
    this.codes.push(reasons ? this.verdict(plugin, code, reasons) : 0);
  }

  /** The next node of the walk: null reasons = passed every filter. */
  node(name: string, plugin: string | undefined, code: Code, reasons: readonly string[] | null): void {
    this.count++;
    const v = reasons ? this.verdict(plugin, code, reasons) : 0;
    // The nominated node met again keeps its first place, with the walk's verdict.
    if (this.first !== undefined && name === this.first) this.codes[0] = v;
    else this.codes.push(v);
  }

  private verdict(plugin: string | undefined, code: Code, reasons: readonly string[]): number {
    const last = this.last;
    if (
      last &&
      last.plugin === plugin &&
      last.code === code &&
      last.plugins === this.filterPlugins &&
      last.clears === verdictTable.clears &&
      sameStrings(last.reasons, reasons)
    )
      return last.index;
    const index = this.verdictIndex(plugin, code, reasons);
    this.last = {
      plugin,
      code,
      reasons: reasons.slice(),
      plugins: this.filterPlugins,
      clears: verdictTable.clears,
      index
    };
    return index;
  }

  private verdictIndex(plugin: string | undefined, code: Code, reasons: readonly string[]): number {
    const at = plugin === undefined ? -1 : this.filterPlugins.indexOf(plugin);
    const v = verdictTable.get(`${at}\u0000${plugin}\u0000${code}\u0000${reasons.join('\u0000')}`, () =>
      Object.freeze({ at, status: Object.freeze({ code, reasons: Object.freeze(reasons.slice()) }) })
    );
    let i = this.failIndex.get(v);
    if (i === undefined) {
      i = this.fails.length;
      this.fails.push(v);
      this.failIndex.set(v, i);
    }
    return i + 1;
  }

  /** The feasible nodes are scored (each gets a final score, even when every plugin sat out). */
  scoring(): void {
    this.scored = true;
  }

  /** One score plugin's values over the scored nodes: Score's, then NormalizeScore's. */
  score(plugin: string, weight: number, raw: Column, norm: Column): void {
    this.scorePlugins.push(plugin);
    this.weights.push(weight);
    this.raw.push(raw);
    // The same values twice (NormalizeScore changed nothing): one string, not two.
    this.norm.push(typeof raw === 'string' && raw === norm ? raw : norm);
  }

  finish(): AttemptRecord {
    const r: {
      -readonly [K in keyof AttemptRecord]: AttemptRecord[K];
    } = {
      t: this.t,
      pod: this.pod,
      profile: this.profile,
      selectedNode: this.selectedNode,
      message: this.message,
      evaluatedNodes: this.evaluatedNodes,
      totalNodes: this.totalNodes,
      preFilter: freezeStatuses(this.preFilter),
      preScore: freezeStatuses(this.preScore),
      ring: this.ring,
      start: this.start,
      count: this.count,
      filterPlugins: this.filterPlugins,
      skipped: this.skipped,
      verdicts: charCodes(this.codes, this.codes.length),
      fails: Object.freeze(this.fails.slice())
    };
    if (this.first !== undefined) r.first = this.first;
    if (this.postFilter) r.postFilter = deepFreezePost(this.postFilter);
    if (this.nominatedNodeName) r.nominatedNodeName = this.nominatedNodeName;
    if (this.victims) r.victims = Object.freeze(this.victims);
    if (this.scored)
      r.scores = Object.freeze({
        plugins: internNames(this.scorePlugins),
        weights: internNumbers(this.weights),
        raw: Object.freeze(this.raw.slice()),
        norm: Object.freeze(this.norm.slice())
      });
    return Object.freeze(r);
  }
}

const statusRecords = new Interner<Readonly<Record<string, StatusRecord>>>(1024);

/**
 * A PreFilter or PreScore record, frozen: one shared record for each list of plugins that all
 * returned a reason-less Skip or Success (nearly every attempt's), else this one.
 */
function freezeStatuses(m: Record<string, StatusRecord>): Readonly<Record<string, StatusRecord>> {
  const keys = Object.keys(m);
  let shared = true;
  for (const k of keys) {
    const s = m[k];
    if (s === SKIP_VERDICT || s === SUCCESS_VERDICT) continue;
    shared = false;
    Object.freeze(s.reasons);
    Object.freeze(s);
  }
  if (!shared) return Object.freeze(m);
  const key = keys.map((k) => `${k}\u0000${m[k].code}`).join('\u0000');
  return statusRecords.get(key, () => Object.freeze(m));
}

function deepFreezePost(p: NonNullable<SchedulingAttempt['postFilter']>): SchedulingAttempt['postFilter'] {
  Object.freeze(p.reasons);
  if (p.nodes) {
    for (const k of Object.keys(p.nodes)) {
      Object.freeze(p.nodes[k].reasons);
      Object.freeze(p.nodes[k]);
    }
    Object.freeze(p.nodes);
  }
  return Object.freeze(p);
}

// ---- reading -----------------------------------------------------------------------------------

/** Node verdicts the record holds (one per node it filtered). */
export function recordedNodes(r: AttemptRecord): number {
  return r.verdicts.length;
}

/** The names of the recorded nodes, in record order. */
export function recordedNames(r: AttemptRecord): string[] {
  const out: string[] = [];
  if (r.first !== undefined) out.push(r.first);
  const n = r.ring.length;
  for (let i = 0; i < r.count; i++) {
    const name = r.ring[(r.start + i) % n];
    if (name !== r.first) out.push(name);
  }
  return out;
}

function filterRecord(r: AttemptRecord, v: number): Record<string, { code: Code; reasons: string[] }> {
  const rec: Record<string, { code: Code; reasons: string[] }> = {};
  const plugins = r.filterPlugins;
  const fail = v === 0 ? undefined : r.fails[v - 1];
  const end = fail ? fail.at : plugins.length;
  for (let k = 0; k < r.skipped; k++) rec[plugins[k]] = SKIP_VERDICT as { code: Code; reasons: string[] };
  for (let k = r.skipped; k < end; k++)
    rec[plugins[k]] = SUCCESS_VERDICT as { code: Code; reasons: string[] };
  if (fail && fail.at >= 0) rec[plugins[fail.at]] = fail.status as { code: Code; reasons: string[] };
  return Object.freeze(rec);
}

/**
 * The SchedulingAttempt the cycle recorded, built from the record: node by node the filter
 * verdicts (nodes with the same verdicts share one frozen record), then the scores of the scored
 * nodes — raw, normalized, normalized × weight, and their sum in the plugins' order — frozen.
 */
export function materializeAttempt(r: AttemptRecord): SchedulingAttempt {
  const names = recordedNames(r);
  const nodes: Record<string, NodeExplanation> = {};
  const records = new Map<number, NodeExplanation['filter']>();
  const sc = r.scores;
  let scored = 0;
  for (let i = 0; i < names.length; i++) {
    const v = r.verdicts.charCodeAt(i);
    let filter = records.get(v);
    if (!filter) records.set(v, (filter = filterRecord(r, v)));
    const e: NodeExplanation = { filter, score: {}, rawScore: {}, weightedScore: {}, finalScore: null };
    if (sc && v === 0) {
      let total = 0;
      for (let j = 0; j < sc.plugins.length; j++) {
        const p = sc.plugins[j];
        const s = columnAt(sc.norm[j], scored);
        e.rawScore[p] = columnAt(sc.raw[j], scored);
        e.score[p] = s;
        e.weightedScore[p] = s * sc.weights[j];
        total += s * sc.weights[j];
      }
      // The cycle's totals start at 0 and add each plugin's weighted score, as here.
      e.finalScore = total;
      scored++;
    }
    Object.freeze(e.score);
    Object.freeze(e.rawScore);
    Object.freeze(e.weightedScore);
    nodes[names[i]] = Object.freeze(e);
  }
  const a: SchedulingAttempt = {
    t: r.t,
    pod: r.pod,
    profile: r.profile,
    selectedNode: r.selectedNode,
    message: r.message,
    evaluatedNodes: r.evaluatedNodes,
    totalNodes: r.totalNodes,
    nodes: Object.freeze(nodes),
    preFilter: r.preFilter as SchedulingAttempt['preFilter'],
    preScore: r.preScore as SchedulingAttempt['preScore']
  };
  if (r.postFilter) a.postFilter = r.postFilter;
  if (r.nominatedNodeName) a.nominatedNodeName = r.nominatedNodeName;
  if (r.victims) a.victims = r.victims as string[];
  return Object.freeze(a);
}
