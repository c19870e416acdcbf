/**
 * Writing node-controller taints (pkg/controller/controller_utils.go: AddOrUpdateTaintOnNode,
 * RemoveTaintOffNode, SwapNodeControllerTaint). Each write re-reads the node and retries on
 * conflicts, up to UpdateTaintBackoff's 5 steps; any other API failure gives up for this pass.
 */
import type { KubeObject, Mutable, Taint } from '../../api/types';
import { clone } from '../../api/types';
import { isApiError } from '../../api/errors';
import type { ControllerHost } from '../controller';
import { sameTaint } from '../../api/corev1/taints';

const UPDATE_TAINT_STEPS = 5;

function updateTaints(
  host: ControllerHost,
  nodeName: string,
  change: (taints: Mutable<Taint>[]) => Mutable<Taint>[] | null
): void {
  const api = host.cluster.api;
  for (let i = 0; ; i++) {
    const node = api.tryGet<KubeObject>('Node', undefined, nodeName);
    if (!node) return;
    const next = change(clone((node.spec?.taints ?? []) as Taint[]));
    if (!next) return;
    const upd = clone(node);
    upd.spec = { ...(upd.spec ?? {}), taints: next };
    if (!next.length) delete upd.spec.taints;
    try {
      api.update(upd, host.ctx);
      return;
    } catch (err) {
      if (isApiError(err, 'Conflict') && i < UPDATE_TAINT_STEPS - 1) continue;
      throw err;
    }
  }
}

/**
 * SwapNodeControllerTaint: add `toAdd` (stamped with timeAdded = now) and remove `toRemove` in one
 * update. Returns false when the API refused the write.
 */
export function swapNodeControllerTaint(
  host: ControllerHost,
  nodeName: string,
  toAdd: Taint[],
  toRemove: Taint[]
): boolean {
  const now = host.cluster.api.timestamp();
  try {
    updateTaints(host, nodeName, (taints) => {
      let changed = false;
      let out = taints;
      for (const t of toAdd) {
        const i = out.findIndex((x) => sameTaint(x, t));
        const stamped = { ...t, timeAdded: now };
        if (i >= 0) {
          if ((out[i].value ?? '') === (t.value ?? '')) continue;
          out[i] = stamped;
        } else out.push(stamped);
        changed = true;
      }
      const before = out.length;
      out = out.filter((x) => !toRemove.some((r) => sameTaint(r, x)));
      if (out.length !== before) changed = true;
      return changed ? out : null;
    });
    return true;
  } catch (err) {
    host.logError(`failed to swap taints of node "${nodeName}"`, err);
    return false;
  }
}

/** RemoveTaintOffNode for several taints; throws the API error. */
export function removeTaintsOffNode(host: ControllerHost, nodeName: string, toRemove: Taint[]): void {
  updateTaints(host, nodeName, (taints) => {
    const out = taints.filter((x) => !toRemove.some((r) => sameTaint(r, x)));
    return out.length === taints.length ? null : out;
  });
}
