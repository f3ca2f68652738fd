/**
 * KPI state of one pod (or of the whole workload when samples carry no pod identity) and the
 * step procedure of analytics.md §3.1 in dependency order. Pure: the caller passes the step
 * time and the workload-level log/trace context.
 *
 * State bound per pod: 12 held inputs (value, last sample time), fatigue, 4 EWMA numbers,
 * 8 Welford triples, 60 health values, 60 fd counts and ≤ 240 restart increments (1 h) —
 * about 2.5 KB.
 */
import { CANONICAL_INPUTS, type CanonicalInput } from '../normalise/metric-names.js';
import { clamp01, loadPerCore, requestRateNormalised } from '../normalise/unit-rules.js';
import { BASELINE_INDEX, BASELINE_SIGNALS, WelfordSet } from '../calibration/welford.js';
import type { PodInputs } from '../buckets/workload-buckets.js';
import {
  contagionOf,
  ewmaZAt,
  fdEntropyOf,
  healthEntropyOf,
  healthScoreOf,
  humidityOf,
  moodBase,
  moodOf,
  nextFatigue,
  memoryFatigueInput,
  pressureOf,
  resilienceOf,
  stressOf,
  throughputDropOf,
  velocityOf,
  type Ewma,
} from './formulas.js';
import { PodSignalsBuffer, type PodSignals, type PodStepContext } from './pod-signals.js';
import { Ring } from './value-ring.js';

export const HISTORY_LENGTH = 60;
const HOUR_MS = 3_600_000;
const INPUT_INDEX = Object.fromEntries(CANONICAL_INPUTS.map((n, i) => [n, i])) as Record<CanonicalInput, number>;
const N_INPUTS = CANONICAL_INPUTS.length;
const I_CPU = INPUT_INDEX.cpu;
const I_MEMORY = INPUT_INDEX.memory;
const I_LATENCY = INPUT_INDEX.latency;
const I_ERROR_RATE = INPUT_INDEX.error_rate;
const I_TIMEOUT_RATE = INPUT_INDEX.timeout_rate;
const I_REQUEST_RATE = INPUT_INDEX.request_rate;
const I_LOAD = INPUT_INDEX.load;
const I_GC_PAUSE = INPUT_INDEX.gc_pause;
const I_OPEN_FDS = INPUT_INDEX.open_fds;
const I_RESTARTS = INPUT_INDEX.restarts;

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

const WELFORD_AT = 2 * N_INPUTS;
const HEALTH_AT = WELFORD_AT + 3 * BASELINE_SIGNALS.length;
const FATIGUE_AT = HEALTH_AT + HISTORY_LENGTH;
const EWMA_X_AT = FATIGUE_AT + 1;
const EWMA_E_AT = EWMA_X_AT + 2;
const NUMBERS_LENGTH = EWMA_E_AT + 2;

function newNumbers(): Float64Array {
  const a = new Float64Array(NUMBERS_LENGTH);
  a.fill(Number.NEGATIVE_INFINITY, N_INPUTS, 2 * N_INPUTS);
  return a;
}

const finiteOr = (x: unknown, d: number): number => (typeof x === 'number' && Number.isFinite(x) ? x : d);

export class PodKpi {
  /** the pod's name in its workload ('' = samples without pod identity); not part of the state */
  pod = '';
  /**
   * One array for the numbers of fixed size: held bucket means [0, N) and last sample times
   * [N, 2N) per canonical input, the Welford triples and the health ring, fatigue and
   * the pressure EWMAs (μ, σ² of x and of E).
   */
  private readonly numbers = newNumbers();
  readonly welford = new WelfordSet(BASELINE_SIGNALS.length, undefined, this.numbers, WELFORD_AT);
  private qPrev: number | undefined;
  private restartCounter: number | undefined;
  /** pairs (timeMs, delta) of restart counter increments within the last hour */
  private restartIncrements: number[] = [];
  private readonly health = new Ring(HISTORY_LENGTH, this.numbers, HEALTH_AT);
  /** open_fds history, created at the first open_fds value */
  private fds: Ring | null = null;
  private prevHealth: number | undefined;
  private prevStepMs: number | undefined;
  /** newest sample time of this pod (eviction order) */
  lastSeenMs = Number.NEGATIVE_INFINITY;

  /**
   * Reads one value from each cache line of the pod's numbers and returns their sum, for
   * prefetching a workload ahead (WorkloadAnalyzer.touchAhead). Changes nothing.
   */
  touch(): number {
    const a = this.numbers;
    let sum = 0;
    for (let i = 0; i < a.length; i += 8) sum += a[i]!;
    return sum + a[a.length - 1]!;
  }

  /** takes this pod's bucket means of the step (sample-and-hold) */
  absorb(inputs: PodInputs): void {
    const names = inputs.names;
    for (let k = 0; k < names.length; k++) {
      const count = inputs.count(k);
      if (count === 0) continue;
      const i = INPUT_INDEX[names[k] as CanonicalInput];
      if (i === undefined) continue;
      this.absorbOne(i, inputs.sum(k) / count, inputs.lastMs(k));
    }
  }

