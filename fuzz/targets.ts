/**
 * Fuzz targets: generators of hostile input for every door untrusted text comes through, and the
 * rule each input must obey — accepted, or rejected with a message that names the place (file and
 * line, or the field); never an internal error, a hang, or a change left behind by a rejection.
 *
 * Used by the bounded run in `npm test` (tests/unit/fuzz-inputs.test.ts) and the longer
 * `npm run fuzz` (fuzz/run.ts), which prints the figures per generator.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { ApiError } from '../src/lib/sim/api/errors';
import type { Cluster } from '../src/lib/sim/cluster';
import { ConsoleSession } from '../src/lib/sim/kubectl/console';
import { LessonError } from '../src/lib/lessons/format';
import { loadLesson } from '../src/lib/lessons/loader';
import { ManifestError, applyManifests, parseManifests } from '../src/lib/sim/manifests';
import { createCluster, loadScenario } from '../src/lib/sim/scenario';
import { backupIssues } from '../src/lib/persist/backup';
import { readState } from '../src/lib/ui/lessons/progress';
import { decodeFragment, encodeFragment, parseRecording } from '../src/lib/ui/lab/share';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { readPackZip, ZIP_LIMITS } from '../src/lib/packs/zip';
import { validatePack } from '../src/lib/packs/validate';
import { replayLesson } from '../src/lib/packs/replay';
import { replayIssues } from '../src/lib/packs/import';
import { readPackFolder } from '../tests/fixtures/packs/read';

export type Outcome = 'accepted' | 'rejected';

export interface Tally {
  tried: number;
  accepted: number;
  rejected: number;
  failures: { input: string; problem: string }[];
}

export interface Target<T = string> {
  name: string;
  arbitrary: fc.Arbitrary<T>;
  /** Returns the outcome, or throws/returns a string describing a failure. */
  run(input: T): Outcome | { failure: string };
}

/** Longest an input may take before it counts as a hang. */
export const HANG_MS = 5_000;

/** Errors that mean the code broke, not that the input was refused. */
function internal(e: unknown): string | undefined {
  if (!(e instanceof Error)) return `threw a non-Error: ${String(e)}`;
  if (
    e instanceof RangeError ||
    e instanceof TypeError ||
    e instanceof ReferenceError ||
    e instanceof SyntaxError
  )
    return `${e.name}: ${e.message}`;
  if (/Maximum call stack|is not a function|Cannot read prop|undefined is not/.test(e.message))
    return `internal error: ${e.message}`;
  return undefined;
}

