import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '$lib/i18n/index.svelte';
import type { SchedulingSummary } from '$lib/sim/observe';
import { explainScheduling } from './explain';

const summary = (s: Partial<SchedulingSummary>): SchedulingSummary => ({
  totalNodes: 3,
  noNodes: false,
  passed: 0,
  selectedNode: null,
  rejections: [],
  preemption: [],
  notes: [],
  ...s
});

/** What sim/observe summarizes for "1 node(s) had untolerated taint(s), 2 Insufficient cpu" with preemption. */
const TAINT_AND_CPU = summary({
  rejections: [
    { plugin: 'TaintToleration', reason: 'node(s) had untolerated taint(s)', count: 1, kind: 'taint' },
    {
      plugin: 'NodeResourcesFit',
      reason: 'Insufficient cpu',
      count: 2,
      kind: 'insufficient',
      resource: 'cpu'
    }
  ],
  preemption: [
    {
      plugin: 'DefaultPreemption',
      reason: 'Preemption is not helpful for scheduling',
      count: 3,
      kind: 'preemptionNotHelpful'
    }
  ]
});

afterEach(async () => {
  await setLocale('en');
});

describe('explainScheduling', () => {
  it('turns each counted rejection into a sentence, preemption included', () => {
    expect(explainScheduling(TAINT_AND_CPU)).toEqual([
      'None of the 3 nodes can run the pod (0 passed every filter).',
      '1 node carries a taint the pod has no toleration for (TaintToleration).',
      "2 nodes lack free cpu: the pod's cpu request plus what pods already on the node request exceeds the node's allocatable cpu (NodeResourcesFit).",
      'On 3 nodes, evicting lower-priority pods would still not make room.'
    ]);
  });

  it('explains node selectors, cordons, maxPods and extended resources', () => {
    expect(
      explainScheduling(
        summary({
          totalNodes: 4,
          rejections: [
            {
              plugin: 'NodeAffinity',
              reason: "node(s) didn't match Pod's node affinity/selector",
              count: 1,
              kind: 'nodeAffinity'
            },
            {
              plugin: 'NodeUnschedulable',
              reason: 'node(s) were unschedulable',
              count: 1,
              kind: 'unschedulable'
            },
            { plugin: 'NodeResourcesFit', reason: 'Too many pods', count: 1, kind: 'tooManyPods' },
            {
              plugin: 'NodeResourcesFit',
              reason: 'Insufficient nvidia.com/gpu',
              count: 1,
              kind: 'insufficient',
              resource: 'nvidia.com/gpu'
            }
          ]
        })
      )
    ).toEqual([
      'None of the 4 nodes can run the pod (0 passed every filter).',
      "1 node lacks the labels required by the pod's nodeSelector or required node affinity (NodeAffinity).",
      '1 node is cordoned (spec.unschedulable) (NodeUnschedulable).',
      '1 node already runs as many pods as its maxPods allows (NodeResourcesFit, resource "pods").',
      "1 node lacks free nvidia.com/gpu: the pod's nvidia.com/gpu request plus what pods already on the node request exceeds the node's allocatable nvidia.com/gpu (NodeResourcesFit)."
    ]);
    expect(explainScheduling(summary({ totalNodes: 0, noNodes: true }))).toEqual([
      'The cluster has no nodes to schedule pods on: no Node is registered.'
    ]);
  });

  it('shows a reason without a sentence as counted, and notes as they are', () => {
    expect(
      explainScheduling(
        summary({
          totalNodes: 2,
          rejections: [
            { plugin: 'VolumeBinding', reason: 'node(s) had volume node affinity conflict', count: 2 }
          ],
          notes: ['not eligible due to preemptionPolicy=Never.']
        })
      )
    ).toEqual([
      'None of the 2 nodes can run the pod (0 passed every filter).',
      '2 node(s) had volume node affinity conflict',
      'not eligible due to preemptionPolicy=Never.'
    ]);
    expect(explainScheduling(summary({ selectedNode: 'worker-1' }))).toEqual([]);
  });

  it('explains in Russian with the plural forms one, few and many', async () => {
    await setLocale('ru');
    expect(explainScheduling(TAINT_AND_CPU)).toEqual([
      'Ни один из 3 узлов не может запустить Pod (все фильтры прошли: 0).',
      "На 1 узле есть taint, для которого у Pod'а нет toleration (TaintToleration).",
      "На 2 узлах не хватает свободного ресурса cpu: запрос (request) Pod'а по cpu вместе с запросами Pod'ов, уже работающих на узле, превышает выделяемые ресурсы (allocatable) узла по cpu (NodeResourcesFit).",
      "На 3 узлах вытеснение Pod'ов с более низким приоритетом всё равно не освободит места."
    ]);
    const nodeName = (count: number) => ({
      plugin: 'NodeName',
      reason: "node(s) didn't match the requested node name",
      count,
      kind: 'nodeName' as const
    });
    expect(
      explainScheduling(
        summary({
          totalNodes: 21,
          rejections: [
            nodeName(1),
            {
              plugin: 'NodeUnschedulable',
              reason: 'node(s) were unschedulable',
              count: 20,
              kind: 'unschedulable'
            }
          ]
        })
      )
    ).toEqual([
      'Ни один из 21 узла не может запустить Pod (все фильтры прошли: 0).',
      '1 узел не совпадает с узлом, указанным в spec.nodeName (NodeName).',
      'На 20 узлах запрещено планирование: узел выведен командой cordon (spec.unschedulable) (NodeUnschedulable).'
    ]);
    expect(explainScheduling(summary({ totalNodes: 5, rejections: [nodeName(5)] }))).toEqual([
      'Ни один из 5 узлов не может запустить Pod (все фильтры прошли: 0).',
      '5 узлов не совпадают с узлом, указанным в spec.nodeName (NodeName).'
    ]);
    expect(explainScheduling(summary({ totalNodes: 0, noNodes: true }))).toEqual([
      "В кластере нет узлов, на которые можно запланировать Pod'ы: ни один Node не зарегистрирован."
    ]);
  });
});
