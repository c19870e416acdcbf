/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): every pod tolerates
 * `node.kubernetes.io/not-ready:NoExecute` and `node.kubernetes.io/unreachable:NoExecute` for
 * --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds (300), unless
 * it already has a toleration for them (same key or empty key, NoExecute or empty effect).
 */
import type { AdmissionPlugin } from '../apiserver';
import type { ApiServerConfig } from '../../config';

import {
  TAINT_NOT_READY as TAINT_NODE_NOT_READY,
  TAINT_UNREACHABLE as TAINT_NODE_UNREACHABLE
} from '../corev1/taints';

interface TolerationLike {
  key?: string;
  effect?: string;
}

function tolerates(tolerations: TolerationLike[], key: string): boolean {
  return tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
}

export function defaultTolerationSecondsPlugin(config: () => ApiServerConfig): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    admit(op, obj, old) {
      if (obj.kind !== 'Pod' || (op !== 'CREATE' && op !== 'UPDATE') || !obj.spec) return;
      // The stored spec itself (a status write): it got its tolerations when it was written.
      if (obj.spec === old?.spec) return;
      const tolerations: TolerationLike[] = (obj.spec.tolerations ??= []);
      const cfg = config();
      if (!tolerates(tolerations, TAINT_NODE_NOT_READY)) {
        tolerations.push({
          key: TAINT_NODE_NOT_READY,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: cfg.defaultNotReadyTolerationSeconds
        } as TolerationLike);
      }
      if (!tolerates(tolerations, TAINT_NODE_UNREACHABLE)) {
        tolerations.push({
          key: TAINT_NODE_UNREACHABLE,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: cfg.defaultUnreachableTolerationSeconds
        } as TolerationLike);
      }
    }
  };
}