/** A rejection message names a place: `file:line[:col]`, `line N`, or a field path. */
export function namesPlace(message: string, file?: string): boolean {
  if (file && message.includes(file)) return true;
  if (/:\d+(:\d+)?: /.test(message) || /\bline \d+/.test(message)) return true;
  return (
    /(^|[\s"(])[a-zA-Z][\w-]*(\.[\w-]+|\[[^\]]*\])+(: | is | must )/.test(message) ||
    /^(error: )?[a-z-]+:/.test(message)
  );
}

// --- building blocks -----------------------------------------------------------------------------

const weirdScalar = fc.oneof(
  fc.constantFrom(
    '-1',
    '1e400',
    '100000000',
    '"-1"',
    '0.0000000001',
    'NaN',
    '.inf',
    '~',
    'null',
    '""',
    "'\\u0000'",
    '"\\x07\\x1b[31m"',
    '&a [1]',
    '*nope',
    '!!binary aGVsbG8=',
    '{',
    ']',
    '"unterminated',
    '1Ki',
    '1.5Gi',
    '1e3m',
    '9999999999999999999999Ei',
    'true',
    '[]',
    '{}'
  ),
  fc.string({ maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc.integer().map(String),
  fc.double().map(String)
);

const nameish = fc.oneof(
  fc.constantFrom(
    'web',
    'a'.repeat(300),
    'Web_App',
    '-web',
    'web-',
    'a.b',
    'ünïcode',
    '',
    'kube-system',
    '..'
  ),
  fc.stringMatching(/^[a-z0-9.-]{1,70}$/)
);

const labelKey = fc.constantFrom(
  'app',
  'example.com/app',
  '/app',
  'a/b/c',
  'UPPER/x',
  `${'a'.repeat(64)}`,
  `${'a'.repeat(254)}/x`,
  'kubernetes.io/hostname',
  'bad key',
  'app:'
);

function billionLaughs(levels: number): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < levels; i++)
    lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  return lines.join('\n') + '\n';
}

function deep(levels: number, style: 'flow' | 'block' | 'dash'): string {
  if (style === 'flow') return '['.repeat(levels) + ']'.repeat(levels);
  if (style === 'dash') return '- '.repeat(levels) + 'x';
  return Array.from({ length: levels }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n') + ' 1';
}

const deployment = (f: {
  name: string;
  replicas: string;
  cpu: string;
  memory: string;
  labelKey: string;
  extra: string;
}): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${f.name}
  labels: { ${JSON.stringify(f.labelKey)}: web }
spec:
  replicas: ${f.replicas}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: c
          image: nginx:1.27
          resources: { requests: { cpu: ${f.cpu}, memory: ${f.memory} } }
${f.extra}`;

/** Mostly a good value, sometimes a hostile one, so inputs get both accepted and rejected. */
const mostly = (...good: string[]): fc.Arbitrary<string> =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: weirdScalar });

/** A YAML manifest: a Deployment with hostile fields, or a pathological document. */
export const manifestText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        name: fc.oneof({ weight: 3, arbitrary: fc.constant('web') }, { weight: 1, arbitrary: nameish }),
        replicas: mostly('1', '3', '0'),
        cpu: mostly('250m', '"1"', '0.5'),
        memory: mostly('128Mi', '1Gi', '64M'),
        labelKey: fc.oneof({ weight: 3, arbitrary: fc.constant('app') }, { weight: 1, arbitrary: labelKey }),
        extra: fc.constantFrom(
          '',
          '',
          '',
          'metadata: { name: dup }\n',
          '---\n',
          '---\napiVersion: v1\nkind: Pod\n',
          '---\nkind: Unknown\napiVersion: x/v1\nmetadata: { name: u }\n',
          '---\napiVersion: v1\nkind: Node\nmetadata: { name: worker-1 }\nstatus: { capacity: { cpu: "-4" } }\n',
          '---\napiVersion: v1\nkind: Service\nmetadata: { name: s }\nspec: { ports: [{ port: 99999 }] }\n'
        )
      })
      .map(deployment)
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 3, max: 12 })
      .map(
        (n) =>
          `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: lol }\ndata:\n${billionLaughs(n).replace(/^/gm, '  ')}`
      )
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 200, max: 5000 }),
        fc.constantFrom<'flow' | 'block' | 'dash'>('flow', 'block', 'dash')
      )
      .map(([n, s]) => `apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  x: ${deep(n, s)}\n`)
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
  {
    weight: 1,
    arbitrary: fc
      .string({ maxLength: 200 })
      .map((s) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${s}\n  name: other\n`)
  }
);

// --- targets -------------------------------------------------------------------------------------

function objectsJSON(c: Cluster): string {
  return JSON.stringify(c.api.snapshot().objects);
}

let baseCluster: { text: string } | undefined;
function freshCluster(): Cluster {
  baseCluster ??= { text: readFileSync('scenarios/three-nodes.yaml', 'utf8') };
  const { cluster } = createCluster(baseCluster.text, { fileName: 'three-nodes.yaml' });
  cluster.runUntil(20_000);
  return cluster;
}

function guarded(run: () => Outcome): Outcome | { failure: string } {
  const start = performance.now();
  let out: Outcome | { failure: string };
  try {
    out = run();
  } catch (e) {
    out = { failure: internal(e) ?? `unexpected throw: ${(e as Error).message}` };
  }
  const ms = performance.now() - start;
  if (ms > HANG_MS) return { failure: `took ${Math.round(ms)} ms` };
  return out;
}