  private absorbOne(i: number, mean: number, lastMs: number): void {
    if (i === I_RESTARTS) this.absorbRestarts(mean, lastMs);
    const held = this.numbers;
    held[i] = mean;
    if (lastMs > held[N_INPUTS + i]!) held[N_INPUTS + i] = lastMs;
    if (lastMs > this.lastSeenMs) this.lastSeenMs = lastMs;
    if (i === I_OPEN_FDS) this.fdsRing().push(mean);
  }

  private fdsRing(): Ring {
    this.fds ??= new Ring(HISTORY_LENGTH);
    return this.fds;
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

  /** whether the input at index i is seen at the step */
  private seen(i: number, ctx: PodStepContext): boolean {
    return ctx.tMs - this.numbers[N_INPUTS + i]! <= ctx.absenceMs;
  }

  /** whether any canonical input of the pod is still seen at tMs */
  isLive(tMs: number, absenceMs: number): boolean {
    return tMs - this.lastSeenMs <= absenceMs;
  }

  get steps(): number {
    return this.welford.count(0);
  }

  step(ctx: PodStepContext): PodSignals {
    const b = this.stepInto(ctx, new PodSignalsBuffer());
    return { values: b.values, throughputDrop: b.throughputDrop, penalties: b.penalties, healthRaw: b.healthRaw, calibrated: b.calibrated };
  }

  /** step writing into `out` (its objects are overwritten); returns out */
  stepInto(ctx: PodStepContext, out: PodSignalsBuffer): PodSignalsBuffer {
    // seen(i) and value(i) written out (this method is too large for them to be inlined reliably)
    const held = this.numbers;
    const tMs = ctx.tMs;
    const absenceMs = ctx.absenceMs;
    const cpuSeen = tMs - held[N_INPUTS + I_CPU]! <= absenceMs;
    const memorySeen = tMs - held[N_INPUTS + I_MEMORY]! <= absenceMs;
    const timeoutSeen = tMs - held[N_INPUTS + I_TIMEOUT_RATE]! <= absenceMs;
    const c = cpuSeen ? held[I_CPU]! : 0;
    const m = memorySeen ? held[I_MEMORY]! : 0;
    const e = tMs - held[N_INPUTS + I_ERROR_RATE]! <= absenceMs ? held[I_ERROR_RATE]! : 0;
    const t = timeoutSeen ? held[I_TIMEOUT_RATE]! : 0;
    const g = tMs - held[N_INPUTS + I_GC_PAUSE]! <= absenceMs ? held[I_GC_PAUSE]! : 0;
    const latencySeen = tMs - held[N_INPUTS + I_LATENCY]! <= absenceMs;
    const loadSeen = tMs - held[N_INPUTS + I_LOAD]! <= absenceMs;
    const l = latencySeen ? held[I_LATENCY]! : 0;
    const n = loadSeen ? loadPerCore(held[I_LOAD]!, ctx.cores) : 0;
    const qSeen = tMs - held[N_INPUTS + I_REQUEST_RATE]! <= absenceMs;
    const qRaw = qSeen ? held[I_REQUEST_RATE]! : 0;

    // 1 stress
    const stress = stressOf(c, m, latencySeen ? l : loadSeen ? n : 0, e, t);
    // 2 fatigue: D = max(S, G, M_F) (memory feeds fatigue, formulas.ts memoryFatigueInput)
    const fatigue = nextFatigue(this.numbers[FATIGUE_AT]!, Math.max(stress, memoryFatigueInput(m)), g, ctx.dtSeconds, ctx.fatigueThreshold, ctx.fatigueRecovery);
    this.numbers[FATIGUE_AT] = fatigue;
    // 3 mood
    const mood = moodOf(moodBase(e, t, this.restartsLastHour(ctx.tMs)), ctx.logMoodTerm, ctx.recentLogs);
    // 4 pressure: x = max over seen of C, M, L, N
    let x = 0;
    if (cpuSeen) x = Math.max(x, c);
    if (memorySeen) x = Math.max(x, m);
    if (latencySeen) x = Math.max(x, l);
    if (loadSeen) x = Math.max(x, n);
    const pressure = pressureOf(ewmaZAt(this.numbers, EWMA_X_AT, x), ewmaZAt(this.numbers, EWMA_E_AT, e));
    // 5 humidity
    const humidity = humidityOf(e, timeoutSeen ? t : e, qSeen ? requestRateNormalised(qRaw) : 1);
    // 6 contagion
    const contagion = contagionOf(ctx.graphContagion, e, ctx.logErrorShare, c);
    // 7 throughput drop (raw Q); Q_prev ← Q every step
    const throughputDrop = qSeen ? throughputDropOf(this.qPrev, qRaw) : 0;
    if (qSeen) this.qPrev = qRaw;
    // 8 resilience
    const resilience = resilienceOf(mood, fatigue, contagion);
    // 9 raw health
    const w = ctx.weights;
    const absolute = out.absolute;
    absolute.stress = stress;
    absolute.fatigue = fatigue;
    absolute.mood = 1 - mood;
    absolute.pressure = pressure;
    absolute.humidity = humidity;
    absolute.contagion = contagion;
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
    let penalties = absolute;
    if (calibrated) {
      penalties = out.adaptive;
      penalties.stress = b.adaptiveScore(BASELINE_INDEX.stress, stress);
      penalties.fatigue = fatigue;
      penalties.mood = b.adaptiveScore(BASELINE_INDEX.mood_penalty, 1 - mood);
      penalties.pressure = b.adaptiveScore(BASELINE_INDEX.pressure, pressure);
      penalties.humidity = b.adaptiveScore(BASELINE_INDEX.humidity, humidity);
      penalties.contagion = b.adaptiveScore(BASELINE_INDEX.contagion, contagion);
    }
    const health = calibrated ? healthScoreOf(w, penalties) : healthRaw;
    // 12-13 history, entropy, velocity
    this.health.push(health);
    let entropy = healthEntropyOf(this.health.values, this.health.size, this.health.at);
    if (this.fds !== null && this.seen(I_OPEN_FDS, ctx) && this.fds.size > 0) entropy = Math.max(entropy, fdEntropyOf(this.fds.values, this.fds.size));
    const velocity = velocityOf(this.prevHealth, health, ctx.dtSeconds);
    // 14
    this.prevHealth = health;
    this.prevStepMs = ctx.tMs;
    const v = out.values;
    v.stress = stress;
    v.fatigue = fatigue;
    v.mood = mood;
    v.pressure = pressure;
    v.humidity = humidity;
    v.contagion = contagion;
    v.resilience = resilience;
    v.entropy = entropy;
    v.velocity = velocity;
    v.health_score = health;
    out.throughputDrop = throughputDrop;
    out.penalties = penalties;
    out.healthRaw = healthRaw;
    out.calibrated = calibrated;
    return out;
  }

  get previousStepMs(): number | undefined {
    return this.prevStepMs;
  }

  toJSON(): PodKpiState {
    return {
      held: Array.from(this.numbers.subarray(0, 2 * N_INPUTS), (v, i) => (i < N_INPUTS || Number.isFinite(v) ? v : -1e300)),
      fatigue: this.numbers[FATIGUE_AT]!,
      ewmaX: { mean: this.numbers[EWMA_X_AT]!, variance: this.numbers[EWMA_X_AT + 1]! },
      ewmaE: { mean: this.numbers[EWMA_E_AT]!, variance: this.numbers[EWMA_E_AT + 1]! },
      welford: this.welford.toArray(),
      qPrev: this.qPrev ?? null,
      restartCounter: this.restartCounter ?? null,
      restartIncrements: [...this.restartIncrements],
      health: this.health.toArray(),
      fds: this.fds?.toArray() ?? [],
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
        p.numbers[i] = finiteOr(s.held[i], 0);
        const ms = finiteOr(s.held[N_INPUTS + i], Number.NEGATIVE_INFINITY);
        p.numbers[N_INPUTS + i] = ms <= -1e300 ? Number.NEGATIVE_INFINITY : ms;
      }
    }
    p.numbers[FATIGUE_AT] = clamp01(finiteOr(s.fatigue, 0));
    p.numbers[EWMA_X_AT] = finiteOr(s.ewmaX?.mean, 0);
    p.numbers[EWMA_X_AT + 1] = Math.max(0, finiteOr(s.ewmaX?.variance, 0));
    p.numbers[EWMA_E_AT] = finiteOr(s.ewmaE?.mean, 0);
    p.numbers[EWMA_E_AT + 1] = Math.max(0, finiteOr(s.ewmaE?.variance, 0));
    if (Array.isArray(s.welford) && s.welford.length === 3 * p.welford.size) p.welford.load(s.welford.map((v) => finiteOr(v, 0)));
    p.qPrev = s.qPrev === null ? undefined : finiteOr(s.qPrev, 0);
    p.restartCounter = s.restartCounter === null ? undefined : finiteOr(s.restartCounter, 0);
    p.restartIncrements = Array.isArray(s.restartIncrements) ? s.restartIncrements.filter((v) => Number.isFinite(v)).slice(-480) : [];
    if (p.restartIncrements.length % 2 === 1) p.restartIncrements.shift();
    for (const h of Array.isArray(s.health) ? s.health.slice(-HISTORY_LENGTH) : []) if (Number.isFinite(h)) p.health.push(clamp01(h));
    for (const f of Array.isArray(s.fds) ? s.fds.slice(-HISTORY_LENGTH) : []) if (Number.isFinite(f)) p.fdsRing().push(f);
    p.prevHealth = s.prevHealth === null ? undefined : clamp01(finiteOr(s.prevHealth, 0));
    p.prevStepMs = s.prevStepMs === null ? undefined : finiteOr(s.prevStepMs, 0);
    const seen = finiteOr(s.lastSeenMs, Number.NEGATIVE_INFINITY);
    p.lastSeenMs = seen <= -1e300 ? Number.NEGATIVE_INFINITY : seen;
    return p;
  }
}
