/**
 * Narrative of analytics.md §8.6: paragraphs separated by a blank line.
 *
 * 1. "{name} is in {state} state (FusedR=x.xx[, confidence=NN%])." ({state}: the announced state
 *    when given, else the band of FusedR) then one context line per
 *    event (§8.7, built by contextEventLines) on the following lines. Confidence is clamped to
 *    [0, 1] and written as a whole percentage; a null or non-finite confidence is left out.
 * 1b. "Diagnosis: {kind} — {summary}." naming the input that moved (explain/diagnosis.ts), when
 *    the input has a diagnosis that is not undetermined.
 * 2. "Signal analysis:" and one "- {signal} x.xx ({state name}): {meaning}" bullet per elevated
 *    signal in the order stress ≥ 0.6, fatigue ≥ 0.6 / ≥ 0.3, pressure ≥ 0.5, humidity ≥ 0.5,
 *    contagion ≥ 0.4, entropy ≥ 0.5, velocity ≥ 0.5, 0 < mood < 0.4, health_score always.
 * 3. Cascade (first that applies): contagion sources with contagion ≥ 0.3 (cascade rupture when
 *    contagion ≥ 0.6, else contagion from upstream); traceR > 1.5; logR > 1.5. Omitted otherwise.
 * 4. "Dominant pipeline: …" for the primary pipeline.
 * 5. "Recommended action: {text}"
 * 6. "Estimated time to failure: N minute(s)." (seconds below one minute; "now" at 0) when
 *    ttf < 6 h, the one ETA of explain/failure-eta.ts; when it is the diagnosed input's ETA, followed
 *    by "Target: error rate 9.1 % → objective 15 %." (the workload's failure objective, or the
 *    fixed edge).
 *
 * Numbers have 2 decimals (slopes: 3 significant digits, per second); a non-finite number is
 * written "n/a", so the text never contains NaN or Infinity. Pure.
 */
import type { ActionRecommendation, ExplainRecord, Pipeline, RuptureState, SignalReading } from '../contract.js';
import type { ContagionSource } from '../traces/service-graph.js';
import { ruptureStateOf } from './rupture-band.js';
import { ETA_CAP_SECONDS } from './failure-eta.js';
import { targetLine, type Diagnosis, type DiagnosisKind } from './diagnosis.js';
import type { SignalName } from '../../model/signals.js';

export interface NarrativeInput {
  /** workload name (last key segment) */
  name: string;
  fusedR: number;
  /**
   * the state announced for the workload (the decision layer's, which pages people); left out,
   * the band of `fusedR`. The opening says this one: a workload paged as `emergency` must not read
   * "is in stable state" because its FusedR fell while its error rate stays out of line.
   */
  state?: RuptureState;
  /** ensemble confidence in [0, 1]; null leaves it out */
  confidence: number | null;
  /** value and state name of each signal at the step */
  signals: Readonly<Record<SignalName, SignalReading>>;
  /** callers with edge error rate > 0.1 (ServiceGraph.contagionSources) */
  contagionSources: readonly ContagionSource[];
  metricR: number | null;
  logR: number | null;
  traceR: number | null;
  primaryPipeline: Pipeline;
  /** slopes of the primary metric per second: 5-min (burst) and 60-min (stable) */
  alphaBurst: number;
  alphaStable: number;
  recommendation: ActionRecommendation | null;
  ttfSeconds: number;
  /** lines from contextEventLines, placed after the opening sentence */
  contextLines?: readonly string[];
  /** what moved; null or undetermined leaves the paragraph out */
  diagnosis?: Diagnosis | null;
}

const KIND_TEXT: Record<DiagnosisKind, string> = {
  'memory-leak': 'memory leak',
  'cpu-saturation': 'CPU saturation',
  'latency-burn': 'latency burn',
  'error-creep': 'error creep',
  'crash-loop': 'crash loop',
  'failing-dependency': 'failing dependency',
  undetermined: 'undetermined',
};

/** "Diagnosis: memory leak — memory 62 % → 91 % in 40 min, +43 %/h[, under rising traffic]." or null */
export function diagnosisSentence(d: Diagnosis | null | undefined): string | null {
  if (d === null || d === undefined || d.kind === 'undetermined') return null;
  const traffic = (d.kind === 'cpu-saturation' || d.kind === 'latency-burn') && d.trafficRising ? ', under rising traffic' : '';
  const deploy = d.deploy !== null ? ` It started ${d.deploy.minutesBefore} min after ${d.deploy.event} (${d.deploy.description}).` : '';
  return `Diagnosis: ${KIND_TEXT[d.kind]} — ${d.summary}${traffic}.${deploy}`;
}

/** Narrative object of the interface (explain/{id}/narrative). */
export interface NarrativeObject {
  narrative: string;
  severity: RuptureState;
  primaryPipeline: Pipeline;
  topFactor: string;
  ttfSeconds: number;
}

/** Formats with 2 decimals; non-finite → "n/a". */
export function fmt2(x: number): string {
  return Number.isFinite(x) ? (Object.is(Math.round(x * 100), -0) ? 0 : x).toFixed(2) : 'n/a';
}

function fmtSlope(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  const rounded = Number(x.toPrecision(3));
  return Number.isFinite(rounded) ? rounded.toString() : x.toPrecision(3);
}

