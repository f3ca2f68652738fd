/**
 * Stage 9 of the tick, explain (analytics.md §8): the explain record of an open rupture episode,
 * refreshed every step (what moved, the narrative, the recommendation, the ensemble's model
 * contributions, the failure ETA) and closed at the episode's end; inside an open rupture its ETA
 * is the critical ETA of the step. Pure: no clock, no I/O.
 */
import type { ExplainRecord, ModelContribution, WorkloadSnapshot } from '../contract.js';
import { fuse } from '../fusion/fusion.js';
import type { EpisodeStep, RuptureEpisodeTracker } from '../episodes/rupture-episode.js';
import type { SeriesSet } from '../series/series-set.js';
import { MODEL_NAMES } from '../ensemble/index.js';
import type { PodSignals } from '../signals/pod-signals.js';
import { primaryPipeline, topFactor } from '../explain/top-factor.js';
import { buildNarrative } from '../explain/narrative.js';
import { diagnose, type Diagnosis } from '../explain/diagnosis.js';
import { lineTrend, recentDeploy, seriesTrend, uptimeResets } from '../explain/diagnosis-inputs.js';
import type { DownstreamHistory } from '../explain/downstream-history.js';
import type { LevelHistory } from '../explain/level-history.js';
import { failureEta, TREND_INPUTS } from '../explain/failure-eta.js';
import { recommendationFor } from '../explain/recommendation-rules.js';
import { contextEventLines } from '../explain/context-lines.js';
import type { StepEnv } from './step-env.js';
import type { SignalName } from '../../model/signals.js';
import { SIGNAL_NAMES } from '../../model/signals.js';

const FORECAST_STEPS_5_MIN = 20;

/** what the explain stage reads of the workload: its key and name, its series and episodes */
interface ExplainSubject {
  readonly key: string;
  readonly name: string;
  readonly series: SeriesSet;
  readonly episodes: RuptureEpisodeTracker;
  /** the downstream edges' error shares over time: a dependency is judged against its own baseline */
  readonly downstream: DownstreamHistory;
  /** the error rate's 15-min levels over hours: a slow creep is judged against its level before it began */
  readonly errorLevels: LevelHistory;
}

/**
 * §8: the step's explain record: null outside an episode, the open one refreshed, the `previous`
 * one closed at the episode's closing step
 */
export function explainStep(
  workload: { readonly key: string; readonly name: string },
  series: SeriesSet,
  downstream: DownstreamHistory,
  errorLevels: LevelHistory,
  episodes: RuptureEpisodeTracker,
  previous: ExplainRecord | null,
  episode: EpisodeStep,
  snapshot: WorkloadSnapshot,
  pod: PodSignals,
  env: StepEnv,
): ExplainRecord | null {
  if (episode.ruptureId === null) return null;
  const tStep = snapshot.timeMs;
  if (episode.closed) return previous === null ? null : { ...previous, closedAtMs: tStep, updatedAtMs: tStep };
  const sources = snapshot.sources;
  const fusion = fuse(sources.metricR, sources.logR, sources.traceR);
  const w: ExplainSubject = { key: workload.key, name: workload.name, series, downstream, errorLevels, episodes };
  return buildExplain(w, snapshot, pod, fusion, env, episode.openedAtMs ?? tStep, episode.peakFusedR, episode.peakAtMs ?? tStep, previous);
}

/**
 * One forecast: inside an open rupture, critical_eta_minutes is the explain record's ETA; else an
 * input trending to its failure edge gives it; null without either
 */
export function criticalEtaMinutes(explain: ExplainRecord | null, inputEtaSeconds: number | null): number | null {
  if (explain !== null && explain.closedAtMs === null) return explain.etaBasis === undefined || explain.etaBasis === 'none' ? 0 : Math.floor(explain.ttfSeconds / 60);
  return inputEtaSeconds !== null ? Math.floor(inputEtaSeconds / 60) : null;
}

/** what moved (explain/diagnosis.ts) from the input series, the trace graph and context events */
function diagnosis(w: ExplainSubject, env: StepEnv, openedAtMs: number, nowMs: number, primaryMetric: string | null): Diagnosis {
  const trends = [];
  for (const name of TREND_INPUTS) {
    const t = seriesTrend(name, w.series.ensemble(name));
    if (t !== null) trends.push(t);
  }
  return diagnose({
    trends,
    requestRate: lineTrend('request_rate', w.series.ensemble('request_rate')),
    restarts: seriesTrend('restarts', w.series.ensemble('restarts'), true),
    uptimeResets: uptimeResets(w.series.ensemble('uptime')),
    downstream: w.downstream.read(nowMs),
    deploy: recentDeploy(env.contextEvents, w.key, openedAtMs, nowMs),
    primaryMetric,
    edges: env.edges,
    slowErrorRate: w.errorLevels.trend('error_rate', nowMs),
  });
}

