/**
 * KPI state of one pod (or of the whole workload when samples carry no pod identity) and the
 * step procedure of analytics.md §3.1 in dependency order. Pure: the caller passes the step
 * time and the workload-level log/trace context.
 *
 * State bound per pod: 12 held inputs (value, last sample time), fatigue, 4 EWMA numbers,
 * 8 Welford triples, 60 health values, 60 fd counts and ≤ 240 restart increments (1 h) —
 * about 2.5 KB.
 */
import type { SignalName, WeightedSignal } from '../contract.js';
import { CANONICAL_INPUTS, type CanonicalInput } from '../normalise/metric-names.js';
import { clamp01, loadPerCore, requestRateNormalised } from '../normalise/unit-rules.js';
import { BASELINE_INDEX, BASELINE_SIGNALS, WelfordSet } from '../calibration/welford.js';
import type { HealthWeights } from '../weights/health-weights.js';
import type { InputAccumulator } from '../buckets/workload-buckets.js';
import {
  contagionOf,
  ewmaZ,
  fdEntropyOf,
  healthEntropyOf,
  healthScoreOf,
  humidityOf,
  moodBase,
  moodOf,
  nextFatigue,
  pressureOf,
  resilienceOf,
  stressOf,
  throughputDropOf,
  velocityOf,
  type Ewma,
} from './formulas.js';

export const HISTORY_LENGTH = 60;
const HOUR_MS = 3_600_000;
const INPUT_INDEX = Object.fromEntries(CANONICAL_INPUTS.map((n, i) => [n, i])) as Record<CanonicalInput, number>;
const N_INPUTS = CANONICAL_INPUTS.length;

export interface PodStepContext {
  tMs: number;
  dtSeconds: number;
  absenceMs: number;
  /** CPU cores of the workload (load ÷ cores), ≥ 1 */
  cores: number;
  /** 0.2·tanh(S_log/2) of the step (log module) */
  logMoodTerm: number;
  /** a classified log line within 60 s */
  recentLogs: boolean;
  /** (ERROR+FATAL)/classified lines of the step, 0 without logs */
  logErrorShare: number;
  /** max p_e over graph edges into the workload, 0 without trace data */
  graphContagion: number;
  weights: Readonly<HealthWeights>;
  calibrationSteps: number;
  fatigueThreshold: number;
  fatigueRecovery: number;
}

/** The signals of one pod at one step plus what explanations need. */
export interface PodSignals {
  values: Record<SignalName, number>;
  throughputDrop: number;
  /** penalties p_k actually used in h (adaptive a_k once calibrated; fatigue absolute) */
  penalties: Record<WeightedSignal, number>;
  healthRaw: number;
  calibrated: boolean;
}

export interface PodKpiState {
  held: number[];
  fatigue: number;
  ewmaX: Ewma;
  ewmaE: Ewma;
  welford: number[];
  qPrev: number | null;
  restartCounter: number | null;
  restartIncrements: number[];
  health: number[];
  fds: number[];
  prevHealth: number | null;
  prevStepMs: number | null;
  lastSeenMs: number;
}

class Ring {
  readonly values: Float64Array;
  size = 0;
  private head = 0;

  constructor(readonly capacity: number) {
    this.values = new Float64Array(capacity);
  }

