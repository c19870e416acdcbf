/**
 * The read-side door: the only part of the simulation the UI reads.
 *
 * The read models are plain JSON computed in the lab session (the Web Worker) from API objects and
 * the components' typed status, and sent to the page in frames (src/lib/sim/session/protocol.ts).
 * This module gives the page their types, plus the few pure functions a view computes on the
 * page itself (the sizing curves a learner explores, the network cost model's chart). Importing
 * it loads no cluster, no component and no engine.
 */
export type {
  ConditionStatus,
  ControlPlaneView,
  LabView,
  NodeView,
  PodView,
  ResourceBar
} from './cluster-map';
export type { CpModel, LeaderInfo, SizingAction } from './controlplane';
export type { ManagedInfo, ResponsibilityRow } from '../controlplane/managed';
export { PROVIDER_NAME } from '../controlplane/managed';
export type { AlertMark, HealthAlert, HealthModel, HealthPoint, NotificationGroup } from './health';
export { notificationGroups, GROUP_WAIT_MS } from './health';
export type { NetworkDump, NetworkModel, NetworkSubscription } from './network';
export type { ReadyChange } from './ready-history';
export type { Process, TrafficDot, TrafficEdge, TrafficModel, VerbClass } from './traffic';
export { VERB_CLASSES } from '../api/requestlog';
export { nodeGroup } from './groups';
export type { Lane, ObjectSequence, PodSequence, SequenceStep } from './sequence';
export { LANES } from './sequence';
export type {
  MachineDefinitionView,
  MachineId,
  MachineInstanceView,
  MachineStateView,
  MachineTransitionView,
  MachinesModel
} from './machines';
export type { MachineStep } from '../machines/record';
export type { EventLogEntry } from '../events/recorder';
export type { TraceHop, TraceResult } from '../network/trace';
export type { SchedulingAttempt } from '../scheduler/types';
export type { Rejection, RejectionKind, SchedulingExplanation, SchedulingSummary } from './scheduling';
export type {
  AttemptResult,
  ClusterEventLabel,
  QueuedPodModel,
  QueueMove,
  QueueMoveLabel,
  QueueName,
  RegisteredEvent,
  SchedulingQueueModel
} from './schedqueue';
export {
  CHART_NODES,
  curve,
  curves,
  formatMs,
  formatRate,
  whatIf,
  MUTATING_P99_SLO_MS,
  RATE_WINDOW_MS,
  REQUEST_TIMEOUT_MS,
  type Curve,
  type LoadEstimate
} from './sizing';
export { firstPacketLookup, rules, syncTime, type CostMode } from '../network/costmodel';
export { parseDuration, formatClock } from '../engine/duration';
export { DEFAULT_KUBERNETES_VERSION } from '../config';