/** The editor's Apply and `kubectl apply -f`: the same parse and all-or-nothing apply. */
function manifestTarget(): Target {
  let cluster: Cluster | undefined;
  return {
    name: 'manifests (editor, kubectl apply)',
    arbitrary: manifestText,
    run: (text) =>
      guarded(() => {
        cluster ??= freshCluster();
        const before = objectsJSON(cluster);
        let outcome: Outcome = 'accepted';
        try {
          applyManifests(cluster, parseManifests(text, 'fuzz.yaml').objects, { component: 'kubectl' });
        } catch (e) {
          if (internal(e)) throw e;
          if (e instanceof ManifestError) {
            const bad = e.issues.find((i) => i.file !== 'fuzz.yaml' || !(i.line >= 1));
            if (bad) throw new Error(`issue without a place: ${JSON.stringify(bad)}`, { cause: e });
          } else if (!(e instanceof ApiError) || !namesPlace(e.message)) {
            throw new Error(`rejection names no place: ${(e as Error).message}`, { cause: e });
          }
          if (objectsJSON(cluster) !== before)
            throw new Error('a rejected apply changed the cluster', { cause: e });
          outcome = 'rejected';
        }
        // kubectl apply from the console: an error on stderr, no exception.
        const console = new ConsoleSession(cluster, { files: { 'fuzz.yaml': text } });
        const before2 = objectsJSON(cluster);
        const r = console.exec('kubectl apply -f fuzz.yaml');
        if (r.exitCode !== 0) {
          if (!r.stderr.trim()) throw new Error('kubectl apply failed silently');
          // kubectl applies object by object and reports each: only what it says it wrote may change.
          if (objectsJSON(cluster) !== before2 && !/ (created|configured)$/m.test(r.stdout))
            throw new Error('a rejected kubectl apply changed the cluster without saying so');
        }
        if (outcome === 'accepted') cluster = undefined; // start the next input from a clean cluster
        return outcome;
      })
  };
}

const scenarioText: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      count: mostly('1', '2', '3'),
      cpu: mostly('"4"', '2', '"500m"'),
      memory: mostly('8Gi', '16Gi'),
      seed: mostly('42', '1'),
      duration: fc.constantFrom('3m', '3m', '3m', '-1s', '1e400h', 'forever', '0s', '99999999h'),
      fault: fc.constantFrom('StopKubelet', 'StopKubelet', 'StopKubelet', 'Explode', '', 'DeleteNode'),
      target: fc.constantFrom('worker-1', 'worker-1', 'worker-1', 'worker-99', 'etcd-7', '', 'a'.repeat(300)),
      at: fc.constantFrom('10s', '10s', '10s', '-5s', 'soon', '1e400s'),
      members: fc.constantFrom('1', '1', '3', '3', '2', '0', '-1', '1000', 'three')
    })
    .map(
      (f) => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: fuzz }
spec:
  seed: ${f.seed}
  duration: ${f.duration}
  controlPlane: { etcd: { members: ${f.members} } }
  nodePools:
    - name: worker
      count: ${f.count}
      capacity: { cpu: ${f.cpu}, memory: ${f.memory} }
  faults:
    - { at: ${f.at}, action: ${f.fault}, target: ${f.target} }
