/**
 * The per-workload baseline of burst changes (docs/adr/0011-alert-decision-layer.md): for each
 * metricR input, a peak envelope of |α_b|·span (the change its burst slope makes over the 5-minute
 * window) that decays with a half-life of `halfLifeSteps`. A burst counts as material only when its
 * change exceeds both the fixed floor and `margin` times the envelope: a service whose CPU jumps by
 * 0.3 for its nightly batch learns that such a jump is its normal, one that never moved does not.
 *
 * The envelope takes a change `lagSteps` steps late (one burst window): a change is judged against
 * what came before its window, never against itself as it grows.
 */
import { z } from 'zod';

export interface EnvelopeConfig {
  halfLifeSteps: number;
  margin: number;
  lagSteps: number;
}

export const DEFAULT_ENVELOPE: EnvelopeConfig = { halfLifeSteps: 5760, margin: 1.5, lagSteps: 20 };

const inputSchema = z.object({ peak: z.number().min(0), pending: z.array(z.number()) });
export const changeEnvelopeSchema = z.record(z.string(), inputSchema);
export type ChangeEnvelopeState = z.infer<typeof changeEnvelopeSchema>;

interface InputEnvelope {
  peak: number;
  /** the last lagSteps changes, oldest first, not yet in the peak */
  pending: number[];
}

export class ChangeEnvelope {
  private readonly inputs = new Map<string, InputEnvelope>();
  private readonly decay: number;

  constructor(private readonly config: EnvelopeConfig = DEFAULT_ENVELOPE) {
    this.decay = Math.pow(0.5, 1 / config.halfLifeSteps);
  }

  /** the change a burst of `input` must exceed this step */
  threshold(input: string, floor: number): number {
    return Math.max(floor, this.config.margin * (this.inputs.get(input)?.peak ?? 0));
  }

  /** decays the input's envelope one step and takes the change of lagSteps steps ago into it */
  observe(input: string, change: number): void {
    let e = this.inputs.get(input);
    if (e === undefined) this.inputs.set(input, (e = { peak: 0, pending: [] }));
    e.pending.push(Number.isFinite(change) ? Math.abs(change) : 0);
    const decayed = e.peak * this.decay;
    const due = e.pending.length > this.config.lagSteps ? e.pending.shift()! : 0;
    e.peak = due > decayed ? due : decayed;
  }

  peak(input: string): number {
    return this.inputs.get(input)?.peak ?? 0;
  }

  toJSON(): ChangeEnvelopeState {
    const out: ChangeEnvelopeState = {};
    for (const [k, e] of this.inputs) out[k] = { peak: e.peak, pending: [...e.pending] };
    return out;
  }

  static fromJSON(state: ChangeEnvelopeState, config: EnvelopeConfig = DEFAULT_ENVELOPE): ChangeEnvelope {
    const env = new ChangeEnvelope(config);
    for (const [k, e] of Object.entries(state)) env.inputs.set(k, { peak: e.peak, pending: e.pending.slice(-config.lagSteps) });
    return env;
  }
}