export function buildNarrative(input: NarrativeInput): string {
  const paragraphs: string[] = [];
  const state = input.state ?? ruptureStateOf(input.fusedR);
  const conf =
    input.confidence !== null && Number.isFinite(input.confidence) ? `, confidence=${Math.round(Math.min(1, Math.max(0, input.confidence)) * 100)}%` : '';
  const opening = [`${input.name} is in ${state} state (FusedR=${fmt2(input.fusedR)}${conf}).`, ...(input.contextLines ?? [])];
  paragraphs.push(opening.join('\n'));
  const diagnosis = diagnosisSentence(input.diagnosis);
  if (diagnosis !== null) paragraphs.push(diagnosis);
  paragraphs.push(signalParagraph(input.signals));
  const cascade = cascadeParagraph(input);
  if (cascade !== null) paragraphs.push(cascade);
  paragraphs.push(pipelineSentence(input));
  paragraphs.push(`Recommended action: ${input.recommendation === null ? 'none yet: no single input explains the rupture.' : input.recommendation.text}`);
  const ttf = ttfSentence(input.ttfSeconds);
  if (ttf !== null) paragraphs.push(withTarget(ttf, input.diagnosis));
  return paragraphs.join('\n\n');
}

/** Narrative object from an explain record (its narrative text is taken as stored). */
export function narrativeObject(record: ExplainRecord): NarrativeObject {
  return {
    narrative: record.narrative,
    severity: ruptureStateOf(record.fusedR),
    primaryPipeline: record.primaryPipeline,
    topFactor: record.topFactor,
    ttfSeconds: Number.isFinite(record.ttfSeconds) ? Math.floor(record.ttfSeconds) : ETA_CAP_SECONDS,
  };
}

function bullet(signal: SignalName, r: SignalReading, meaning: string | null): string {
  return `- ${signal} ${fmt2(r.value)} (${r.state})${meaning === null ? '' : `: ${meaning}`}`;
}

function signalParagraph(s: Readonly<Record<SignalName, SignalReading>>): string {
  const lines = ['Signal analysis:'];
  if (s.stress.value >= 0.6) lines.push(bullet('stress', s.stress, 'heavy load'));
  if (s.fatigue.value >= 0.6) {
    const hours = (s.fatigue.value / 0.05) * (15 / 3600);
    lines.push(bullet('fatigue', s.fatigue, `accumulated over about ${fmt2(hours)} h`));
  } else if (s.fatigue.value >= 0.3) {
    lines.push(bullet('fatigue', s.fatigue, 'building'));
  }
  if (s.pressure.value >= 0.5) lines.push(bullet('pressure', s.pressure, 'rate of change escalating'));
  if (s.humidity.value >= 0.5) lines.push(bullet('humidity', s.humidity, 'error/timeout density'));
  if (s.contagion.value >= 0.4) lines.push(bullet('contagion', s.contagion, 'errors propagating'));
  if (s.entropy.value >= 0.5) lines.push(bullet('entropy', s.entropy, 'unpredictable'));
  if (s.velocity.value >= 0.5) lines.push(bullet('velocity', s.velocity, 'degrading fast'));
  if (s.mood.value > 0 && s.mood.value < 0.4) lines.push(bullet('mood', s.mood, 'user experience degraded'));
  lines.push(bullet('health_score', s.health_score, null));
  return lines.join('\n');
}

function cascadeParagraph(input: NarrativeInput): string | null {
  const contagion = input.signals.contagion.value;
  if (contagion >= 0.3 && input.contagionSources.length > 0) {
    const names = [...input.contagionSources]
      .sort((a, b) => (a.service < b.service ? -1 : a.service > b.service ? 1 : 0))
      .map((c) => `${c.service} (error rate ${fmt2(c.errorRate)})`)
      .join(', ');
    if (contagion >= 0.6) {
      return `This is a cascade rupture, not an isolated event: errors are propagating from ${names} (contagion=${fmt2(contagion)}).`;
    }
    return `Contagion from upstream: ${names} (contagion=${fmt2(contagion)}).`;
  }
  if (input.traceR !== null && input.traceR > 1.5) {
    return `Dependency degradation: trace errors and latency put traceR at ${fmt2(input.traceR)}.`;
  }
  if (input.logR !== null && input.logR > 1.5) {
    return `Log burst: error and warning lines at ${fmt2(input.logR)}x the baseline (logR=${fmt2(input.logR)}).`;
  }
  return null;
}

function pipelineSentence(input: NarrativeInput): string {
  if (input.primaryPipeline === 'log') return `Dominant pipeline: log (logR=${fmt2(input.logR ?? 0)}).`;
  if (input.primaryPipeline === 'trace') return `Dominant pipeline: trace (traceR=${fmt2(input.traceR ?? 0)}).`;
  const slopes =
    Number.isFinite(input.alphaBurst) && Number.isFinite(input.alphaStable) && input.alphaBurst !== 0 && input.alphaStable !== 0
      ? `, 5-min slope ${fmtSlope(input.alphaBurst)}/s against 60-min slope ${fmtSlope(input.alphaStable)}/s`
      : '';
  return `Dominant pipeline: metric (metricR=${fmt2(input.metricR ?? 0)}${slopes}).`;
}

/** the ETA sentence and, when the ETA is the diagnosed input's, the level it aims at */
function withTarget(sentence: string, d: Diagnosis | null | undefined): string {
  const t = d?.etaTarget;
  return t === undefined || t === null || d?.etaSeconds === null ? sentence : `${sentence} Target: ${targetLine(t)}.`;
}

function ttfSentence(ttf: number): string | null {
  if (!Number.isFinite(ttf) || ttf < 0 || ttf >= ETA_CAP_SECONDS) return null;
  const seconds = Math.floor(ttf);
  if (seconds === 0) return 'Estimated time to failure: now.';
  if (seconds < 60) return `Estimated time to failure: ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  const minutes = Math.floor(seconds / 60);
  return `Estimated time to failure: ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
