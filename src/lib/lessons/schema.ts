/**
 * JSON Schemas for lesson.yaml and the lesson Markdown frontmatter. The validator (loader.ts) and
 * the editor (when teachers write lessons) use the same schemas.
 */
const duration = { type: 'string', pattern: '^(\\d+(\\.\\d+)?(ms|s|m|h))+$' };
const str = { type: 'string', minLength: 1 };
const labels = { type: 'object', additionalProperties: { type: 'string' } };
const quantities = { type: 'object', additionalProperties: { type: ['string', 'number'] } };

/**
 * One step at a virtual time: a console command, YAML applied, a fault, or an answer. A command
 * may name the exit code it is expected to end with (a drain refused by a PodDisruptionBudget).
 */
const step = {
  type: 'object',
  required: ['at'],
  minProperties: 2,
  maxProperties: 3,
  additionalProperties: false,
  oneOf: [
    { required: ['run'], properties: { apply: false, fault: false, answer: false } },
    { required: ['apply'], maxProperties: 2 },
    { required: ['fault'], maxProperties: 2 },
    { required: ['answer'], maxProperties: 2 }
  ],
  dependencies: { exitCode: ['run'] },
  properties: {
    at: duration,
    run: str,
    exitCode: { type: 'integer', minimum: 0, maximum: 255 },
    apply: str,
    fault: { type: 'object', required: ['action'], properties: { action: str, target: str } },
    answer: {
      type: 'object',
      required: ['question', 'value'],
      additionalProperties: false,
      properties: { question: str, value: { type: ['string', 'number'] } }
    }
  }
};

const check: Record<string, unknown> = {
  $id: 'https://nodeplane.dev/schemas/check',
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  properties: {
    all: { type: 'array', minItems: 1, items: { $ref: 'check' } },
    any: { type: 'array', minItems: 1, items: { $ref: 'check' } },
    not: { $ref: 'check' },
    pod: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: str,
        selector: str,
        namespace: str,
        phase: { enum: ['Pending', 'Running', 'Succeeded', 'Failed'] },
        status: str,
        ready: { type: 'boolean' },
        node: str,
        notNode: str,
        nodeLabels: labels,
        min: { type: 'integer', minimum: 0 },
        count: { type: 'integer', minimum: 0 },
        absent: { type: 'boolean' }
      }
    },
    node: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: str,
        exists: { type: 'boolean' },
        ready: { enum: ['True', 'False', 'Unknown'] },
        condition: {
          type: 'object',
          required: ['type', 'status'],
          additionalProperties: false,
          properties: { type: str, status: { enum: ['True', 'False', 'Unknown'] }, reason: str }
        },
        taint: {
          type: 'object',
          required: ['key'],
          additionalProperties: false,
          properties: {
            key: str,
            effect: { enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
            absent: { type: 'boolean' }
          }
        },
        unschedulable: { type: 'boolean' },
        labels,
        allocatable: quantities,
        capacity: quantities
      }
    },
    event: {
      type: 'object',
      required: ['reason'],
      additionalProperties: false,
      properties: {
        reason: str,
        object: str,
        type: { enum: ['Normal', 'Warning'] },
        messageContains: str,
        before: duration,
        after: duration,
        afterFault: {
          type: 'object',
          required: ['action'],
          additionalProperties: false,
          properties: { action: str, target: str }
        },
        within: duration,
        min: { type: 'integer', minimum: 1 }
      }
    },
    noPendingPods: {
      oneOf: [
        { const: true },
        { type: 'object', additionalProperties: false, properties: { namespace: str } }
      ]
    },
    question: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: str } },
    lease: {
      type: 'object',
      required: ['node', 'renewedWithin'],
      additionalProperties: false,
      properties: { node: str, renewedWithin: duration }
    },
    serviceRouting: {
      type: 'object',
      required: ['service', 'node'],
      additionalProperties: false,
      properties: { service: str, namespace: str, node: str }
    },
    kubeProxy: {
      type: 'object',
      additionalProperties: false,
      properties: {
        node: str,
        mode: { enum: ['iptables', 'ipvs', 'nftables'] },
        minServicePorts: { type: 'integer', minimum: 0 }
      }
    },
    etcd: {
      type: 'object',
      additionalProperties: false,
      properties: {
        snapshot: { type: 'boolean' },
        restored: { type: 'boolean' },
        quorum: { type: 'boolean' },
        members: { type: 'integer', minimum: 1 }
      }
    },
    alert: {
      type: 'object',
      required: ['name', 'state'],
      additionalProperties: false,
      properties: {
        name: str,
        state: { enum: ['pending', 'firing', 'resolved', 'inactive'] },
        severity: { enum: ['critical', 'warning'] },
        labels: { type: 'object', additionalProperties: { type: 'string' } }
      }
    },
    metric: {
      type: 'object',
      required: ['job', 'name'],
      additionalProperties: false,
      properties: {
        job: { enum: ['apiserver', 'kube-controller-manager', 'kube-scheduler', 'etcd', 'kubelet'] },
        name: str,
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        equals: { type: 'number' },
        min: { type: 'number' },
        max: { type: 'number' }
      }
    },
    object: {
      type: 'object',
      required: ['kind', 'name', 'path'],
      additionalProperties: false,
      properties: {
        kind: str,
        namespace: str,
        name: str,
        path: str,
        equals: { type: ['string', 'number', 'boolean'] },
        exists: { type: 'boolean' }
      }
    }
  }
};

