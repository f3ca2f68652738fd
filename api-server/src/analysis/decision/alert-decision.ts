/**
 * The decision layer of one workload (docs/adr/0011-alert-decision-layer.md): the burst-change
 * baseline that gates metricR, the level hold and the band decider, saved and restored together.
 */
import { z } from 'zod';
import type { Band } from '../bands.js';
import type { RuptureState } from '../contract.js';
import { BandDecider, bandDeciderSchema, type Decision, type DecisionInput } from './band-decider.js';
import { ChangeEnvelope, changeEnvelopeSchema } from './change-envelope.js';
import { LevelHold, levelHoldSchema } from './level-hold.js';
import { DEPARTURES, LevelDeparture, levelDepartureSchema, type Baseline, type DepartureConfig } from './level-departure.js';
import { LevelTrend, levelTrendSchema, type LimitKind, type TrendRank } from './level-trend.js';
import { SaturationClimb, saturationClimbSchema } from './saturation-climb.js';
import { DEFAULT_SLOPE_GATE, gatedSlopeRatio, slopeIsMaterial } from './slope-significance.js';

export const alertDecisionSchema = z.object({
  decider: bandDeciderSchema,
  envelope: changeEnvelopeSchema,
  hold: levelHoldSchema,
  /** absent in states saved before the level-trend rule */
  trends: z.record(z.string(), levelTrendSchema).optional(),
  /** absent in states saved before the level-departure rule */
  departures: z.record(z.string(), levelDepartureSchema).optional(),
  /** absent in states saved before the saturation-climb rule */
  climbs: z.record(z.string(), saturationClimbSchema).optional(),
});
export type AlertDecisionState = z.infer<typeof alertDecisionSchema>;

/** one metricR input's burst and stable lines as the gate reads them */
export interface InputLines {
  burstSlope: number;
  /** the burst slope's standard error, read only for a slope that is material (its cost is a pass over the burst window) */
  burstStdError(): number;
  burstSpan: number;
  stableSlope: number;
  /** 5-minute and 60-minute means (the level hold's current level and level before) */
  burstMean: number;
  stableMean: number;
}

/** the limit each metricR input's trend is projected to (other inputs are not judged by level) */
const TREND_LIMITS: Readonly<Record<string, LimitKind>> = { cpu: 'saturation', memory: 'saturation', latency: 'latency', error_rate: 'errors' };

/** the inputs judged by rule 9 (a garbage-collected memory climbs in a line between collections by nature) */
const CLIMB_INPUT_LIST: readonly string[] = ['cpu'];
const CLIMB_INPUTS: ReadonlySet<string> = new Set(CLIMB_INPUT_LIST);

/** the baseline of the trend being judged (one object: departures copy it, climbs read it during the call only) */
const BASELINE: Baseline = { mean: 0, spread: 0 };

/** LevelTrend.baseline of `t` in the shared BASELINE object; null without a trend or before it is learnt */
function baselineOf(t: LevelTrend | undefined): Baseline | null {
  return t !== undefined && t.baselineInto(BASELINE) ? BASELINE : null;
}

/** the inputs judged by rule 8 and their configs, in DEPARTURES' order (read every step) */
const DEPARTURE_ENTRIES: readonly (readonly [string, DepartureConfig])[] = Object.entries(DEPARTURES);
const DEPARTURE_NAMES: readonly string[] = DEPARTURE_ENTRIES.map(([input]) => input);

/** a level slot's trend, climb or departure not looked up yet (AlertDecision's slot caches) */
const UNRESOLVED = -2;

/** the band decider's input of the running step (one object: the decider reads it during the call only) */
const DECISION_INPUT: DecisionInput = { workload: '', fusedR: 0, timeMs: 0, quiet: false, held: false, corroborated: true, soloDwellSteps: undefined, floor: 0 };

