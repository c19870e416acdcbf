/** ValidateNode: name, taints (key, effect, duplicates) and capacity/allocatable quantities. */
import type { KubeObject } from '../../types';
import { duplicate, notSupported, required, type Causes } from './field';
import { validateLabels } from './names';
import { validateObjectMeta } from './meta';
import { validateResourceList } from './resources';
import { TAINT_EFFECTS } from './pod';

export function validateNode(node: KubeObject): Causes {
  const out: Causes = [...validateObjectMeta(node, 'subdomain')];
  const seen = new Set<string>();
  ((node.spec?.taints ?? []) as { key?: string; value?: string; effect?: string }[]).forEach((t, i) => {
    const p = `spec.taints[${i}]`;
    if (!t.key) out.push(required(`${p}.key`));
    else out.push(...validateLabels(`${p}.key`, { [t.key]: '' }));
    if (t.value) out.push(...validateLabels(`${p}.value`, { k: t.value }));
    if (!t.effect) out.push(required(`${p}.effect`));
    else if (!TAINT_EFFECTS.includes(t.effect))
      out.push(notSupported(`${p}.effect`, t.effect, TAINT_EFFECTS));
    const k = `${t.key}:${t.effect}`;
    if (t.key && t.effect && seen.has(k)) {
      out.push(duplicate(p, `${t.key}=${t.value ?? ''}:${t.effect}`));
    }
    seen.add(k);
  });
  out.push(...validateResourceList('status.capacity', node.status?.capacity));
  out.push(...validateResourceList('status.allocatable', node.status?.allocatable));
  return out;
}
