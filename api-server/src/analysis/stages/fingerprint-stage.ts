/**
 * Stage 8 of the tick, fingerprints (analytics.md §7.3): a calibrated step at FusedR > 3 records
 * the workload's signal vector; once one is recorded every step matches against them. Created at
 * the first step that needs the vector. Pure: no clock, no I/O.
 */
import type { Fingerprint, PatternMatch } from '../contract.js';
import { FingerprintStore } from '../fingerprint/fingerprint-store.js';
import { fingerprintVector } from '../fingerprint/fingerprint-vector.js';
import type { RuptureEpisodeTracker } from '../episodes/rupture-episode.js';
import type { PodSignals } from '../signals/pod-signals.js';

export class FingerprintStage {
  /** fingerprints the store holds (recorded or restored) */
  private count = 0;

  private constructor(private readonly store: FingerprintStore) {}

  /** a stage for a workload that needs none yet */
  static empty(key: string): FingerprintStage {
    return new FingerprintStage(new FingerprintStore(key));
  }

  /** the restored stage, null when the saved store never recorded one */
  static fromState(key: string, state: unknown): FingerprintStage | null {
    const store = FingerprintStore.fromState(key, state);
    const s = store.exportState();
    const stage = new FingerprintStage(store);
    stage.count = s.fingerprints.length;
    return s.seq > 0 || stage.count > 0 ? stage : null;
  }

  /** whether a step at `fusedR` needs the vector: to record (FusedR > 3) or to match (one exists) */
  static wanted(stage: FingerprintStage | null, calibrated: boolean, fusedR: number): boolean {
    return calibrated && (fusedR > 3 || (stage !== null && stage.count > 0));
  }

  /** records the step's vector when due (the new fingerprint appended to `out`); the step's pattern match */
  step(pod: PodSignals, fusedR: number, ruptureId: string | null, episodes: RuptureEpisodeTracker, tStep: number, out: Fingerprint[]): PatternMatch | null {
    const vector = fingerprintVector({ ...pod.values, throughputDrop: pod.throughputDrop, fusedR });
    const fingerprint = this.store.maybeRecord({ vector, fusedR, ruptureId, nowMs: tStep });
    if (fingerprint !== null) {
      this.count += 1;
      out.push(fingerprint);
    }
    return this.store.match(vector, { ruptureId: episodes.currentRuptureId(), openedAtMs: episodes.currentOpenedAtMs() });
  }

  exportState(): ReturnType<FingerprintStore['exportState']> {
    return this.store.exportState();
  }
}