export class AlertDecision {
  private decider = new BandDecider();
  private envelope = new ChangeEnvelope();
  private hold = new LevelHold();
  private trends = new Map<string, LevelTrend>();
  private departures = new Map<string, LevelDeparture>();
  private climbs = new Map<string, SaturationClimb>();
  /**
   * the inputs' levels of the step (5-minute means) and before it (60-minute means), in [0, count):
   * room for the four metricR inputs from the start (an array grown by writes at its end would take
   * 17), more only if an input outside them is given
   */
  private readonly levels = { inputs: ['', '', '', ''], now: [0, 0, 0, 0], before: [0, 0, 0, 0], count: 0 };
  /**
   * What judgeTrends reads for the input in each level slot, looked up by name once and kept while
   * the slot holds that input (the same inputs come in the same order step after step; the Maps
   * never drop an entry): the input's trend (null: not judged by level; undefined: not looked up
   * yet, or not made yet), its climb (null: not a rule 9 input; undefined: not looked up yet) and
   * its place in `departureList` (−1: none; UNRESOLVED: not looked up yet). The Maps stay the
   * record of what exists, in the order it was made (the saved state's order).
   */
  private readonly slotTrend: (LevelTrend | null | undefined)[] = [undefined, undefined, undefined, undefined];
  private readonly slotClimb: (SaturationClimb | null | undefined)[] = [undefined, undefined, undefined, undefined];
  private readonly slotDeparture: number[] = [UNRESOLVED, UNRESOLVED, UNRESOLVED, UNRESOLVED];
  /** the departures in DEPARTURE_ENTRIES' order, from the first judgeTrends (empty before) */
  private departureList: LevelDeparture[] = [];

  get band(): Band {
    return this.decider.band;
  }

  /** the state the last event announced */
  get announcedState(): RuptureState {
    return this.decider.announcedState;
  }

  /** metricR of one input through the significance gate and the workload's change baseline; learns the change */
  metricRatio(input: string, l: InputLines): number {
    const material = this.envelope.threshold(input, DEFAULT_SLOPE_GATE.material);
    // the gate reads 0 for a slope that is not material: its standard error is not computed then
    const r = slopeIsMaterial(l.burstSlope, l.burstSpan, material) ? gatedSlopeRatio(l.burstSlope, l.burstStdError(), l.burstSpan, l.stableSlope, { tMin: DEFAULT_SLOPE_GATE.tMin, material }) : 0;
    this.envelope.observe(input, l.burstSlope * l.burstSpan);
    // an input given twice in a step keeps its place, its levels replaced
    const levels = this.levels;
    let at = this.levelAt(input);
    if (at < 0) at = levels.count++;
    if (levels.inputs[at] !== input) this.forgetSlot(at);
    levels.inputs[at] = input;
    levels.now[at] = l.burstMean;
    levels.before[at] = l.stableMean;
    return r;
  }

  /** level slot `at` takes another input: what judgeTrends kept for the one before is looked up again */
  private forgetSlot(at: number): void {
    this.slotTrend[at] = undefined;
    this.slotClimb[at] = undefined;
    this.slotDeparture[at] = UNRESOLVED;
  }

  /** where `input` is among the step's levels, −1 when it has none */
  private levelAt(input: string): number {
    const levels = this.levels;
    for (let k = 0; k < levels.count; k++) if (levels.inputs[k] === input) return k;
    return -1;
  }

  /** the step's decision (call after the step's metricRatio calls) */
  decide(workload: string, fusedR: number, timeMs: number, quiet: boolean, corroborated = true, soloDwellSteps?: number): Decision {
    const wasNormal = this.decider.band === 'normal';
    const trend = this.judgeTrends(timeMs, wasNormal);
    const held = !wasNormal && (this.trendHolding() || this.hold.held(this.levels));
    const input = DECISION_INPUT;
    input.workload = workload;
    input.fusedR = fusedR;
    input.timeMs = timeMs;
    input.quiet = quiet;
    input.held = held;
    input.corroborated = corroborated;
    // undefined reads as absent: the decider's own soloDwellSteps
    input.soloDwellSteps = soloDwellSteps;
    input.floor = trend;
    const d = this.decider.step(input);
    // the hold keeps the levels before an episode from the step it opens (nothing reads it while normal)
    if (d.band === 'normal') this.hold.close();
    else if (wasNormal) this.hold.open(this.levels);
    this.levels.count = 0;
    return d;
  }

