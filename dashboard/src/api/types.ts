/** JSON shapes of the /api/v2 routes the page reads (design/api.md §2, §6). */

export type RuptureState = 'stable' | 'elevated' | 'warning' | 'critical' | 'emergency';
export type WorkloadStatus = 'pending_telemetry' | 'calibrating' | 'active';
export type Phase = 'Calibrating' | 'Active' | 'Rupture';

export const SIGNAL_NAMES = ['stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion', 'resilience', 'entropy', 'velocity', 'health_score'] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];
export const WEIGHT_SIGNALS = ['stress', 'fatigue', 'mood', 'pressure', 'humidity', 'contagion'] as const;
export type WeightSignal = (typeof WEIGHT_SIGNALS)[number];

export interface WorkloadRef {
  namespace: string;
  kind: string;
  name: string;
}

export interface SignalReading {
  value: number;
  state: string;
}

/** GET /ruptures item: the interface's three fields plus the extras of api.md §6.1 */
export interface RuptureListItem {
  workload: WorkloadRef;
  fused_rupture_index: number;
  state: RuptureState;
  /** 1 while no bucket was analysed (status pending_telemetry) */
  health_score?: number;
  status?: WorkloadStatus;
  phase?: Phase;
  calibration_progress?: number;
  calibration_eta_minutes?: number;
  timestamp?: string;
  rupture_id?: string | null;
}

export interface HealthForecast {
  in_15min: number;
  in_30min: number;
  critical_eta_minutes: number;
  trend: 'improving' | 'stable' | 'degrading';
  confidence_window: number;
}

export interface PatternMatch {
  similarity: number;
  matched_rupture_id: string;
  matched_at: string;
  resolution_note?: string;
}

export type Snapshot = {
  workload: WorkloadRef;
  host: string;
  fused_rupture_index: number;
  /** 1 while no bucket was analysed (status pending_telemetry) */
  health_score: number;
  state: RuptureState;
  status: WorkloadStatus;
  phase?: Phase;
  timestamp: string;
  calibration_progress: number;
  calibration_eta_minutes: number;
  health_forecast: HealthForecast;
  business: { slo_burn_velocity: number; blast_radius: number; recovery_debt: number };
  pattern_match: PatternMatch | null;
  rupture_id: string | null;
} & { [S in Exclude<SignalName, 'health_score'>]: SignalReading };

export interface Anomaly {
  id: string;
  host: string;
  workload?: WorkloadRef;
  metric?: string;
  method: string;
  severity: string;
  value: number;
  expected?: number;
  score?: number;
  consensus: boolean;
  timestamp: string;
}

export type ActionState = 'pending' | 'approved' | 'executed' | 'failed' | 'rolled_back';

export interface Action {
  id: string;
  workload: string;
  type: string;
  params: Record<string, unknown>;
  tier: number;
  status: ActionState;
  state: ActionState;
  rupture_id: string;
  created_at: string;
  description: string;
  confidence?: number;
  fused_rupture_index?: number;
  updated_at?: string | null;
  executed_at?: string | null;
}

export interface EmergencyStop {
  emergency_stop: boolean;
  since?: string | null;
}

export interface Suppression {
  id: string;
  workload: string;
  start: string;
  end: string;
  reason?: string | null;
  signals: SignalName[] | null;
  active: boolean;
  created_at: string;
}

export interface NewSuppression {
  workload: string;
  start: string;
  end: string;
  reason?: string;
  signals?: SignalName[];
}

export interface ContextEvent {
  id: string;
  workload: string;
  event: string;
  description?: string;
  timestamp: string;
  created_at: string;
}

export interface NewContextEvent {
  workload: string;
  event: string;
  description?: string;
  timestamp?: string;
}

export type WeightOverride = { selector: string } & { [S in WeightSignal]: number };

export interface ModelContribution {
  weight: number;
  prediction: number;
}

export interface ExplainTrace {
  rupture_id: string;
  workload: WorkloadRef;
  fused_rupture_index: number;
  state?: RuptureState;
  model_contributions: Record<string, ModelContribution>;
  top_factor: string;
  signal_values: Record<string, number>;
  primary_pipeline: string;
  confidence?: number;
  peak_fused_rupture_index?: number;
  started_at?: string;
  updated_at?: string;
  ended_at?: string | null;
}

export interface ExplainFormula {
  rupture_id: string;
  formula: string;
  primary_metric?: string;
  alpha_burst?: number;
  alpha_stable?: number;
  metric_r?: number;
  log_r?: number;
  trace_r?: number;
  fusion?: { sources: string[]; weights: Record<string, number>; fused_r_raw: number; fused_r: number; capped: boolean };
  health?: { weights: Record<string, number>; penalties: Record<string, number>; adaptive: boolean };
  ttf_seconds?: number;
  confidence?: number;
}

/** what moved (api-server/src/analysis/explain/diagnosis.ts); null on records older than it */
export interface Diagnosis {
  kind: string;
  factor: string | null;
  summary: string;
  dependency: string | null;
  traffic_rising: boolean;
  after_deploy: boolean;
  eta_seconds: number;
  eta_basis: 'input-trend' | 'health-trend' | 'none';
}

export interface ExplainNarrative {
  narrative: string;
  severity: string;
  primary_pipeline: string;
  top_factor: string;
  ttf_seconds: number;
  diagnosis?: Diagnosis | null;
}

export interface Health {
  status: string;
  phase?: string;
  rupture_detection: string;
  uptime_seconds: number;
  version?: string;
  edition?: 'community' | 'autopilot';
  message?: string;
  emergency_stop?: boolean;
}

/** GET /history/{ns}/{kind}/{name} (served next to the dashboard; api-server/src/dashboard/history-route.ts) */
export interface HistoryAnswer {
  workload: string;
  tier: 'raw' | '1m' | '5m' | '1h';
  span: string;
  from: string;
  to: string;
  points: { t: string; fused_r: number; health_score: number }[];
}

/** One JSON frame of GET /events (api.md §6.12) */
export interface StreamEvent {
  type: 'connected' | 'heartbeat' | 'warning' | 'critical' | 'emergency' | 'recovered' | string;
  id?: string;
  severity?: string;
  workload?: string;
  state?: RuptureState;
  previous_state?: RuptureState;
  fused_r?: number;
  rupture_id?: string | null;
  message?: string;
  ts?: string;
}