`
    ),
  manifestText.map(
    (m) =>
      `apiVersion: nodeplane.dev/v1alpha1\nkind: Scenario\nmetadata: { name: fuzz }\nspec: { nodePools: [{ name: w, count: 1 }] }\n---\n${m}`
  ),
  fc
    .integer({ min: 300, max: 4000 })
    .map(
      (n) =>
        `apiVersion: nodeplane.dev/v1alpha1\nkind: Scenario\nmetadata: { name: fuzz }\nspec: ${deep(n, 'flow')}\n`
    )
);

function scenarioTarget(): Target {
  return {
    name: 'scenario files (run, validate)',
    arbitrary: scenarioText,
    run: (text) =>
      guarded(() => {
        try {
          loadScenario(text, 'fuzz-scenario.yaml');
        } catch (e) {
          if (internal(e)) throw e;
          if (!(e instanceof ManifestError))
            throw new Error(`rejection without issues: ${(e as Error).message}`, { cause: e });
          const bad = e.issues.find((i) => !(i.line >= 1) || i.file !== 'fuzz-scenario.yaml');
          if (bad) throw new Error(`issue without a place: ${JSON.stringify(bad)}`, { cause: e });
          return 'rejected';
        }
        const { cluster } = createCluster(text, { fileName: 'fuzz-scenario.yaml' });
        cluster.runUntil(5_000);
        return 'accepted';
      })
  };
}

const FIXTURE = 'tests/fixtures/lessons/01-fixture';
let fixtureFiles: Record<string, string> | undefined;
function lessonFixture(): Record<string, string> {
  fixtureFiles ??= Object.fromEntries(
    ['lesson.yaml', 'scenario.yaml', 'lesson.en.md', 'lesson.ru.md'].map((f) => [
      f,
      readFileSync(`${FIXTURE}/${f}`, 'utf8')
    ])
  );
  return fixtureFiles;
}

const lessonFolder: fc.Arbitrary<{ dir: string; files: Record<string, string> }> = fc
  .record({
    dir: fc.constantFrom('lessons/01-fuzz', 'lessons/fuzz', 'x/99-' + 'a'.repeat(300), 'lessons/00-ü'),
    file: fc.constantFrom('lesson.yaml', 'scenario.yaml', 'lesson.en.md', 'lesson.ru.md'),
    how: fc.constantFrom('keep', 'keep', 'replace', 'insert', 'drop', 'truncate'),
    payload: fc.oneof(
      weirdScalar,
      manifestText,
      fc.constantFrom(
        '<script>alert(1)</script>',
        '<img src=x onerror=alert(1)>',
        '[x](javascript:alert(1))',
        '---\n---\n',
        billionLaughs(10),
        deep(3000, 'flow')
      )
    ),
    at: fc.nat()
  })
  .map(({ dir, file, how, payload, at }) => {
    const files = { ...lessonFixture() };
    const t = files[file];
    const i = t.length ? at % t.length : 0;
    if (how === 'keep') return { dir: 'lessons/01-fixture', files };
    if (how === 'replace') files[file] = payload;
    else if (how === 'insert') files[file] = t.slice(0, i) + payload + t.slice(i);
    else if (how === 'truncate') files[file] = t.slice(0, i);
    else delete files[file];
    return { dir, files };
  });

function lessonTarget(): Target<{ dir: string; files: Record<string, string> }> {
  return {
    name: 'lesson folders',
    arbitrary: lessonFolder,
    run: ({ dir, files }) =>
      guarded(() => {
        try {
          loadLesson(dir, files);
          return 'accepted';
        } catch (e) {
          if (internal(e)) throw e;
          if (!(e instanceof LessonError))
            throw new Error(`rejection without issues: ${(e as Error).message}`, { cause: e });
          const bad = e.issues.find((i) => !i.file?.startsWith(dir));
          if (bad) throw new Error(`issue without a file: ${JSON.stringify(bad)}`, { cause: e });
          return 'rejected';
        }
      })
  };
}

const recordingArb = fc.record({
  scenario: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('<script>alert(1)</script>')),
  fileName: fc.constantFrom('s.yaml', '../../etc/passwd', ''),
  t: fc.oneof(fc.nat(), fc.constant(-1), fc.double()),
  actions: fc.array(
    fc.oneof(
      fc.record({ t: fc.nat(), kind: fc.constant('console'), line: fc.string({ maxLength: 30 }) }),
      fc.record({ t: fc.integer(), kind: fc.constant('fault'), action: fc.string({ maxLength: 20 }) }),
      fc.record({ t: fc.nat(), kind: fc.constant('apply'), yaml: fc.string(), fileName: fc.string() }),
      fc.anything()
    ),
    { maxLength: 5 }
  )
});

const fragmentArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }).map((s) => `#lab=${s}`),
  fc.base64String({ maxLength: 400 }).map((s) => `lab=${s.replace(/=/g, '')}`),
  recordingArb.map((r) => {
    try {
      return '#' + encodeFragment(r as never);
    } catch {
      return '#lab=';
    }
  }),
  fc.tuple(recordingArb, fc.nat(), fc.string({ minLength: 1, maxLength: 1 })).map(([r, i, ch]) => {
    const f = encodeFragment({ ...r, t: 1, actions: [] } as never);
    const k = 4 + (i % Math.max(1, f.length - 4));
    return '#' + f.slice(0, k) + ch + f.slice(k + 1);
  }),
  fc.string({ maxLength: 100 })
);

function fragmentTarget(): Target {
  return {
    name: 'share-link fragments',
    arbitrary: fragmentArb,
    run: (fragment) =>
      guarded(() => {
        try {
          const r = decodeFragment(fragment);
          if (r === undefined) return 'rejected';
          parseRecording(JSON.parse(JSON.stringify({ format: 'nodeplane.dev/lab/v1', ...r })));
          return 'accepted';
        } catch (e) {
          if (internal(e)) throw e;
          if (!/lab file|share link/.test((e as Error).message))
            throw new Error(`rejection does not say what was wrong: ${(e as Error).message}`, { cause: e });
          return 'rejected';
        }
      })
  };
}

