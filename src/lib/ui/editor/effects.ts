/**
 * What the learner should watch for after an edit or an apply is stored: which component reacts,
 * and when (the i18n key of one sentence per kind of change).
 */
import { parseAllDocuments } from 'yaml';

interface Obj {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

function docs(text: string): Obj[] {
  try {
    return parseAllDocuments(text)
      .map((d) => (d.errors.length ? undefined : (d.toJS() as Obj)))
      .filter((o): o is Obj => !!o && typeof o === 'object');
  } catch {
    return [];
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The i18n keys (under `lab.editor.effect`) for what changed between the object as opened and as
 * saved (`before` is empty for an apply of new text).
 */
export function effectKeys(before: string, after: string): string[] {
  const was = docs(before);
  const out: string[] = [];
  for (const o of docs(after)) {
    const prev = was.find(
      (p) =>
        p.kind === o.kind &&
        p.metadata?.name === o.metadata?.name &&
        p.metadata?.namespace === o.metadata?.namespace
    );
    let key = 'stored';
    if (o.kind === 'Node') {
      if (prev && !same(prev.status?.capacity, o.status?.capacity)) key = 'nodeCapacity';
      else if (prev && !same(prev.spec, o.spec)) key = 'nodeSpec';
    } else if (o.kind === 'Deployment') {
      if (!prev || !same(prev.spec?.template, o.spec?.template)) key = 'deploymentTemplate';
      else if (!same(prev.spec?.replicas, o.spec?.replicas)) key = 'deploymentReplicas';
    } else if (o.kind === 'DaemonSet' && (!prev || !same(prev.spec?.template, o.spec?.template))) {
      key = 'daemonSetTemplate';
    } else if (
      o.kind === 'ConfigMap' &&
      o.metadata?.name === 'kube-proxy' &&
      o.metadata?.namespace === 'kube-system'
    ) {
      key = 'kubeProxyConfig';
    } else if (o.kind === 'Pod' && prev) key = 'pod';
    if (!out.includes(key)) out.push(key);
  }
  return out;
}
