/**
 * Stage 5 of the tick, fusion and bands (analytics.md §4.3, §4.4, §6, §8.1): the sources of the
 * step fused into FusedR, the band and state through the decision layer (hysteresis, dwell,
 * corroboration), the calibration phase, the context-event quiet period and the rupture episode.
 * Pure: no clock, no I/O; rupture ids come from the step's id factory.
 */
import type { ContextEventInput, RuptureState, SourceRatios, WorkloadPhase } from '../contract.js';
import { fusedROf } from '../fusion/fusion.js';
import { isRupture } from '../bands.js';
import type { AlertDecision } from '../decision/alert-decision.js';
import type { EpisodeStep, RuptureEpisodeTracker } from '../episodes/rupture-episode.js';
import type { LogStepResult } from './log-stage.js';
import type { TraceStepResult } from './trace-stage.js';
import type { StepEnv, StepSink } from './step-env.js';

/** traceR from which the trace source corroborates a metric rupture above warning (ADR 0011) */
const TRACE_CORROBORATES = 0.75;
const QUIET_BEFORE_MS = 60_000;
const QUIET_AFTER_MS = 300_000;

/** what fusion and bands give the later stages */
export interface BandStepResult {
  fusedR: number;
  calibrated: boolean;
  /** calibrating or in a context event's quiet period */
  quiet: boolean;
  state: RuptureState;
  phase: WorkloadPhase;
  /** how long the announced band has been critical or worse (0 below) */
  criticalForMs: number;
  episode: EpisodeStep;
}

const NO_EPISODE: EpisodeStep = { ruptureId: null, opened: false, closed: false, openedAtMs: null, peakFusedR: 0, peakAtMs: null };
/** the result of the running step (one object, shared by every workload) */
const RESULT: BandStepResult = { fusedR: 0, calibrated: false, quiet: true, state: 'stable', phase: 'Calibrating', criticalForMs: 0, episode: NO_EPISODE };

/** the env of the running step, for the id factory below (no closure per step) */
let idEnv: StepEnv | null = null;
const newRuptureId = (): string => `r_${idEnv!.newHexId()}`;

/**
 * §4.3 and §4.4: completes `sources` with the log and trace ratios, fuses them, decides the band
 * (its event goes to `sink`) and steps the episode; `steps` counts this step
 */
export function fuseAndBand(
  key: string,
  decision: AlertDecision,
  episodes: RuptureEpisodeTracker,
  sources: SourceRatios,
  logs: Readonly<LogStepResult>,
  traces: Readonly<TraceStepResult>,
  steps: number,
  tStep: number,
  env: StepEnv,
  sink: StepSink,
): BandStepResult {
  idEnv = env;
  const logR = logs.logR;
  const traceR = traces.traceR;
  sources.logR = logR;
  sources.traceR = traceR;
  sources.traceRA = traces.traceRA;
  const fusedR = fusedROf(sources.metricR, logR, traceR);

  // §6 calibration, §4.4 bands through the decision layer (hysteresis, dwell), §8.1 episodes
  const calibrated = steps >= env.calibrationSteps;
  const quiet = !calibrated || inQuietPeriod(tStep, env.contextEvents);
  const corroborated = (logR !== null && logR > 1) || (traceR !== null && traceR >= TRACE_CORROBORATES);
  const decided = decision.decide(key, fusedR, tStep, quiet, corroborated, env.config.singleSourceEmergencySteps);
  const state = decided.state;
  const episode = episodes.step({ fusedR, rupture: decided.band !== 'normal', calibrated, tStepMs: tStep }, newRuptureId);
  if (decided.event !== null) sink.bandEvents.push({ ...decided.event, ruptureId: episode.ruptureId });
  const phase: WorkloadPhase = !calibrated ? 'Calibrating' : isRupture(state) ? 'Rupture' : 'Active';
  const out = RESULT;
  out.fusedR = fusedR;
  out.calibrated = calibrated;
  out.quiet = quiet;
  out.state = state;
  out.phase = phase;
  out.criticalForMs = decided.criticalForMs;
  out.episode = episode;
  return out;
}

/** context-event quiet period: 60 s before to 300 s after an event of this workload (§8.7) */
function inQuietPeriod(tMs: number, events: readonly ContextEventInput[]): boolean {
  // indexed: a for-of here allocated an iterator on every step of every workload
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (tMs >= e.timeMs - QUIET_BEFORE_MS && tMs <= e.timeMs + QUIET_AFTER_MS) return true;
  }
  return false;
}
