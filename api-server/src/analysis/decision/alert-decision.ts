/**
 * The decision layer of one workload (docs/adr/0011-alert-decision-layer.md): the burst-change
 * baseline that gates metricR, the level hold and the band decider, saved and restored together.
 */
import { z } from 'zod';
import type { Band } from '../bands.js';
import type { RuptureState } from '../contract.js';
import { BandDecider, bandDeciderSchema, type Decision } from './band-decider.js';
import { ChangeEnvelope, changeEnvelopeSchema } from './change-envelope.js';
import { LevelHold, levelHoldSchema } from './level-hold.js';
import { DEFAULT_SLOPE_GATE, gatedSlopeRatio } from './slope-significance.js';

export const alertDecisionSchema = z.object({ decider: bandDeciderSchema, envelope: changeEnvelopeSchema, hold: levelHoldSchema });
export type AlertDecisionState = z.infer<typeof alertDecisionSchema>;

/** one metricR input's burst and stable lines as the gate reads them */
export interface InputLines {
  burstSlope: number;
  burstStdError: number;
  burstSpan: number;
  stableSlope: number;
  /** 5-minute and 60-minute means (the level hold's current level and level before) */
  burstMean: number;
  stableMean: number;
}

export class AlertDecision {
  private decider = new BandDecider();
  private envelope = new ChangeEnvelope();
  private hold = new LevelHold();
  /** the inputs' levels of the step (5-minute means) and before it (60-minute means) */
  private readonly levels = new Map<string, number>();
  private readonly levelsBefore = new Map<string, number>();

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
    const r = gatedSlopeRatio(l.burstSlope, l.burstStdError, l.burstSpan, l.stableSlope, { tMin: DEFAULT_SLOPE_GATE.tMin, material });
    this.envelope.observe(input, l.burstSlope * l.burstSpan);
    this.levels.set(input, l.burstMean);
    this.levelsBefore.set(input, l.stableMean);
    return r;
  }

  /** the step's decision (call after the step's metricRatio calls) */
  decide(workload: string, fusedR: number, timeMs: number, quiet: boolean, corroborated = true, soloDwellSteps?: number): Decision {
    const wasNormal = this.decider.band === 'normal';
    if (wasNormal) this.hold.open(this.levelsBefore);
    const d = this.decider.step({ workload, fusedR, timeMs, quiet, held: !wasNormal && this.hold.held(this.levels), corroborated, ...(soloDwellSteps === undefined ? {} : { soloDwellSteps }) });
    if (d.band === 'normal') this.hold.close();
    this.levels.clear();
    this.levelsBefore.clear();
    return d;
  }

  toJSON(): AlertDecisionState {
    return { decider: this.decider.toJSON(), envelope: this.envelope.toJSON(), hold: this.hold.toJSON() };
  }

  static fromJSON(state: unknown): AlertDecision {
    const s = alertDecisionSchema.parse(state);
    const a = new AlertDecision();
    a.decider = BandDecider.fromJSON(s.decider);
    a.envelope = ChangeEnvelope.fromJSON(s.envelope);
    a.hold = LevelHold.fromJSON(s.hold);
    return a;
  }
}
