/**
 * Fingerprints of one workload with the record and match rules of analytics.md §7.3. Pure;
 * JSON-serialisable through exportState()/fromState().
 *
 * Record: FusedR > 3.0 and no fingerprint of the workload captured in the hour before
 * (capturedAtMs > now − 1 h); id `fp-{workload key}-{seq}`, seq counting from 1 per workload.
 * Match: best cosine ≥ 0.85 against every stored fingerprint except those of the current
 * rupture episode (same ruptureId, or captured at/after the episode opened); ties keep the
 * earlier fingerprint.
 *
 * State bound: at most {@link MAX_FINGERPRINTS_PER_WORKLOAD} fingerprints (one per hour at most:
 * about 41 days), oldest evicted.
 */
import { z } from 'zod';
import type { Fingerprint, PatternMatch } from '../contract.js';
import { cosineSimilarity, FINGERPRINT_DIMENSIONS } from './fingerprint-vector.js';

export const FINGERPRINT_RECORD_THRESHOLD = 3.0;
export const FINGERPRINT_MIN_INTERVAL_MS = 3600_000;
export const FINGERPRINT_MATCH_THRESHOLD = 0.85;
export const MAX_FINGERPRINTS_PER_WORKLOAD = 1000;

/** The current rupture episode whose fingerprints a match must not use. */
export interface CurrentEpisode {
  ruptureId: string | null;
  openedAtMs: number | null;
}

const fingerprintSchema = z.object({
  id: z.string(),
  workload: z.string(),
  ruptureId: z.string().nullable(),
  capturedAtMs: z.number(),
  vector: z.array(z.number()).length(FINGERPRINT_DIMENSIONS),
  fusedR: z.number(),
  resolutionNote: z.string().optional(),
});
const storeStateSchema = z.object({
  seq: z.number().int().min(0),
  fingerprints: z.array(fingerprintSchema).max(MAX_FINGERPRINTS_PER_WORKLOAD),
});
/** JSON form of a {@link FingerprintStore}. */
export type FingerprintStoreState = z.infer<typeof storeStateSchema>;

export class FingerprintStore {
  private seq = 0;
  private readonly list: Fingerprint[] = [];

  constructor(readonly workload: string) {}

  /**
   * Records a fingerprint when FusedR > 3.0 and none was captured within the hour before
   * `nowMs`; returns it (a copy), else null. Non-finite FusedR/nowMs or a vector that is not
   * 11 finite numbers records nothing.
   */
  maybeRecord(input: { vector: readonly number[]; fusedR: number; ruptureId: string | null; nowMs: number }): Fingerprint | null {
    const { vector, fusedR, ruptureId, nowMs } = input;
    if (!Number.isFinite(fusedR) || !Number.isFinite(nowMs) || !(fusedR > FINGERPRINT_RECORD_THRESHOLD)) return null;
    if (vector.length !== FINGERPRINT_DIMENSIONS || !vector.every((v) => Number.isFinite(v))) return null;
    for (const f of this.list) if (f.capturedAtMs > nowMs - FINGERPRINT_MIN_INTERVAL_MS && f.capturedAtMs <= nowMs) return null;
    this.seq++;
    const fp: Fingerprint = { id: `fp-${this.workload}-${this.seq}`, workload: this.workload, ruptureId, capturedAtMs: nowMs, vector: vector.map((v) => (v === 0 ? 0 : v)), fusedR };
    this.list.push(fp);
    while (this.list.length > MAX_FINGERPRINTS_PER_WORKLOAD) this.list.shift();
    return copy(fp);
  }

  /**
   * Best match ≥ 0.85 for `vector`, excluding fingerprints of `current` (same non-null ruptureId, or
   * captured at or after a non-null openedAtMs). matchedRuptureId is the fingerprint's ruptureId, or its
   * id when it was captured outside an episode. Similarity is unrounded. Null when nothing matches.
   */
  match(vector: readonly number[], current: CurrentEpisode = { ruptureId: null, openedAtMs: null }): PatternMatch | null {
    let best: Fingerprint | null = null;
    let bestSim = -Infinity;
    for (const f of this.list) {
      if (current.ruptureId !== null && f.ruptureId === current.ruptureId) continue;
      if (current.openedAtMs !== null && Number.isFinite(current.openedAtMs) && f.capturedAtMs >= current.openedAtMs) continue;
      const sim = cosineSimilarity(vector, f.vector);
      if (sim >= FINGERPRINT_MATCH_THRESHOLD && sim > bestSim) {
        best = f;
        bestSim = sim;
      }
    }
    if (best === null) return null;
    const m: PatternMatch = { similarity: bestSim, matchedRuptureId: best.ruptureId ?? best.id, matchedAtMs: best.capturedAtMs };
    if (best.resolutionNote !== undefined) m.resolutionNote = best.resolutionNote;
    return m;
  }

  /** Attaches "what fixed it" to fingerprint `id`, or to every fingerprint of rupture `id`; returns how many changed. */
  setResolutionNote(id: string, note: string): number {
    let n = 0;
    for (const f of this.list) {
      if (f.id === id || f.ruptureId === id) {
        f.resolutionNote = note;
        n++;
      }
    }
    return n;
  }

  /** All fingerprints, oldest first (copies). */
  all(): Fingerprint[] {
    return this.list.map(copy);
  }

  exportState(): FingerprintStoreState {
    return { seq: this.seq, fingerprints: this.all() };
  }

  /** Rebuilds a store from {@link exportState} output; throws a ZodError naming the field when malformed. */
  static fromState(workload: string, state: unknown): FingerprintStore {
    const s = storeStateSchema.parse(state);
    const store = new FingerprintStore(workload);
    store.seq = s.seq;
    for (const f of s.fingerprints) {
      const fp: Fingerprint = { id: f.id, workload: f.workload, ruptureId: f.ruptureId, capturedAtMs: f.capturedAtMs, vector: [...f.vector], fusedR: f.fusedR };
      if (f.resolutionNote !== undefined) fp.resolutionNote = f.resolutionNote;
      store.list.push(fp);
    }
    store.list.sort((a, b) => a.capturedAtMs - b.capturedAtMs);
    return store;
  }
}

function copy(f: Fingerprint): Fingerprint {
  const c: Fingerprint = { ...f, vector: [...f.vector] };
  return c;
}
