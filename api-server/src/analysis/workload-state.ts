/**
 * The saved form of one workload's analysis (WorkloadAnalyzer.toJSON / fromJSON, exportWorkload /
 * importWorkload): its shape, and the check a restore runs first, which names the first field at
 * fault. The parts of other modules (series, logs, episodes, ...) are checked by their own fromJSON.
 */
import { z } from 'zod';
import type { Band } from './bands.js';
import type { ExplainRecord, WorkloadSnapshot } from './contract.js';
import type { RegressionState } from './regression/index.js';
import type { SeriesSetState } from './series/series-set.js';
import type { PodKpiState } from './signals/pod-kpi.js';

/** JSON form of a WorkloadAnalyzer (exportWorkload / importWorkload) */
export interface WorkloadState {
  version: 1;
  key: string;
  steps: number;
  originMs: number | null;
  prevStepMs: number | null;
  lastProcessedBucket: number | null;
  cores: number;
  lastMetricMs: number | null;
  errorRate: number;
  errorRateMs: number | null;
  healthHistory: number[];
  pods: [string, PodKpiState][];
  windows: [string, RegressionState, RegressionState, number][];
  series: SeriesSetState;
  logCounter: unknown;
  logBurst: unknown;
  logSeries: unknown;
  spanWindow: unknown;
  nearMiss: unknown;
  fingerprints: unknown;
  bands: { lastBand: Band; lastState: WorkloadSnapshot['state'] };
  episodes: unknown;
  /** the decision layer's state (decision/alert-decision.ts); absent in states saved before it */
  decision?: unknown;
  explainRecord: ExplainRecord | null;
  snapshot: WorkloadSnapshot | null;
}

const finite = z.number().finite();
const ruptureState = z.enum(['stable', 'elevated', 'warning', 'critical', 'emergency']);
const workloadStateSchema = z.object({
  version: z.literal(1),
  key: z.string(),
  steps: z.number().int().min(0),
  originMs: finite.nullable(),
  prevStepMs: finite.nullable(),
  lastProcessedBucket: z.number().int().nullable(),
  cores: finite,
  lastMetricMs: finite.nullable(),
  errorRate: finite,
  errorRateMs: finite.nullable(),
  healthHistory: z.array(finite),
  pods: z.array(z.tuple([z.string(), z.object({}).passthrough()])),
  windows: z.array(z.tuple([z.string(), z.unknown(), z.unknown(), finite])),
  series: z.object({ series: z.array(z.tuple([z.string(), z.unknown(), z.unknown()])), untracked: finite }),
  logCounter: z.unknown(),
  logBurst: z.unknown(),
  logSeries: z.unknown(),
  spanWindow: z.unknown(),
  nearMiss: z.unknown(),
  fingerprints: z.unknown(),
  bands: z.object({ lastBand: z.enum(['normal', 'warning', 'critical', 'emergency']), lastState: ruptureState }),
  episodes: z.unknown(),
  decision: z.unknown().optional(),
  explainRecord: z.object({ ruptureId: z.string() }).passthrough().nullable(),
  snapshot: z.object({ key: z.string(), fusedR: finite }).passthrough().nullable(),
});

/** `state` as a WorkloadState; throws an Error naming the first field at fault */
export function parseWorkloadState(state: unknown): WorkloadState {
  const parsed = workloadStateSchema.safeParse(state);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`workload state: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data as unknown as WorkloadState;
}
