import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '$lib/i18n/index.svelte';
import { explainFailedScheduling } from './explain';

const TAINT_AND_CPU =
  '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';

afterEach(async () => {
  await setLocale('en');
});

describe('explainFailedScheduling', () => {
  it('turns each counted FitError reason into a sentence, preemption included', () => {
    expect(explainFailedScheduling(TAINT_AND_CPU)).toEqual([
      'None of the 3 nodes can run the pod (0 passed every filter).',
      '1 node carries a taint the pod has no toleration for (TaintToleration).',
      "2 nodes lack free cpu: the pod's cpu request plus what pods already on the node request exceeds the node's allocatable cpu (NodeResourcesFit).",
      'On 3 nodes, evicting lower-priority pods would still not make room.'
    ]);
  });

  it('explains node selectors, cordons, maxPods and extended resources', () => {
    expect(
      explainFailedScheduling(
        "0/4 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable, 1 Too many pods, 1 Insufficient nvidia.com/gpu."
      )
    ).toEqual([
      'None of the 4 nodes can run the pod (0 passed every filter).',
      "1 node lacks the labels required by the pod's nodeSelector or required node affinity (NodeAffinity).",
      '1 node is cordoned (spec.unschedulable) (NodeUnschedulable).',
      '1 node already runs as many pods as its maxPods allows (NodeResourcesFit, resource "pods").',
      "1 node lacks free nvidia.com/gpu: the pod's nvidia.com/gpu request plus what pods already on the node request exceeds the node's allocatable nvidia.com/gpu (NodeResourcesFit)."
    ]);
    expect(explainFailedScheduling('no nodes available to schedule pods')).toEqual([
      'The cluster has no nodes to schedule pods on: no Node is registered.'
    ]);
  });

  it('passes unknown reasons and messages through unchanged', () => {
    expect(
      explainFailedScheduling('0/2 nodes are available: 2 node(s) had volume node affinity conflict.')
    ).toEqual([
      'None of the 2 nodes can run the pod (0 passed every filter).',
      '2 node(s) had volume node affinity conflict'
    ]);
    expect(explainFailedScheduling('pod has unbound immediate PersistentVolumeClaims')).toEqual([
      'pod has unbound immediate PersistentVolumeClaims'
    ]);
  });

  it('explains in Russian with the plural forms one, few and many', async () => {
    await setLocale('ru');
    expect(explainFailedScheduling(TAINT_AND_CPU)).toEqual([
      'Ни один из 3 узлов не может запустить Pod (все фильтры прошли: 0).',
      "На 1 узле есть taint, для которого у Pod'а нет toleration (TaintToleration).",
      "На 2 узлах не хватает свободного ресурса cpu: запрос (request) Pod'а по cpu вместе с запросами Pod'ов, уже работающих на узле, превышает выделяемые ресурсы (allocatable) узла по cpu (NodeResourcesFit).",
      "На 3 узлах вытеснение Pod'ов с более низким приоритетом всё равно не освободит места."
    ]);
    expect(
      explainFailedScheduling(
        "0/21 nodes are available: 1 node(s) didn't match the requested node name, 20 node(s) were unschedulable."
      )
    ).toEqual([
      'Ни один из 21 узла не может запустить Pod (все фильтры прошли: 0).',
      '1 узел не совпадает с узлом, указанным в spec.nodeName (NodeName).',
      'На 20 узлах запрещено планирование: узел выведен командой cordon (spec.unschedulable) (NodeUnschedulable).'
    ]);
    expect(
      explainFailedScheduling("0/5 nodes are available: 5 node(s) didn't match the requested node name.")
    ).toEqual([
      'Ни один из 5 узлов не может запустить Pod (все фильтры прошли: 0).',
      '5 узлов не совпадают с узлом, указанным в spec.nodeName (NodeName).'
    ]);
    expect(explainFailedScheduling('no nodes available to schedule pods')).toEqual([
      "В кластере нет узлов, на которые можно запланировать Pod'ы: ни один Node не зарегистрирован."
    ]);
  });
});