function buildExplain(
  w: ExplainSubject,
  snapshot: WorkloadSnapshot,
  pod: PodSignals,
  fusion: ReturnType<typeof fuse>,
  env: StepEnv,
  openedAtMs: number,
  peakFusedR: number,
  peakAtMs: number,
  previous: ExplainRecord | null,
): ExplainRecord {
  const sources = snapshot.sources;
  const weights = { ...env.weights };
  const topSignal = topFactor(weights, pod.penalties);
  const pipeline = primaryPipeline(sources.metricR, sources.logR, sources.traceR);
  const ruptureId = w.episodes.currentRuptureId() ?? '';
  const diag = keptDiagnosis(diagnosis(w, env, openedAtMs, snapshot.timeMs, sources.primaryMetric), previous, ruptureId, snapshot.timeMs);
  const eta = failureEta(diag.etaSeconds, snapshot.healthForecast.criticalEtaMinutes);
  const contagionSources = snapshot.signals.contagion.value >= 0.3 ? env.graph.contagionSources(w.name, snapshot.timeMs) : [];
  const recommendation = recommendationFor(diag, { workload: w.key, state: snapshot.state, currentReplicas: null });
  const narrative = buildNarrative({
    name: w.name,
    fusedR: snapshot.fusedR,
    state: snapshot.state,
    confidence: snapshot.confidence,
    signals: snapshot.signals,
    contagionSources,
    metricR: sources.metricR,
    logR: sources.logR,
    traceR: sources.traceR,
    primaryPipeline: pipeline,
    alphaBurst: sources.alphaBurst,
    alphaStable: sources.alphaStable,
    recommendation,
    ttfSeconds: eta.ttfSeconds,
    contextLines: contextEventLines(env.contextEvents, w.key, openedAtMs, null),
    diagnosis: diag,
  });
  const modelContributions: Record<string, ModelContribution> = {};
  const ensemble = w.series.ensemble('fused_rupture_index');
  if (ensemble !== undefined) {
    const mw = ensemble.weights();
    const predictions = ensemble.modelPredictions(FORECAST_STEPS_5_MIN);
    for (const m of MODEL_NAMES) modelContributions[m] = { weight: mw[m], prediction: predictions[m] ?? snapshot.fusedR };
  }
  const signalValues = {} as Record<SignalName, number>;
  for (const s of SIGNAL_NAMES) signalValues[s] = snapshot.signals[s].value;
  return {
    ruptureId,
    workload: w.key,
    openedAtMs,
    closedAtMs: null,
    updatedAtMs: snapshot.timeMs,
    fusedR: snapshot.fusedR,
    peakFusedR,
    peakAtMs,
    state: snapshot.state,
    modelContributions,
    topFactor: diag.factor ?? topSignal,
    topSignal,
    diagnosis: diag,
    etaBasis: eta.basis,
    signalValues,
    primaryPipeline: pipeline,
    sources: { ...sources },
    fusionWeights: fusion.weights,
    fusedRBeforeCap: fusion.beforeCap,
    healthWeights: weights,
    penalties: { ...pod.penalties },
    ttfSeconds: eta.ttfSeconds,
    confidence: snapshot.confidence,
    narrative,
    recommendation,
  };
}

/**
 * An open episode keeps the cause it named: when this step's diagnosis is `undetermined` (a slow
 * burn on its plateau no longer rises a swing within the window) but the episode's previous record
 * named one, that one stands, its ETA counted down by the time since. A person paged for "latency
 * burn" must not read "no input moved enough" at the failure point of the same episode.
 */
export function keptDiagnosis(fresh: Diagnosis, previous: ExplainRecord | null, ruptureId: string, nowMs: number): Diagnosis {
  if (fresh.kind !== 'undetermined' || previous === null || previous.ruptureId !== ruptureId || previous.closedAtMs !== null) return fresh;
  const named = previous.diagnosis;
  if (named === undefined || named.kind === 'undetermined') return fresh;
  const elapsed = Math.max(0, (nowMs - previous.updatedAtMs) / 1000);
  return { ...named, etaSeconds: named.etaSeconds === null ? null : Math.max(0, named.etaSeconds - elapsed) };
}