const progressRecord = fc.record(
  {
    schema: fc.oneof(fc.constant(2), fc.anything()),
    slug: fc.oneof(fc.constant('01-cluster-anatomy'), fc.string(), fc.constant('__proto__')),
    status: fc.oneof(fc.constantFrom('started', 'completed'), fc.anything()),
    completedSteps: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.anything()),
    hintsUsed: fc.oneof(fc.nat(), fc.anything()),
    startedAt: fc.oneof(fc.nat(), fc.anything()),
    updatedAt: fc.oneof(fc.nat(), fc.anything()),
    state: fc.anything()
  },
  { requiredKeys: [] }
);

const backupArb: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      format: fc.oneof(fc.constant('nodeplane-backup'), fc.anything()),
      version: fc.oneof(fc.constant(2), fc.anything()),
      progress: fc.oneof(fc.array(progressRecord, { maxLength: 3 }), fc.anything()),
      sandboxes: fc.oneof(fc.constant([]), fc.anything()),
      settings: fc.oneof(fc.constant([]), fc.anything())
    })
    .map((b) => JSON.stringify(b) ?? 'undefined'),
  fc.constantFrom(
    '{"format":"nodeplane-backup","version":2,"progress":[],"sandboxes":[],"settings":[],"__proto__":{"polluted":1}}',
    '{"__proto__":{"format":"nodeplane-backup"}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '[]',
    'null',
    '"text"'
  ),
  fc.string({ maxLength: 100 })
);

function backupTarget(): Target {
  return {
    name: 'progress and backup imports',
    arbitrary: backupArb,
    run: (text) =>
      guarded(() => {
        let data: unknown;
        try {
          data = JSON.parse(text);
        } catch {
          return 'rejected'; // importAll words this "not valid JSON (...)"
        }
        const issues = backupIssues(data);
        if (({} as Record<string, unknown>).polluted !== undefined)
          throw new Error('Object.prototype was polluted');
        if (issues.some((i) => !i.trim())) throw new Error('an empty reason');
        // Each record the player reads back must come out as a usable state.
        const progress = (data as { progress?: unknown } | null)?.progress;
        if (Array.isArray(progress)) for (const p of progress) readState(p as never);
        return issues.length ? 'rejected' : 'accepted';
      })
  };
}

const consoleLine: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'kubectl get',
        'kubectl describe',
        'kubectl delete',
        'kubectl logs',
        'kubectl apply -f',
        'kubectl label node worker-1',
        'kubectl taint nodes worker-1',
        'kubectl scale deployment web --replicas',
        'kubectl cordon',
        'kubectl get pods -o',
        'kubectl get pods -o jsonpath=',
        'ssh worker-1',
        'nodeplane trace',
        'journalctl -u',
        'crictl',
        'systemctl stop',
        'history',
        'help'
      ),
      fc.array(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.string({ unit: 'grapheme', maxLength: 10 }),
          fc.constantFrom(
            '"',
            "'",
            '\\',
            '|',
            '||',
            '| grep',
            '| head -n -1',
            '| wc',
            '$(rm -rf /)',
            '`x`',
            '\u0000',
            '\u001b[2J',
            '\r\n',
            '{.items[*]',
            '-1',
            '99999999999999999999',
            '--replicas=-5',
            'a=b:NoExecute',
            "'unterminated",
            '"a b"'
          ),
          fc.constant('x'.repeat(100_000))
        ),
        { maxLength: 4 }
      )
    )
    .map(([cmd, args]) => [cmd, ...args].join(' ')),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 50 })
);

function consoleTarget(): Target {
  let cluster: Cluster | undefined;
  let session: ConsoleSession | undefined;
  return {
    name: 'console lines',
    arbitrary: consoleLine,
    run: (line) =>
      guarded(() => {
        cluster ??= freshCluster();
        session ??= new ConsoleSession(cluster, { files: { 'fuzz.yaml': 'apiVersion: v1\nkind: Pod\n' } });
        const before = objectsJSON(cluster);
        const r = session.exec(line);
        session.interrupt();
        if (session.node) session.exec('exit');
        if (typeof r.stdout !== 'string' || typeof r.stderr !== 'string')
          throw new Error('no output strings');
        if (r.exitCode === 0) {
          cluster = undefined;
          session = undefined;
          return 'accepted';
        }
        if (!r.stderr.trim() && !r.stdout.trim()) throw new Error(`exit ${r.exitCode} with no message`);
        if (objectsJSON(cluster) !== before) throw new Error('a failed command changed the cluster');
        return 'rejected';
      })
  };
}

