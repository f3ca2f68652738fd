/**
 * TypeScript shapes of the three custom resources of group health.faultline.io/v1alpha1.
 * Hand-written to match crds/health.faultline.io_*.yaml (docs: operator.md §2-§5); the
 * reconcilers use these and nothing else. Every schema change is additive (optional fields only),
 * so every field the operator did not set itself is optional here too.
 */

export const GROUP = 'health.faultline.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}` as const;

/** Plural resource names, as used in REST paths and RBAC rules. */
export const PLURALS = {
  Suppression: 'suppressions',
  WorkloadWeight: 'workloadweights',
  HealthAction: 'healthactions',
} as const;

export type FaultlineKind = keyof typeof PLURALS;

/** The part of ObjectMeta the operator reads and writes. */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
}

/** RFC 3339 date-time, as the API server stores it. */
export type DateTime = string;

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** metav1.Condition, identical in all three CRDs (§2.4). */
export interface Condition {
  type: string;
  status: ConditionStatus;
  observedGeneration?: number;
  lastTransitionTime: DateTime;
  /** CamelCase machine word. */
  reason: string;
  /** One human sentence naming the field or the cause. */
  message: string;
}

/** The ten signal names a Suppression may name (§2.3). */
export const SUPPRESSIBLE_SIGNALS = [
  'stress',
  'fatigue',
  'mood',
  'pressure',
  'humidity',
  'contagion',
  'resilience',
  'entropy',
  'velocity',
  'health_score',
] as const;
export type SuppressibleSignal = (typeof SUPPRESSIBLE_SIGNALS)[number];

/** The six weighted signals of a WorkloadWeight (§2.3). */
export const WEIGHTED_SIGNALS = ['stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion'] as const;
export type WeightedSignal = (typeof WEIGHTED_SIGNALS)[number];
export type SignalWeights = Partial<Record<WeightedSignal, number>>;

// ---------------------------------------------------------------- Suppression (§3)

export interface SuppressionSpec {
  /** namespace/Kind/name, namespace/*, or * (operator namespace only). */
  workload: string;
  start: DateTime;
  end: DateTime;
  reason?: string;
  /** Omit to suppress the whole workload. */
  signals?: SuppressibleSignal[];
  ttlSecondsAfterExpiry?: number;
}

export const SUPPRESSION_PHASES = ['Pending', 'Upcoming', 'Active', 'Expired', 'Failed'] as const;
export type SuppressionPhase = (typeof SUPPRESSION_PHASES)[number];

export interface SuppressionStatus {
  observedGeneration?: number;
  phase?: SuppressionPhase;
  /** The engine's id (sup_…) of the window that currently represents this object. */
  suppressionId?: string;
  lastSyncTime?: DateTime;
  conditions?: Condition[];
}

export interface Suppression {
  apiVersion: typeof API_VERSION;
  kind: 'Suppression';
  metadata: ObjectMeta;
  spec: SuppressionSpec;
  status?: SuppressionStatus;
}

// ---------------------------------------------------------------- WorkloadWeight (§4)

export interface WorkloadWeightSpec extends SignalWeights {
  /** namespace/Kind/name, namespace/*, or * (operator namespace only). */
  selector: string;
  /** -1000..1000, default 0; higher first among selectors of equal specificity. */
  priority?: number;
}

export interface WorkloadWeightStatus {
  observedGeneration?: number;
  /** 1-based index in the list the engine holds; 0 when not applied. */
  position?: number;
  normalized?: SignalWeights;
  lastAppliedTime?: DateTime;
  conditions?: Condition[];
}

export interface WorkloadWeight {
  apiVersion: typeof API_VERSION;
  kind: 'WorkloadWeight';
  metadata: ObjectMeta;
  spec: WorkloadWeightSpec;
  status?: WorkloadWeightStatus;
}

// ---------------------------------------------------------------- HealthAction (§5)

export const ACTION_TYPES = ['scale', 'restart', 'cordon', 'alert'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export type ActionTier = 1 | 2;

export interface HealthActionParams {
  /** restart: `rolling` */
  strategy?: string;
  replicas?: number;
  delta?: number;
  reason?: string;
  dependency?: string;
  /** rollback recommendation: the context event rolled back */
  event?: string;
}

export interface HealthActionSpec {
  /** act_ + 12 hex digits; immutable. */
  actionId: string;
  /** namespace/Kind/name; immutable. */
  workload: string;
  type: ActionType;
  params?: HealthActionParams;
  tier: ActionTier;
  ruptureId?: string;
  description?: string;
  confidence?: number;
  fusedRuptureIndex?: number;
  createdAt: DateTime;
  /** One-way switches: the human's decision. */
  approved?: boolean;
  rejected?: boolean;
  rollbackRequested?: boolean;
}

export const HEALTH_ACTION_STATES = [
  'Pending',
  'Approved',
  'Executing',
  'Executed',
  'Failed',
  'Rejected',
  'RollingBack',
  'RolledBack',
  'Expired',
] as const;
export type HealthActionState = (typeof HEALTH_ACTION_STATES)[number];

export interface HealthActionTarget {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

/** Write-ahead journal of a scale (§9.2) or a restart (restartedAt, the pod template annotation's value). */
export interface HealthActionExecution {
  restartedAt?: DateTime;
  previousReplicas?: number;
  targetReplicas?: number;
  observedReplicas?: number;
  attempts?: number;
  dryRun?: boolean;
  startedAt?: DateTime;
  finishedAt?: DateTime;
  reportedToEngine?: boolean;
}

export interface HealthActionStatus {
  observedGeneration?: number;
  state?: HealthActionState;
  engineState?: string;
  reason?: string;
  message?: string;
  target?: HealthActionTarget;
  execution?: HealthActionExecution;
  approvedAt?: DateTime;
  executedAt?: DateTime;
  rolledBackAt?: DateTime;
  lastSyncTime?: DateTime;
  conditions?: Condition[];
}

export interface HealthAction {
  apiVersion: typeof API_VERSION;
  kind: 'HealthAction';
  metadata: ObjectMeta;
  spec: HealthActionSpec;
  status?: HealthActionStatus;
}

export type FaultlineResource = Suppression | WorkloadWeight | HealthAction;

/** A list as the API server returns it. */
export interface ResourceList<T extends FaultlineResource> {
  apiVersion: string;
  kind: `${T['kind']}List`;
  metadata: { resourceVersion?: string; continue?: string };
  items: T[];
}

/** Object name of the HealthAction mirroring an engine action: `_` is not allowed in names. */
export function healthActionName(actionId: string): string {
  return actionId.replace(/_/g, '-');
}