  push(v: number): void {
    this.values[this.head] = v;
    this.head = (this.head + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** oldest first */
  toArray(): number[] {
    const out: number[] = [];
    const start = (this.head - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i++) out.push(this.values[(start + i) % this.capacity]!);
    return out;
  }
}

const finiteOr = (x: unknown, d: number): number => (typeof x === 'number' && Number.isFinite(x) ? x : d);

export class PodKpi {
  /** held bucket means and last sample times per canonical input */
  private readonly heldValue = new Float64Array(N_INPUTS);
  private readonly heldMs = new Float64Array(N_INPUTS).fill(Number.NEGATIVE_INFINITY);
  private fatigue = 0;
  private readonly ewmaX: Ewma = { mean: 0, variance: 0 };
  private readonly ewmaE: Ewma = { mean: 0, variance: 0 };
  readonly welford = new WelfordSet(BASELINE_SIGNALS.length);
  private qPrev: number | undefined;
  private restartCounter: number | undefined;
  /** pairs (timeMs, delta) of restart counter increments within the last hour */
  private restartIncrements: number[] = [];
  private readonly health = new Ring(HISTORY_LENGTH);
  private readonly fds = new Ring(HISTORY_LENGTH);
  private prevHealth: number | undefined;
  private prevStepMs: number | undefined;
  /** newest sample time of this pod (eviction order) */
  lastSeenMs = Number.NEGATIVE_INFINITY;

  /** takes this pod's bucket means of the step (sample-and-hold) */
  absorb(inputs: Map<string, InputAccumulator>): void {
    for (const [name, acc] of inputs) {
      if (acc.count === 0) continue;
      const i = INPUT_INDEX[name as CanonicalInput];
      if (i === undefined) continue;
      const mean = acc.sum / acc.count;
      if (i === INPUT_INDEX.restarts) this.absorbRestarts(mean, acc.lastMs);
      this.heldValue[i] = mean;
      if (acc.lastMs > this.heldMs[i]!) this.heldMs[i] = acc.lastMs;
      if (acc.lastMs > this.lastSeenMs) this.lastSeenMs = acc.lastMs;
      if (i === INPUT_INDEX.open_fds) this.fds.push(mean);
    }
  }

  private absorbRestarts(counter: number, timeMs: number): void {
    if (this.restartCounter !== undefined) {
      const delta = counter >= this.restartCounter ? counter - this.restartCounter : counter;
      if (delta > 0) this.restartIncrements.push(timeMs, delta);
      if (this.restartIncrements.length > 480) this.restartIncrements.splice(0, this.restartIncrements.length - 480);
    }
    this.restartCounter = counter;
  }

  private restartsLastHour(tMs: number): number {
    let drop = 0;
    while (drop < this.restartIncrements.length && tMs - this.restartIncrements[drop]! > HOUR_MS) drop += 2;
    if (drop > 0) this.restartIncrements.splice(0, drop);
    let r = 0;
    for (let i = 1; i < this.restartIncrements.length; i += 2) r += this.restartIncrements[i]!;
    return r;
  }

  private seen(input: CanonicalInput, ctx: PodStepContext): boolean {
    return ctx.tMs - this.heldMs[INPUT_INDEX[input]]! <= ctx.absenceMs;
  }

  private value(input: CanonicalInput, ctx: PodStepContext): number {
    return this.seen(input, ctx) ? this.heldValue[INPUT_INDEX[input]]! : 0;
  }

  /** whether any canonical input of the pod is still seen at tMs */
  isLive(tMs: number, absenceMs: number): boolean {
    return tMs - this.lastSeenMs <= absenceMs;
  }

  get steps(): number {
    return this.welford.count(0);
  }

  step(ctx: PodStepContext): PodSignals {
    const c = this.value('cpu', ctx);
    const m = this.value('memory', ctx);
    const e = this.value('error_rate', ctx);
    const t = this.value('timeout_rate', ctx);
    const g = this.value('gc_pause', ctx);
    const latencySeen = this.seen('latency', ctx);
    const loadSeen = this.seen('load', ctx);
    const l = latencySeen ? this.value('latency', ctx) : 0;
    const n = loadSeen ? loadPerCore(this.heldValue[INPUT_INDEX.load]!, ctx.cores) : 0;
    const qSeen = this.seen('request_rate', ctx);
    const qRaw = qSeen ? this.heldValue[INPUT_INDEX.request_rate]! : 0;

    // 1 stress
    const stress = stressOf(c, m, latencySeen ? l : loadSeen ? n : 0, e, t);
    // 2 fatigue
    this.fatigue = nextFatigue(this.fatigue, stress, g, ctx.dtSeconds, ctx.fatigueThreshold, ctx.fatigueRecovery);
    const fatigue = this.fatigue;
    // 3 mood
    const mood = moodOf(moodBase(e, t, this.restartsLastHour(ctx.tMs)), ctx.logMoodTerm, ctx.recentLogs);
    // 4 pressure: x = max over seen of C, M, L, N
    let x = 0;
    if (this.seen('cpu', ctx)) x = Math.max(x, c);
    if (this.seen('memory', ctx)) x = Math.max(x, m);
    if (latencySeen) x = Math.max(x, l);
    if (loadSeen) x = Math.max(x, n);
    const pressure = pressureOf(ewmaZ(this.ewmaX, x), ewmaZ(this.ewmaE, e));
    // 5 humidity
    const humidity = humidityOf(e, this.seen('timeout_rate', ctx) ? t : e, qSeen ? requestRateNormalised(qRaw) : 1);
    // 6 contagion
    const contagion = contagionOf(ctx.graphContagion, e, ctx.logErrorShare, c);
    // 7 throughput drop (raw Q); Q_prev ← Q every step
    const throughputDrop = qSeen ? throughputDropOf(this.qPrev, qRaw) : 0;
    if (qSeen) this.qPrev = qRaw;
    // 8 resilience
    const resilience = resilienceOf(mood, fatigue, contagion);
    // 9 raw health
    const w = ctx.weights;
    const absolute: Record<WeightedSignal, number> = { stress, fatigue, mood: 1 - mood, pressure, humidity, contagion };
    const healthRaw = healthScoreOf(w, absolute);
    // 10 baselines
    const b = this.welford;
    b.update(BASELINE_INDEX.stress, stress);
    b.update(BASELINE_INDEX.fatigue, fatigue);
    b.update(BASELINE_INDEX.mood_penalty, 1 - mood);
    b.update(BASELINE_INDEX.pressure, pressure);
    b.update(BASELINE_INDEX.humidity, humidity);
    b.update(BASELINE_INDEX.contagion, contagion);
    b.update(BASELINE_INDEX.throughput_drop, throughputDrop);
    b.update(BASELINE_INDEX.health_raw, healthRaw);
    // 11 final health
    const calibrated = b.count(0) >= ctx.calibrationSteps;
    const penalties = calibrated
      ? {
          stress: b.adaptiveScore(BASELINE_INDEX.stress, stress),
          fatigue,
          mood: b.adaptiveScore(BASELINE_INDEX.mood_penalty, 1 - mood),
          pressure: b.adaptiveScore(BASELINE_INDEX.pressure, pressure),
          humidity: b.adaptiveScore(BASELINE_INDEX.humidity, humidity),
          contagion: b.adaptiveScore(BASELINE_INDEX.contagion, contagion),
        }
      : absolute;
    const health = calibrated ? healthScoreOf(w, penalties) : healthRaw;
    // 12-13 history, entropy, velocity
    this.health.push(health);
    let entropy = healthEntropyOf(this.health.values, this.health.size);
    if (this.seen('open_fds', ctx) && this.fds.size > 0) entropy = Math.max(entropy, fdEntropyOf(this.fds.values, this.fds.size));
    const velocity = velocityOf(this.prevHealth, health, ctx.dtSeconds);
    // 14
    this.prevHealth = health;
    this.prevStepMs = ctx.tMs;
    return {
      values: { stress, fatigue, mood, pressure, humidity, contagion, resilience, entropy, velocity, health_score: health },
      throughputDrop,
      penalties,
      healthRaw,
      calibrated,
    };
  }

  get previousStepMs(): number | undefined {
    return this.prevStepMs;
  }

  toJSON(): PodKpiState {
    return {
      held: [...Array.from(this.heldValue), ...Array.from(this.heldMs, (v) => (Number.isFinite(v) ? v : -1e300))],
      fatigue: this.fatigue,
      ewmaX: { ...this.ewmaX },
      ewmaE: { ...this.ewmaE },
      welford: Array.from(this.welford.data),
      qPrev: this.qPrev ?? null,
      restartCounter: this.restartCounter ?? null,
      restartIncrements: [...this.restartIncrements],
      health: this.health.toArray(),
      fds: this.fds.toArray(),
      prevHealth: this.prevHealth ?? null,
      prevStepMs: this.prevStepMs ?? null,
      lastSeenMs: Number.isFinite(this.lastSeenMs) ? this.lastSeenMs : -1e300,
    };
  }

  /** rebuilds from toJSON output; malformed numbers fall back to the initial state's values */
  static fromJSON(s: PodKpiState): PodKpi {
    const p = new PodKpi();
    if (Array.isArray(s.held) && s.held.length === 2 * N_INPUTS) {
      for (let i = 0; i < N_INPUTS; i++) {
        p.heldValue[i] = finiteOr(s.held[i], 0);
        const ms = finiteOr(s.held[N_INPUTS + i], Number.NEGATIVE_INFINITY);
        p.heldMs[i] = ms <= -1e300 ? Number.NEGATIVE_INFINITY : ms;
      }
    }
    p.fatigue = clamp01(finiteOr(s.fatigue, 0));
    p.ewmaX.mean = finiteOr(s.ewmaX?.mean, 0);
    p.ewmaX.variance = Math.max(0, finiteOr(s.ewmaX?.variance, 0));
    p.ewmaE.mean = finiteOr(s.ewmaE?.mean, 0);
    p.ewmaE.variance = Math.max(0, finiteOr(s.ewmaE?.variance, 0));
    if (Array.isArray(s.welford) && s.welford.length === p.welford.data.length) s.welford.forEach((v, i) => (p.welford.data[i] = finiteOr(v, 0)));
    p.qPrev = s.qPrev === null ? undefined : finiteOr(s.qPrev, 0);
    p.restartCounter = s.restartCounter === null ? undefined : finiteOr(s.restartCounter, 0);
    p.restartIncrements = Array.isArray(s.restartIncrements) ? s.restartIncrements.filter((v) => Number.isFinite(v)).slice(-480) : [];
    if (p.restartIncrements.length % 2 === 1) p.restartIncrements.shift();
    for (const h of Array.isArray(s.health) ? s.health.slice(-HISTORY_LENGTH) : []) if (Number.isFinite(h)) p.health.push(clamp01(h));
    for (const f of Array.isArray(s.fds) ? s.fds.slice(-HISTORY_LENGTH) : []) if (Number.isFinite(f)) p.fds.push(f);
    p.prevHealth = s.prevHealth === null ? undefined : clamp01(finiteOr(s.prevHealth, 0));
    p.prevStepMs = s.prevStepMs === null ? undefined : finiteOr(s.prevStepMs, 0);
    const seen = finiteOr(s.lastSeenMs, Number.NEGATIVE_INFINITY);
    p.lastSeenMs = seen <= -1e300 ? Number.NEGATIVE_INFINITY : seen;
    return p;
  }
}