// --- lesson packs (.zip bytes) ------------------------------------------------------------------

let packFiles: Record<string, string> | undefined;
function validPackFiles(): Record<string, string> {
  packFiles ??= readPackFolder('valid');
  return packFiles;
}

/** Zip raw entries as given (names unchecked: `../`, absolute, backslashes), stored or deflated. */
function rawZip(entries: [string, Uint8Array][], level: 0 | 6 = 6): Uint8Array {
  const tree: Zippable = {};
  for (const [name, data] of entries) tree[name] = [data, { level, mtime: new Date(2026, 0, 1) }];
  return zipSync(tree);
}

const textEntries = (files: Record<string, string>): [string, Uint8Array][] =>
  Object.entries(files).map(([k, v]) => [k, strToU8(v)]);

let bomb: Uint8Array | undefined;
/** 40 MiB of zeros in one file: a few dozen KiB zipped. Built once. */
export function zipBomb(): Uint8Array {
  bomb ??= rawZip([
    ...textEntries(validPackFiles()),
    ['01-cordon/zeros.md', new Uint8Array(40 * 1024 * 1024)]
  ]);
  return bomb;
}

/**
 * The bomb with its declared sizes rewritten to 100 bytes (local header and central directory), so
 * the size checks before inflating are lied to.
 */
export function lyingBomb(): Uint8Array {
  const b = zipBomb().slice();
  const view = new DataView(b.buffer);
  for (let i = 0; i + 46 <= b.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50 && view.getUint32(i + 22, true) > ZIP_LIMITS.fileBytes)
      view.setUint32(i + 22, 100, true);
    if (sig === 0x02014b50 && view.getUint32(i + 24, true) > ZIP_LIMITS.fileBytes)
      view.setUint32(i + 24, 100, true);
  }
  return b;
}

const hostileMarkdown = [
  '<script>alert(1)</script>',
  '<img src=x onerror="alert(1)">',
  '[click](javascript:alert(1))',
  '<iframe src="https://example.com"></iframe>',
  '<svg><script>alert(1)</script></svg>',
  '<div style="background:url(https://example.com/x.png)">x</div>',
  '```question nope\n```',
  '```command\nkubectl delete node --all\n```',
  '\u202e\u0000\u001b[2J',
  '#'.repeat(5000)
];

type PackCase = { how: string; bytes: Uint8Array };

