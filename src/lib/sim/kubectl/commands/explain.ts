/**
 * `kubectl explain` for the fields Nodeplane simulates. Descriptions follow the Kubernetes API
 * reference (core/v1, apps/v1, coordination/v1), shortened to their first sentences.
 */
import type { ConsoleResult } from '../console';
import { CommandError, resolveResource, type KubectlContext } from '../context';
import { apiVersionOf } from '../../api/resources';

interface Field {
  type: string;
  description: string;
  fields?: Record<string, Field>;
}

const meta: Field = {
  type: 'ObjectMeta',
  description: "Standard object's metadata."
};
const str = (description: string): Field => ({ type: 'string', description });

const TAINT: Record<string, Field> = {
  effect: str(
    'Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.'
  ),
  key: str('Required. The taint key to be applied to a node.'),
  timeAdded: str('TimeAdded represents the time at which the taint was added.'),
  value: str('The taint value corresponding to the taint key.')
};

const TOLERATION: Record<string, Field> = {
  effect: str(
    'Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.'
  ),
  key: str(
    'Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.'
  ),
  operator: str(
    "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal."
  ),
  tolerationSeconds: {
    type: 'integer',
    description:
      'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict).'
  },
  value: str(
    'Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.'
  )
};

const POD_SPEC: Record<string, Field> = {
  affinity: { type: 'Affinity', description: "If specified, the pod's scheduling constraints" },
  containers: {
    type: '[]Container',
    description:
      'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.'
  },
  nodeName: str(
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod.'
  ),
  nodeSelector: {
    type: 'map[string]string',
    description:
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node."
  },
  priorityClassName: str(
    'If specified, indicates the pod\'s priority. "system-node-critical" and "system-cluster-critical" are two special keywords which indicate the highest priorities with the former being the highest priority.'
  ),
  terminationGracePeriodSeconds: {
    type: 'integer',
    description:
      'Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Defaults to 30 seconds.'
  },
  tolerations: {
    type: '[]Toleration',
    description: "If specified, the pod's tolerations.",
    fields: TOLERATION
  },
  topologySpreadConstraints: {
    type: '[]TopologySpreadConstraint',
    description:
      'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains. Scheduler will schedule pods in a way which abides to the constraints.'
  }
};

const SCHEMA: Record<string, Field> = {
  Pod: {
    type: 'Pod',
    description:
      'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
    fields: {
      metadata: meta,
      spec: {
        type: 'PodSpec',
        description: 'Specification of the desired behavior of the pod.',
        fields: POD_SPEC
      },
      status: {
        type: 'PodStatus',
        description:
          'Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only.',
        fields: {
          conditions: { type: '[]PodCondition', description: 'Current service state of pod.' },
          phase: str(
            'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle. Possible values: Pending, Running, Succeeded, Failed, Unknown.'
          ),
          reason: str(
            "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'"
          )
        }
      }
    }
  },
  Node: {
    type: 'Node',
    description:
      'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).',
    fields: {
      metadata: meta,
      spec: {
        type: 'NodeSpec',
        description: 'Spec defines the behavior of a node.',
        fields: {
          podCIDR: str('PodCIDR represents the pod IP range assigned to the node.'),
          taints: { type: '[]Taint', description: "If specified, the node's taints.", fields: TAINT },
          unschedulable: {
            type: 'boolean',
            description:
              'Unschedulable controls node schedulability of new pods. By default, node is schedulable.'
          }
        }
      },
      status: {
        type: 'NodeStatus',
        description: 'Most recently observed status of the node. Populated by the system. Read-only.',
        fields: {
          allocatable: {
            type: 'map[string]Quantity',
            description:
              'Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.'
          },
          capacity: {
            type: 'map[string]Quantity',
            description: 'Capacity represents the total resources of a node.'
          },
          conditions: {
            type: '[]NodeCondition',
            description: 'Conditions is an array of current observed node conditions.'
          }
        }
      }
    }
  },
  Deployment: {
    type: 'Deployment',
    description: 'Deployment enables declarative updates for Pods and ReplicaSets.',
    fields: {
      metadata: meta,
      spec: {
        type: 'DeploymentSpec',
        description: 'Specification of the desired behavior of the Deployment.',
        fields: {
          replicas: {
            type: 'integer',
            description:
              'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.'
          },
          strategy: {
            type: 'DeploymentStrategy',
            description: 'The deployment strategy to use to replace existing pods with new ones.'
          }
        }
      }
    }
  },
  Lease: {
    type: 'Lease',
    description: 'Lease defines a lease concept.',
    fields: {
      metadata: meta,
      spec: {
        type: 'LeaseSpec',
        description: 'spec contains the specification of the Lease.',
        fields: {
          holderIdentity: str('holderIdentity contains the identity of the holder of a current lease.'),
          leaseDurationSeconds: {
            type: 'integer',
            description:
              'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.'
          },
          renewTime: {
            type: 'MicroTime',
            description: 'renewTime is a time when the current holder of a lease has last updated the lease.'
          }
        }
      }
    }
  }
};

const TOP: Record<string, Field> = {
  apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
  kind: str('Kind is a string value representing the REST resource this object represents.')
};

function wrap(text: string, indent: string): string {
  const words = text.split(' ');
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && (cur + ' ' + w).length > 76) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines.map((l) => indent + l + '\n').join('');
}

export function explain(_ctx: KubectlContext, argv: string[]): ConsoleResult {
  const path = argv.find((a) => !a.startsWith('-'));
  if (!path)
    throw new CommandError(
      'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.'
    );
  const [res, ...fields] = path.split('.');
  const r = resolveResource(res);
  const root = SCHEMA[r.kind];
  if (!root)
    throw new CommandError(
      `error: explain is only simulated for ${Object.keys(SCHEMA)
        .map((k) => k.toLowerCase())
        .join(', ')}`
    );
  let node: Field = { ...root, fields: { ...TOP, ...root.fields } };
  let name = '';
  for (const f of fields) {
    const next = node.fields?.[f];
    if (!next) throw new CommandError(`error: field "${f}" does not exist`);
    node = next;
    name = f;
  }
  let out = `KIND:       ${r.kind}\nVERSION:    ${apiVersionOf(r)}\n\n`;
  if (name) out += `FIELD: ${name} <${node.type}>\n\n`;
  out += `DESCRIPTION:\n${wrap(node.description, '    ')}    \n`;
  if (node.fields) {
    out += 'FIELDS:\n';
    for (const k of Object.keys(node.fields).sort()) {
      out += `  ${k}\t<${node.fields[k].type}>\n${wrap(node.fields[k].description, '    ')}\n`;
    }
  }
  return { stdout: out, stderr: '', exitCode: 0 };
}
