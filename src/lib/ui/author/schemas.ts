/**
 * The lesson schemas as the authoring view's editor reads them (monaco-yaml): the same schemas the
 * loader validates with (`$lib/lessons/schema`, published as `schemas/*.schema.json`), with the
 * check schema inlined under `$defs` and a short description per field for the editor's hover.
 */
import { checkSchema, lessonSpecSchema } from '$lib/lessons/schema';

type Json = Record<string, unknown>;

/** Where the built-in lessons' `# yaml-language-server: $schema=../../schemas/…` lines point. */
export const LESSON_SCHEMA_URI = 'file:///schemas/lesson.schema.json';

/** The folder the authoring view keeps its editor models in (`file:///lessons/<dir>/<file>`). */
export const AUTHOR_ROOT = 'file:///lessons/';

const SPEC_DOCS: Record<string, string> = {
  timeBudget:
    'Virtual time within which the reference solution must satisfy every task (a duration: 90s, 5m, 1h30m).',
  start:
    'How the lab opens: `running` (default) plays the start quietly until nodes are Ready and workloads Running; `boot` opens at t=0.',
  views:
    'The lab panels this lesson shows: map, timeline, scheduling, network, controlplane, events, console, editor, faults.',
  disabled:
    'Actions the learner may not take: `command` (a console command prefix such as `kubectl delete`) or `fault` (a fault action). The text files say why.',
  questions:
    'Prediction questions: `choice` (option ids; texts in lesson.<lang>.md) or `number` (answer, tolerance, unit).',
  tasks: 'What the learner must achieve: an id (described in both lesson texts) and a check on the cluster.',
  solution:
    'The reference solution: steps at virtual times (`at`) that `run` a console command, `apply` YAML, apply a `fault` or `answer` a question.',
  files: 'Files `kubectl apply -f <name>` can read in this lesson (name → YAML).',
  challenge: 'A troubleshooting challenge: one of several faults (variants), drawn from a seed.'
};

const CHECK_DOCS: Record<string, string> = {
  all: 'Every check in the list holds.',
  any: 'At least one check in the list holds.',
  not: 'The check does not hold.',
  pod: 'Pods by name or selector: phase, status, readiness, node, count.',
  node: 'A Node: exists, Ready condition, another condition, a taint, unschedulable, labels, allocatable, capacity.',
  event: 'An Event by reason (and object, type, message), optionally in a time window or after a fault.',
  noPendingPods: 'No pod is Pending (in the namespace, if given).',
  question: 'The learner answered that question correctly.',
  lease: "A node's Lease was renewed within the given time.",
  serviceRouting: "The node's kube-proxy routes the Service to ready endpoints.",
  kubeProxy:
    'kube-proxy on a node (or every node) runs, in a mode, with at least N service ports programmed.',
  etcd: 'etcd: a snapshot was saved, a restore happened, the members have quorum.',
  object: 'Any object field by path: equals a value or exists.'
};

/** A deep copy of `value` with every `$ref: 'check'` pointing at the inlined `$defs/check`. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && v === 'check') out[k] = '#/$defs/check';
    else if (k === '$id') continue;
    else out[k] = rewriteRefs(v);
  }
  return out;
}

function describe(properties: unknown, docs: Record<string, string>) {
  const props = properties as Record<string, Json>;
  for (const [k, d] of Object.entries(docs)) if (props[k]) props[k] = { ...props[k], description: d };
}

/** lesson.yaml's schema for the editor: the loader's, with hover descriptions. */
export function lessonEditorSchema(): Json {
  const check = rewriteRefs(checkSchema) as Json;
  describe(check.properties, CHECK_DOCS);
  const spec = rewriteRefs(lessonSpecSchema) as Json;
  const specProps = (spec.properties as Record<string, Json>).spec.properties;
  describe(specProps, SPEC_DOCS);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Nodeplane lesson (lesson.yaml)',
    ...spec,
    $defs: { check }
  };
}

/** monaco-yaml's schema entry for lesson.yaml files of the authoring view. */
export function lessonSchemaSettings(): { uri: string; fileMatch: string[]; schema: Json } {
  return { uri: LESSON_SCHEMA_URI, fileMatch: ['lessons/*/lesson.yaml'], schema: lessonEditorSchema() };
}