  /** the highest level-trend (ADR 0011, rule 7), level-departure (rule 8) or saturation-climb (rule 9) verdict over the inputs of the step */
  private judgeTrends(timeMs: number, learn: boolean): TrendRank {
    let rank: TrendRank = 0;
    const levels = this.levels;
    const departures = this.departuresInOrder();
    // rule 8 first: judged against the trends' baselines before this step's levels are learnt
    let departed = 0;
    for (let k = 0; k < levels.count; k++) {
      let at = this.slotDeparture[k]!;
      if (at === UNRESOLVED) this.slotDeparture[k] = at = DEPARTURE_NAMES.indexOf(levels.inputs[k]!);
      if (at < 0) continue;
      departed |= 1 << at;
      if (departures[at]!.observe(levels.now[k]!, baselineOf(this.trendAt(k)))) rank = 2;
    }
    for (let at = 0; at < departures.length; at++) if ((departed & (1 << at)) === 0) departures[at]!.reset();
    let climbed = 0;
    for (let k = 0; k < levels.count; k++) {
      const t = this.trendAt(k, true);
      if (t === undefined) continue;
      const level = levels.now[k]!;
      let c = this.slotClimb[k];
      if (c === undefined) {
        const input = levels.inputs[k]!;
        this.slotClimb[k] = c = CLIMB_INPUTS.has(input) ? this.climbOf(input) : null;
      }
      // rule 9 (CPU only) is judged against the baseline before this step's level is learnt
      if (c !== null) {
        climbed++;
        if (c.observe(level, timeMs, baselineOf(t))) rank = 2;
      }
      const r = t.observe(level, timeMs, learn);
      if (r > rank) rank = r;
    }
    // climbs exist only for CLIMB_INPUTS (climbOf, fromJSON)
    if (climbed < CLIMB_INPUT_LIST.length) for (const input of CLIMB_INPUT_LIST) if (this.levelAt(input) < 0) this.climbs.get(input)?.reset();
    return rank;
  }

  /**
   * The trend of the input in level slot k, undefined when it has none (yet, or at all). `make`:
   * made on the first call for an input judged by level, so that the trends are made in the order
   * their inputs first came (the saved state's order)
   */
  private trendAt(k: number, make = false): LevelTrend | undefined {
    const kept = this.slotTrend[k];
    if (kept !== undefined) return kept ?? undefined;
    const input = this.levels.inputs[k]!;
    const limit = Object.hasOwn(TREND_LIMITS, input) ? TREND_LIMITS[input] : undefined;
    if (limit === undefined) {
      this.slotTrend[k] = null;
      return undefined;
    }
    let t = this.trends.get(input);
    if (t === undefined && make) this.trends.set(input, (t = new LevelTrend(limit)));
    if (t !== undefined) this.slotTrend[k] = t;
    return t;
  }

  /** the departures in DEPARTURE_ENTRIES' order, each made on the first call unless restored */
  private departuresInOrder(): readonly LevelDeparture[] {
    if (this.departureList.length === 0) {
      this.departureList = DEPARTURE_ENTRIES.map(([input, config]) => {
        let d = this.departures.get(input);
        if (d === undefined) this.departures.set(input, (d = new LevelDeparture(config)));
        return d;
      });
    }
    return this.departureList;
  }

  private climbOf(input: string): SaturationClimb {
    let c = this.climbs.get(input);
    if (c === undefined) this.climbs.set(input, (c = new SaturationClimb()));
    return c;
  }

  private trendHolding(): boolean {
    for (const t of this.trends.values()) if (t.holding) return true;
    for (const d of this.departures.values()) if (d.verdict) return true;
    for (const c of this.climbs.values()) if (c.verdict) return true;
    return false;
  }

  toJSON(): AlertDecisionState {
    const trends = Object.fromEntries([...this.trends].map(([k, t]) => [k, t.toJSON()]));
    const departures = Object.fromEntries([...this.departures].map(([k, d]) => [k, d.toJSON()]));
    const climbs = Object.fromEntries([...this.climbs].map(([k, c]) => [k, c.toJSON()]));
    return { decider: this.decider.toJSON(), envelope: this.envelope.toJSON(), hold: this.hold.toJSON(), trends, departures, climbs };
  }

  static fromJSON(state: unknown): AlertDecision {
    const s = alertDecisionSchema.parse(state);
    const a = new AlertDecision();
    a.decider = BandDecider.fromJSON(s.decider);
    a.envelope = ChangeEnvelope.fromJSON(s.envelope);
    a.hold = LevelHold.fromJSON(s.hold);
    for (const [input, t] of Object.entries(s.trends ?? {})) {
      const limit = Object.hasOwn(TREND_LIMITS, input) ? TREND_LIMITS[input] : undefined;
      if (limit !== undefined) a.trends.set(input, LevelTrend.fromJSON(t, limit));
    }
    for (const [input, d] of Object.entries(s.departures ?? {})) {
      const config = Object.hasOwn(DEPARTURES, input) ? DEPARTURES[input] : undefined;
      if (config !== undefined) a.departures.set(input, LevelDeparture.fromJSON(d, config));
    }
    for (const [input, c] of Object.entries(s.climbs ?? {})) if (CLIMB_INPUTS.has(input)) a.climbs.set(input, SaturationClimb.fromJSON(c));
    return a;
  }
}