export const lessonSpecSchema = {
  $id: 'https://nodeplane.dev/schemas/lesson.json',
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
  properties: {
    apiVersion: { const: 'nodeplane.dev/v1alpha1' },
    kind: { const: 'Lesson' },
    metadata: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' } }
    },
    spec: {
      type: 'object',
      required: ['timeBudget', 'views', 'tasks'],
      additionalProperties: false,
      properties: {
        timeBudget: duration,
        start: {
          enum: ['running', 'boot'],
          description:
            'How the lab opens: running (default) plays the start quietly until nodes are Ready and workloads Running; boot opens at t=0.'
        },
        views: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: {
            enum: [
              'map',
              'timeline',
              'scheduling',
              'network',
              'controlplane',
              'health',
              'events',
              'console',
              'editor',
              'faults'
            ]
          }
        },
        disabled: {
          type: 'array',
          items: {
            type: 'object',
            minProperties: 1,
            maxProperties: 1,
            additionalProperties: false,
            properties: { command: str, fault: str }
          }
        },
        questions: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'type'],
            additionalProperties: false,
            properties: {
              id: { type: 'string', pattern: '^[a-z0-9][-a-z0-9]*$' },
              type: { enum: ['choice', 'number', 'decision'] },
              options: { type: 'array', minItems: 2, items: str },
              answer: { type: ['string', 'number'] },
              tolerance: { type: 'number', minimum: 0 },
              unit: str,
              reasons: {
                type: 'object',
                minProperties: 2,
                additionalProperties: { type: 'array', items: str }
              },
              minReasons: { type: 'integer', minimum: 1, maximum: 5 }
            }
          }
        },
        tasks: {
          type: 'array',
          minItems: 1,
          maxItems: 8,
          items: {
            type: 'object',
            required: ['id', 'check'],
            additionalProperties: false,
            properties: { id: { type: 'string', pattern: '^[a-z0-9][-a-z0-9]*$' }, check: { $ref: 'check' } }
          }
        },
        solution: { type: 'array', minItems: 1, items: step },
        files: { type: 'object', additionalProperties: { type: 'string' } },
        challenge: {
          type: 'object',
          required: ['question', 'variants'],
          additionalProperties: false,
          properties: {
            question: str,
            variants: {
              type: 'array',
              minItems: 1,
              maxItems: 32,
              items: {
                type: 'object',
                required: ['id', 'answer', 'setup', 'checks', 'solution'],
                additionalProperties: false,
                properties: {
                  id: { type: 'string', pattern: '^[a-z0-9][-a-z0-9]*$' },
                  answer: str,
                  setup: { type: 'array', minItems: 1, items: step },
                  checks: {
                    type: 'object',
                    minProperties: 1,
                    additionalProperties: { $ref: 'check' }
                  },
                  solution: { type: 'array', minItems: 1, items: step }
                }
              }
            }
          }
        }
      }
    }
  }
};

export const lessonTextSchema = {
  $id: 'https://nodeplane.dev/schemas/lesson-text.json',
  type: 'object',
  required: ['title', 'summary', 'minutes', 'objectives', 'tasks', 'learned'],
  additionalProperties: false,
  properties: {
    title: str,
    summary: str,
    minutes: { type: 'integer', minimum: 1, maximum: 60 },
    objectives: { type: 'array', minItems: 1, items: str },
    tasks: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['title', 'hints'],
        additionalProperties: false,
        properties: { title: str, hints: { type: 'array', minItems: 1, maxItems: 5, items: str } }
      }
    },
    questions: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['prompt', 'correct', 'incorrect'],
        additionalProperties: false,
        properties: {
          prompt: str,
          options: { type: 'object', additionalProperties: str },
          reasons: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              required: ['text', 'why'],
              additionalProperties: false,
              properties: { text: str, why: str }
            }
          },
          correct: str,
          incorrect: str
        }
      }
    },
    disabled: { type: 'object', additionalProperties: str },
    learned: { type: 'array', minItems: 1, items: str },
    variants: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['explanation'],
        additionalProperties: false,
        properties: {
          hints: {
            type: 'object',
            additionalProperties: { type: 'array', minItems: 1, maxItems: 5, items: str }
          },
          explanation: str
        }
      }
    }
  }
};

export const checkSchema = check;
