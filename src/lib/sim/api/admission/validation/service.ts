/** ValidateService (pkg/apis/core/validation) for the fields Nodeplane simulates. */
import type { KubeObject } from '../../types';
import { duplicate, invalidValue, notSupported, required, type Causes } from './field';
import { validateLabels, validateName } from './names';
import { validateObjectMeta } from './meta';

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

export function validateService(svc: KubeObject): Causes {
  const out: Causes = [...validateObjectMeta(svc, 'dns1035')];
  const spec = svc.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  if (!TYPES.includes(type)) out.push(notSupported('spec.type', type, TYPES));
  const headless = spec.clusterIP === 'None';
  const ports = (spec.ports ?? []) as {
    name?: string;
    port?: number;
    protocol?: string;
    nodePort?: number;
  }[];
  if (!ports.length && !headless && type !== 'ExternalName') out.push(required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const f = `spec.ports[${i}]`;
    if (ports.length > 1 && !p.name) out.push(required(`${f}.name`));
    if (p.name) {
      out.push(...validateName(`${f}.name`, p.name, 'label'));
      if (names.has(p.name)) out.push(duplicate(`${f}.name`, p.name));
      names.add(p.name);
    }
    if (p.port === undefined || p.port < 1 || p.port > 65535) {
      out.push(invalidValue(`${f}.port`, p.port ?? 0, 'must be between 1 and 65535, inclusive'));
    }
    if (p.protocol !== undefined && !PROTOCOLS.includes(p.protocol))
      out.push(notSupported(`${f}.protocol`, p.protocol, PROTOCOLS));
    if (p.nodePort !== undefined && type === 'ClusterIP') {
      out.push({
        field: `${f}.nodePort`,
        reason: 'FieldValueForbidden',
        message: "Forbidden: may not be used when `type` is 'ClusterIP'"
      });
    }
  });
  out.push(...validateLabels('spec.selector', spec.selector));
  const affinity = spec.sessionAffinity;
  if (affinity !== undefined && affinity !== 'None' && affinity !== 'ClientIP') {
    out.push(notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
  }
  if (type === 'ExternalName' && !spec.externalName) out.push(required('spec.externalName'));
  return out;
}
