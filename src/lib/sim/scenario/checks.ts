/**
 * Checks a schema cannot express: impossible quantities, duplicate or malformed node names,
 * reserved resources above capacity, fault targets that do not exist, an unmodelled version.
 */
import { tryParseQuantity } from '../api/quantity';
import {
  duplicate,
  forbidden,
  invalidValue,
  notSupported,
  required,
  type Causes
} from '../api/admission/validation/field';
import { validateLabels, validateName } from '../api/admission/validation/names';
import { DEFAULT_KUBERNETES_VERSION, minorVersion } from '../config';
import { parseDuration } from '../engine/duration';
import { capacityProblem, DEFAULT_CAPACITY, MAX_CLUSTER_NODES, nodeNames } from './nodes';
import type { ScenarioSpec } from './types';
import { poolProblems } from '../controllers/cluster-autoscaler/flavours';
import { faultTargetKind, isControlPlaneFault } from '../registry';
import { PROVIDER_NAME, poolKind } from '../controlplane/managed';

/** Kubernetes minors whose defaults Nodeplane models. */
export const OLDEST_MINOR = 28;
export const NEWEST_MINOR = 35;

const EVICTION_SIGNALS = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'pid.available'
];
const CIDR_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

function checkCIDR(field: string, v: string | undefined, out: Causes): void {
  if (v === undefined) return;
  const m = CIDR_RE.exec(v);
  if (!m || m.slice(1, 5).some((x) => parseInt(x, 10) > 255) || parseInt(m[5], 10) > 32) {
    out.push(invalidValue(field, v, 'must be a valid IPv4 CIDR such as 10.244.0.0/16'));
  }
}

function checkQuantities(
  field: string,
  list: Record<string, string | number> | undefined,
  out: Causes
): void {
  for (const [name, q] of Object.entries(list ?? {})) {
    const v = tryParseQuantity(q);
    if (v !== undefined && v < 0)
      out.push(invalidValue(`${field}[${name}]`, String(q), 'must be greater than or equal to 0'));
  }
}

