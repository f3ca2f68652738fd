/**
 * Retention as one table (analytics.md §11): how long each tier of what the service stores is
 * kept, and what each roll-up tier is the mean of. The sweeper (engine/retention-sweeper.ts), the
 * roll-up (engine/kpi-rollup.ts), the ingest time window (pipeline/ingest-pipeline.ts), the
 * control plane's pruning of context events and the cluster's history topic
 * (cluster/cluster-topics.ts) read it from here.
 */
export const DAY_MS = 86_400_000;

/** the tiers of KPI history */
export type HistoryTier = 'raw' | '1m' | '5m' | '1h';

export interface HistoryTierSpec {
  tier: HistoryTier;
  /** days kept, before the cap of `storage.retention.kpis_days` */
  keepDays: number;
  /** a roll-up tier's bucket width (the mean of the tier before it); undefined for raw points */
  bucketMs: number | undefined;
}

/** raw points per step, then 1-minute, 5-minute and 1-hour means, each of the tier before */
export const HISTORY_TIERS: readonly HistoryTierSpec[] = [
  { tier: 'raw', keepDays: 7, bucketMs: undefined },
  { tier: '1m', keepDays: 30, bucketMs: 60_000 },
  { tier: '5m', keepDays: 365, bucketMs: 300_000 },
  { tier: '1h', keepDays: 400, bucketMs: 3_600_000 },
];

/** raw telemetry: the 15-second metric means are kept, and samples accepted, this far back */
export const RAW_RETENTION_MS = 7 * DAY_MS;

/** anomalies and explain records */
export const EVENT_RETENTION_MS = 7 * DAY_MS;

/** context events (deploys, maintenance notes) of the control plane */
export const CONTEXT_RETENTION_MS = 30 * DAY_MS;

/** how long `tier` is kept under the cap of `storage.retention.kpis_days` */
export function tierRetentionMs(spec: HistoryTierSpec, kpiRetentionDays: number): number {
  return Math.min(spec.keepDays, kpiRetentionDays) * DAY_MS;
}

/** how long any KPI history is kept: the longest tier under the cap (the cluster's history topic) */
export function historyRetentionMs(kpiRetentionDays: number): number {
  return Math.max(...HISTORY_TIERS.map((spec) => tierRetentionMs(spec, kpiRetentionDays)));
}
