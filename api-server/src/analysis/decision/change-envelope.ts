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

// a row per input: its peak, the pending changes held and the ring's head, then the ring of the
// last lagSteps changes not yet in the peak (oldest at the head)
const PEAK = 0;
const HELD = 1;
const HEAD = 2;
const RING = 3;

/**
 * The inputs' envelopes as rows of one Float64Array, found by the input's place among the names
 * seen (a workload has four metricR inputs): what a Map of { peak, pending[] } per input held,
 * with the same arithmetic, without an object, an array and a shift per input and step.
 */
export class ChangeEnvelope {
  /** the inputs in the order first seen (toJSON's order) */
  private readonly names: string[] = [];
  private rows = new Float64Array(0);
  private readonly rowSize: number;
  private readonly decay: number;

  constructor(private readonly config: EnvelopeConfig = DEFAULT_ENVELOPE) {
    this.decay = Math.pow(0.5, 1 / config.halfLifeSteps);
    this.rowSize = RING + config.lagSteps;
  }

  /** the change a burst of `input` must exceed this step */
  threshold(input: string, floor: number): number {
    return Math.max(floor, this.config.margin * this.peak(input));
  }

  /** decays the input's envelope one step and takes the change of lagSteps steps ago into it */
  observe(input: string, change: number): void {
    let at = this.rowOf(input);
    if (at < 0) at = this.addRow(input);
    const rows = this.rows;
    const lag = this.config.lagSteps;
    const abs = Number.isFinite(change) ? Math.abs(change) : 0;
    const held = rows[at + HELD] as number;
    let due = 0;
    if (held < lag) {
      const head = rows[at + HEAD] as number;
      const slot = head + held;
      rows[at + RING + (slot >= lag ? slot - lag : slot)] = abs;
      rows[at + HELD] = held + 1;
    } else if (lag === 0) {
      due = abs;
    } else {
      // the oldest leaves into the peak, the newest takes its slot
      const head = rows[at + HEAD] as number;
      due = rows[at + RING + head] as number;
      rows[at + RING + head] = abs;
      rows[at + HEAD] = head + 1 === lag ? 0 : head + 1;
    }
    const decayed = (rows[at + PEAK] as number) * this.decay;
    rows[at + PEAK] = due > decayed ? due : decayed;
  }

  peak(input: string): number {
    const at = this.rowOf(input);
    return at < 0 ? 0 : (this.rows[at + PEAK] as number);
  }

  toJSON(): ChangeEnvelopeState {
    const out: ChangeEnvelopeState = {};
    this.names.forEach((name, k) => {
      const at = k * this.rowSize;
      out[name] = { peak: this.rows[at + PEAK] as number, pending: this.pending(at) };
    });
    return out;
  }

  static fromJSON(state: ChangeEnvelopeState, config: EnvelopeConfig = DEFAULT_ENVELOPE): ChangeEnvelope {
    const env = new ChangeEnvelope(config);
    for (const [name, e] of Object.entries(state)) {
      // a record's names are distinct: one new row each
      const at = env.addRow(name);
      const pending = config.lagSteps === 0 ? [] : e.pending.slice(-config.lagSteps);
      env.rows[at + PEAK] = e.peak;
      env.rows[at + HELD] = pending.length;
      env.rows[at + HEAD] = 0;
      env.rows.set(pending, at + RING);
    }
    return env;
  }

  /** the pending changes of the row at `at`, oldest first */
  private pending(at: number): number[] {
    const lag = this.config.lagSteps;
    const held = this.rows[at + HELD] as number;
    const head = this.rows[at + HEAD] as number;
    const out: number[] = [];
    for (let k = 0; k < held; k += 1) out.push(this.rows[at + RING + ((head + k) % lag)] as number);
    return out;
  }

  /** the first element of the input's row, -1 when not seen */
  private rowOf(input: string): number {
    const names = this.names;
    for (let k = 0; k < names.length; k += 1) if (names[k] === input) return k * this.rowSize;
    return -1;
  }

  /** a row for a new input (peak 0, nothing pending), the rows copied to an array one row longer */
  private addRow(input: string): number {
    const at = this.names.length * this.rowSize;
    const rows = new Float64Array(at + this.rowSize);
    rows.set(this.rows);
    this.rows = rows;
    this.names.push(input);
    return at;
  }
}