export function checkScenarioSpec(spec: ScenarioSpec): Causes {
  const out: Causes = [];
  if (spec.kubernetesVersion !== undefined) {
    let minor: number | undefined;
    try {
      minor = minorVersion(spec.kubernetesVersion);
    } catch {
      out.push(
        invalidValue(
          'spec.kubernetesVersion',
          spec.kubernetesVersion,
          'expected v1.<minor>.<patch>, for example v1.35.0'
        )
      );
    }
    if (minor !== undefined && (minor < OLDEST_MINOR || minor > NEWEST_MINOR)) {
      out.push(
        invalidValue(
          'spec.kubernetesVersion',
          spec.kubernetesVersion,
          `Nodeplane models v1.${OLDEST_MINOR} to v1.${NEWEST_MINOR}`
        )
      );
    }
  }
  const allNodes = new Set<string>();
  const poolNames = new Set<string>();
  let total = 0;
  (spec.nodePools ?? []).forEach((pool, i) => {
    const p = `spec.nodePools[${i}]`;
    if (pool.name) {
      out.push(...validateName(`${p}.name`, pool.name, 'label'));
      if (poolNames.has(pool.name)) out.push(duplicate(`${p}.name`, pool.name));
      poolNames.add(pool.name);
    }
    total += pool.count ?? 0;
    if (pool.names && pool.names.length !== pool.count) {
      out.push(
        invalidValue(`${p}.names`, pool.names.length, `must list exactly count (${pool.count}) names`)
      );
    }
    if (pool.name) {
      nodeNames(pool).forEach((n, j) => {
        const f = pool.names ? `${p}.names[${j}]` : `${p}.name`;
        out.push(...validateName(f, n, 'subdomain'));
        if (allNodes.has(n)) out.push(duplicate(f, n));
        allNodes.add(n);
      });
    }
    for (const [name, q] of Object.entries(pool.capacity ?? {})) {
      const problem = capacityProblem(name, q);
      if (problem) out.push(invalidValue(`${p}.capacity[${name}]`, String(q), problem));
    }
    checkQuantities(`${p}.kubeReserved`, pool.kubeReserved, out);
    checkQuantities(`${p}.systemReserved`, pool.systemReserved, out);
    for (const r of ['cpu', 'memory']) {
      const cap = tryParseQuantity(pool.capacity?.[r] ?? DEFAULT_CAPACITY[r]) ?? 0;
      const reserved =
        (tryParseQuantity(pool.kubeReserved?.[r] ?? 0) ?? 0) +
        (tryParseQuantity(pool.systemReserved?.[r] ?? 0) ?? 0);
      if (cap >= 0 && reserved > cap) {
        out.push(
          invalidValue(
            `${p}.kubeReserved[${r}]`,
            String(pool.kubeReserved?.[r] ?? 0),
            `kubeReserved + systemReserved ${r} exceed the node's capacity`
          )
        );
      }
    }
    for (const [signal, v] of Object.entries(pool.evictionHard ?? {})) {
      const f = `${p}.evictionHard[${signal}]`;
      if (!EVICTION_SIGNALS.includes(signal))
        out.push(notSupported(`${p}.evictionHard`, signal, EVICTION_SIGNALS));
      else if (!/^\d+(\.\d+)?%$/.test(String(v)) && (tryParseQuantity(v) ?? -1) < 0) {
        out.push(invalidValue(f, String(v), 'must be a non-negative quantity (100Mi) or a percentage (10%)'));
      }
    }
    out.push(...validateLabels(`${p}.labels`, pool.labels));
    if (pool.kubeletVersion !== undefined) {
      // Version skew policy: a kubelet may be older than kube-apiserver (up to three minors is
      // supported), never newer.
      const cp = spec.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
      if (!/^v1\.\d+\.\d+$/.test(pool.kubeletVersion)) {
        out.push(
          invalidValue(
            `${p}.kubeletVersion`,
            pool.kubeletVersion,
            'expected v1.<minor>.<patch>, for example v1.33.4'
          )
        );
      } else if (/^v?1\.\d+/.test(cp) && minorVersion(pool.kubeletVersion) > minorVersion(cp)) {
        out.push(
          invalidValue(
            `${p}.kubeletVersion`,
            pool.kubeletVersion,
            `must not be newer than kube-apiserver (${cp}): the kubelet may be older than the API server, never newer`
          )
        );
      }
    }
    if (pool.min !== undefined && pool.count < pool.min)
      out.push(invalidValue(`${p}.count`, pool.count, `must be at least min (${pool.min})`));
    if (pool.max !== undefined && pool.count > pool.max)
      out.push(invalidValue(`${p}.count`, pool.count, `must be at most max (${pool.max})`));
    if (pool.min !== undefined && pool.max !== undefined && pool.min > pool.max)
      out.push(invalidValue(`${p}.min`, pool.min, `must be at most max (${pool.max})`));
    for (const x of poolProblems(pool, p)) out.push(invalidValue(x.field, x.value, x.message));
  });
  if (total > MAX_CLUSTER_NODES) {
    out.push(invalidValue('spec.nodePools', total, `a cluster has at most ${MAX_CLUSTER_NODES} nodes`));
  }
  checkCIDR('spec.network.clusterCIDR', spec.network?.clusterCIDR, out);
  checkCIDR('spec.network.serviceCIDR', spec.network?.serviceCIDR, out);
  (spec.registry?.images ?? []).forEach((img, i) => {
    const v = tryParseQuantity(img.size);
    if (v !== undefined && v <= 0)
      out.push(invalidValue(`spec.registry.images[${i}].size`, String(img.size), 'must be greater than 0'));
  });
  out.push(...managedProblems(spec));
  const members = spec.controlPlane?.etcd?.members ?? 1;
  const etcdNames = Array.from({ length: members }, (_, i) => `etcd-${i}`);
  (spec.faults ?? []).forEach((f, i) => {
    const p = `spec.faults[${i}]`;
    try {
      parseDuration(f.at);
    } catch {
      return;
    }
    const target = faultTargetKind(f.action);
    if (target === 'node') {
      if (!f.target) out.push(required(`${p}.target`, `${f.action} needs a node name`));
      else if (!allNodes.has(f.target)) {
        out.push(
          invalidValue(`${p}.target`, f.target, `no such node (nodes: ${[...allNodes].join(', ') || 'none'})`)
        );
      }
    } else if (target === 'etcdMember') {
      if (!f.target) out.push(required(`${p}.target`, `${f.action} needs an etcd member name`));
      else if (!etcdNames.includes(f.target)) {
        out.push(
          invalidValue(`${p}.target`, f.target, `no such etcd member (members: ${etcdNames.join(', ')})`)
        );
      }
    } else if (target === 'controlPlaneNode') {
      const cpNodes = Array.from(
        { length: spec.controlPlane?.apiServers ?? 1 },
        (_, j) => `control-plane-${j + 1}`
      );
      if (!f.target) out.push(required(`${p}.target`, `${f.action} needs a control-plane node name`));
      else if (!cpNodes.includes(f.target)) {
        out.push(
          invalidValue(`${p}.target`, f.target, `no such control-plane node (nodes: ${cpNodes.join(', ')})`)
        );
      }
    } else if (target === 'nodeOrAll') {
      if (!f.mode) out.push(required(`${p}.mode`, `${f.action} needs the new mode`));
      if (f.target && f.target !== 'all' && !allNodes.has(f.target)) {
        out.push(
          invalidValue(`${p}.target`, f.target, `no such node (nodes: ${[...allNodes].join(', ') || 'none'})`)
        );
      }
    }
  });
  return out;
}

/**
 * A managed control plane is the provider's: it takes no kubeadm-style sizing, its faults are
 * not offered, and the node pools are the provider's pools.
 */
function managedProblems(spec: ScenarioSpec): Causes {
  const p = spec.controlPlane?.managed;
  if (!p) return [];
  const out: Causes = [];
  const name = PROVIDER_NAME[p];
  for (const k of ['apiServers', 'etcd', 'machine'] as const) {
    if (spec.controlPlane?.[k] !== undefined)
      out.push(
        forbidden(
          `spec.controlPlane.${k}`,
          `${name} runs and sizes the control plane of a managed cluster; leave out apiServers, etcd and machine`
        )
      );
  }
  (spec.nodePools ?? []).forEach((pool, i) => {
    const f = pool.provider?.flavour;
    if (f !== undefined && f !== p)
      out.push(
        invalidValue(
          `spec.nodePools[${i}].provider.flavour`,
          f,
          `in a cluster run by ${name}, the node pools are ${poolKind(p)}s (flavour ${p})`
        )
      );
  });
  // Every AKS cluster has a system node pool (learn.microsoft.com/azure/aks/use-system-pools);
  // the loader makes the first pool one unless a pool states its mode.
  const pools = spec.nodePools ?? [];
  if (p === 'aks' && pools.length && !pools.some((pool) => pool.provider?.mode === 'system'))
    out.push(
      required(
        'spec.nodePools',
        'an AKS cluster needs at least one system node pool (provider.mode: system) for CoreDNS, metrics-server and the other system pods'
      )
    );
  (spec.faults ?? []).forEach((f, i) => {
    if (isControlPlaneFault(f.action))
      out.push(
        invalidValue(
          `spec.faults[${i}].action`,
          f.action,
          `acts on the control plane, which ${name} runs in a managed cluster: its faults are not offered`
        )
      );
  });
  return out;
}