const packCase: fc.Arbitrary<PackCase> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constant(null).map(() => ({ how: 'valid', bytes: rawZip(textEntries(validPackFiles())) }))
  },
  {
    weight: 2,
    arbitrary: fc.nat().map((at) => {
      const z = rawZip(textEntries(validPackFiles()));
      return { how: 'truncated', bytes: z.slice(0, at % z.length) };
    })
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
      const z = rawZip(textEntries(validPackFiles()));
      z[at % z.length] = byte;
      return { how: 'one byte changed', bytes: z };
    })
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('bomb', 'lying bomb')
      .map((how) => ({ how, bytes: how === 'bomb' ? zipBomb() : lyingBomb() }))
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        '../pack.yaml',
        '01-cordon/../../x.md',
        '/etc/passwd',
        'C:/x.md',
        '01-cordon\\lesson.md',
        './pack.yaml',
        '01 cordon/x.md',
        'a/b/c/d.md',
        'ü/x.md'
      )
      .map((name) => ({
        how: `path ${name}`,
        bytes: rawZip([...textEntries(validPackFiles()), [name, strToU8('x')]])
      }))
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: ZIP_LIMITS.files - 2, max: ZIP_LIMITS.files + 200 }).map((n) => ({
      how: `${n} files`,
      bytes: rawZip([
        ...textEntries(validPackFiles()),
        ...Array.from({ length: n }, (_, i): [string, Uint8Array] => [`01-cordon/f${i}.md`, strToU8('x')])
      ])
    }))
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('pack.yaml', '01-cordon/lesson.en.md', '01-cordon/lesson.yaml'),
        fc.uint8Array({ minLength: 1, maxLength: 40 })
      )
      .map(([name, junk]) => {
        const files = textEntries(validPackFiles()).map(([k, v]): [string, Uint8Array] =>
          k === name ? [k, new Uint8Array([...v.slice(0, 10), 0xff, 0xfe, ...junk])] : [k, v]
        );
        return { how: `non-UTF-8 ${name}`, bytes: rawZip(files) };
      })
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('01-cordon/lesson.en.md', '01-cordon/lesson.ru.md'),
        fc.constantFrom(...hostileMarkdown),
        fc.nat()
      )
      .map(([name, payload, at]) => {
        const files = { ...validPackFiles() };
        const t = files[name];
        const i = t.length ? at % t.length : 0;
        files[name] = t.slice(0, i) + '\n\n' + payload + '\n\n' + t.slice(i);
        return { how: `hostile markdown in ${name}`, bytes: rawZip(textEntries(files)) };
      })
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom('pack.yaml', '01-cordon/lesson.yaml', '01-cordon/scenario.yaml'),
        fc.oneof(
          weirdScalar,
          fc.constantFrom(
            billionLaughs(10),
            deep(3000, 'flow'),
            'version: 2.0.0\nid: ../x\n',
            'id: Night_Shift\n'
          )
        ),
        fc.constantFrom('replace', 'append')
      )
      .map(([name, payload, how]) => {
        const files = { ...validPackFiles() };
        files[name] = how === 'replace' ? payload : `${files[name]}\n${payload}\n`;
        return { how: `${how} ${name}`, bytes: rawZip(textEntries(files)) };
      })
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ how: 'random bytes', bytes })) }
);

/** Bytes of a pack `.zip`, read, validated and replayed as the app's import does (without saving). */
function packTarget(): Target<PackCase> {
  return {
    name: 'lesson packs (.zip)',
    arbitrary: packCase,
    run: ({ bytes }) =>
      guarded(() => {
        const fileName = 'fuzz-pack.zip';
        const named = (issues: { file?: string; message: string }[], files?: Record<string, string>) => {
          if (!issues.length) throw new Error('refused with no issue');
          const bad = issues.find(
            (i) =>
              !i.message.trim() ||
              !i.file ||
              !(
                i.file.startsWith(fileName) ||
                (files && i.file.split(':')[0] in files) ||
                /^[\w.-]+(\/[\w.-]+)?$/.test(i.file)
              )
          );
          if (bad) throw new Error(`issue without a place: ${JSON.stringify(bad)}`);
          return 'rejected' as const;
        };
        const zip = readPackZip(bytes, fileName);
        if (!zip.files) return named(zip.issues);
        if (zip.issues.length) throw new Error('files and issues both returned');
        const total = Object.values(zip.files).reduce((n, t) => n + t.length, 0);
        if (total > ZIP_LIMITS.totalBytes) throw new Error(`unpacked ${total} characters, over the limit`);
        const { pack, issues } = validatePack(zip.files);
        if (!pack) return named(issues, zip.files);
        const replayed = pack.lessons.flatMap((l) => {
          const r = replayLesson(l);
          return r.ok ? [] : replayIssues(r, zip.files!);
        });
        return replayed.length ? named(replayed, zip.files) : 'accepted';
      })
  };
}

export function targets(): Target<never>[] {
  return [
    manifestTarget(),
    scenarioTarget(),
    lessonTarget(),
    fragmentTarget(),
    backupTarget(),
    consoleTarget(),
    packTarget()
  ] as unknown as Target<never>[];
}

/** Run `runs` generated inputs through a target. */
export function fuzz<T>(t: Target<T>, runs: number, seed: number): Tally {
  const tally: Tally = { tried: 0, accepted: 0, rejected: 0, failures: [] };
  for (const input of fc.sample(t.arbitrary, { numRuns: runs, seed })) {
    tally.tried++;
    const out = t.run(input);
    if (out === 'accepted') tally.accepted++;
    else if (out === 'rejected') tally.rejected++;
    else {
      const shown = typeof input === 'string' ? input : JSON.stringify(input);
      tally.failures.push({
        input: shown.length > 400 ? shown.slice(0, 400) + '…' : shown,
        problem: out.failure
      });
    }
  }
  return tally;
}
