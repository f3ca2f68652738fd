/**
 * The state of one workload's analysis as the stages hold it (WorkloadParts), and its saved form
 * (workload-state.ts): fresh parts for a new workload, parts restored from saved state (each
 * part checked by its own fromJSON / fromState; the first fault throws, naming the field), and
 * the saved form of the parts. Pure: no clock, no I/O.
 */
import type { ExplainRecord, WorkloadSnapshot } from '../contract.js';
import type { AnalysisConfig } from '../config.js';
import { SeriesSet } from '../series/series-set.js';
import { SpanWindow } from '../traces/span-window.js';
import { NearMissTracker } from '../business/near-miss.js';
import { AlertDecision } from '../decision/alert-decision.js';
import { RuptureEpisodeTracker } from '../episodes/rupture-episode.js';
import { parseWorkloadState, type WorkloadState } from '../workload-state.js';
import { InputStage } from './input-stage.js';
import { PodStage } from './pod-stage.js';
import { LogStage } from './log-stage.js';
import { HealthHistory } from './forecast-stage.js';
import { FingerprintStage } from './fingerprint-stage.js';
import { SnapshotMemory } from './snapshot-stage.js';

/** everything one workload's analysis keeps between steps, by stage */
export interface WorkloadParts {
  steps: number;
  originMs: number | null;
  prevStepMs: number | null;
  /** the last processed bucket's index as restored (null for none; the buckets keep it after) */
  lastProcessedBucket: number | null;
  inputs: InputStage;
  pods: PodStage;
  series: SeriesSet;
  /** created at the first log line */
  logs: LogStage | null;
  /** created at the first span */
  spanWindow: SpanWindow | null;
  decision: AlertDecision;
  episodes: RuptureEpisodeTracker;
  health: HealthHistory;
  /** created at the first FusedR ≥ 2 (a tracker that never entered near-miss has no state) */
  nearMiss: NearMissTracker | null;
  /** created at the first fingerprint recorded or restored */
  fingerprints: FingerprintStage | null;
  explainRecord: ExplainRecord | null;
  memory: SnapshotMemory;
}

/** the parts of a workload never stepped */
export function freshParts(maxSeries: number): WorkloadParts {
  return {
    steps: 0,
    originMs: null,
    prevStepMs: null,
    lastProcessedBucket: null,
    inputs: new InputStage(),
    pods: new PodStage(),
    series: new SeriesSet(maxSeries),
    logs: null,
    spanWindow: null,
    decision: new AlertDecision(),
    episodes: new RuptureEpisodeTracker(),
    health: new HealthHistory(),
    nearMiss: null,
    fingerprints: null,
    explainRecord: null,
    memory: new SnapshotMemory(),
  };
}

/** the parts saved in `state`; throws an Error naming the field when malformed */
export function partsFromState(key: string, state: unknown, config: AnalysisConfig, maxSeries: number): WorkloadParts {
  const s = parseWorkloadState(state);
  const p = freshParts(maxSeries);
  try {
    p.steps = s.steps;
    p.originMs = s.originMs;
    p.prevStepMs = s.prevStepMs;
    p.lastProcessedBucket = s.lastProcessedBucket;
    p.inputs.cores = Math.max(1, s.cores);
    p.inputs.lastMetricMs = s.lastMetricMs ?? Number.NEGATIVE_INFINITY;
    p.inputs.errorRate = s.errorRate;
    p.inputs.errorRateMs = s.errorRateMs ?? Number.NEGATIVE_INFINITY;
    p.health = HealthHistory.of(s.healthHistory);
    p.pods.restore(s.pods, config);
    p.series = SeriesSet.fromJSON(s.series, maxSeries);
    p.inputs.restoreWindows(s.windows, p.series, config);
    p.logs = LogStage.fromState(key, s);
    if (s.spanWindow !== null) p.spanWindow = SpanWindow.fromState(s.spanWindow);
    const nearMiss = NearMissTracker.fromState(s.nearMiss);
    const nearMissState = nearMiss.exportState();
    p.nearMiss = nearMissState.inNearMiss || nearMissState.recordedAtMs.length > 0 ? nearMiss : null;
    p.fingerprints = FingerprintStage.fromState(key, s.fingerprints);
    if (s.decision !== undefined) p.decision = AlertDecision.fromJSON(s.decision);
    p.episodes = RuptureEpisodeTracker.fromState(s.episodes);
    p.explainRecord = s.explainRecord;
    p.memory.restored = s.snapshot;
  } catch (e) {
    throw new Error(`workload state: ${e instanceof Error ? e.message : String(e)}`);
  }
  return p;
}

/** the saved form of `p` (no -Infinity: absent times are null); open buckets are not included */
export function stateOf(key: string, p: WorkloadParts, lastProcessedBucket: number, snapshot: WorkloadSnapshot | null): WorkloadState {
  const logs = p.logs?.exportState();
  return {
    version: 1,
    key,
    steps: p.steps,
    originMs: p.originMs,
    prevStepMs: p.prevStepMs,
    lastProcessedBucket: finiteOrNull(lastProcessedBucket),
    cores: p.inputs.cores,
    lastMetricMs: finiteOrNull(p.inputs.lastMetricMs),
    errorRate: p.inputs.errorRate,
    errorRateMs: finiteOrNull(p.inputs.errorRateMs),
    healthHistory: p.health.values(),
    pods: p.pods.exportState(),
    windows: p.inputs.exportWindows(),
    series: p.series.toJSON(),
    logCounter: logs?.logCounter ?? null,
    logBurst: logs?.logBurst ?? null,
    logSeries: logs?.logSeries ?? null,
    spanWindow: p.spanWindow?.exportState() ?? null,
    nearMiss: p.nearMiss?.exportState() ?? { inNearMiss: false, recordedAtMs: [] },
    fingerprints: p.fingerprints?.exportState() ?? { seq: 0, fingerprints: [] },
    bands: { lastBand: p.decision.band, lastState: p.decision.announcedState },
    decision: p.decision.toJSON(),
    episodes: p.episodes.exportState(),
    explainRecord: p.explainRecord,
    snapshot,
  };
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}
