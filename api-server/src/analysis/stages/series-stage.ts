/**
 * Stage 6 of the tick, series and anomalies (analytics.md §5.1, §5.6): the derived series (health,
 * stress, fatigue, FusedR) observed by their ensembles and detectors, the confidence of the FusedR
 * ensemble, and the anomaly events of the step's points that fired (not while calibrating,
 * suppressions and the quiet period applied). Pure: no clock, no I/O; ids from the step's factory.
 */
import type { AnomalyEvent, SuppressionInput } from '../contract.js';
import type { Band } from '../bands.js';
import { anomalySeverity, judgedAsLevel } from '../decision/anomaly-gate.js';
import type { SeriesPoint, SeriesSet } from '../series/series-set.js';
import type { PodSignals } from '../signals/pod-signals.js';
import { observeInto } from './log-stage.js';
import type { BandStepResult } from './fusion-stage.js';
import type { StepEnv, StepSink } from './step-env.js';

/**
 * §5.1: the derived series' points (no novelty score: SeriesSet), kept in `points` when they
 * fired; returns the FusedR ensemble's confidence
 */
export function observeDerived(series: SeriesSet, points: SeriesPoint[], values: PodSignals['values'], fusedR: number, x: number, originS: number): number {
  observeInto(series, points, 'health_score', values.health_score, x, originS);
  observeInto(series, points, 'stress', values.stress, x, originS);
  observeInto(series, points, 'fatigue', values.fatigue, x, originS);
  observeInto(series, points, 'fused_rupture_index', fusedR, x, originS);
  const fusedEnsemble = series.ensemble('fused_rupture_index');
  return fusedEnsemble?.confidence() ?? 0;
}

/** §5.6: appends the anomalies of the step's points to sink.anomalies (none while calibrating) */
export function anomaliesOf(key: string, points: readonly SeriesPoint[], tMs: number, bands: Readonly<BandStepResult>, band: Band, env: StepEnv, sink: StepSink): void {
  if (!bands.calibrated) return;
  const out: AnomalyEvent[] = sink.anomalies;
  const quiet = bands.quiet;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (p.firings.length === 0 || !judgedAsLevel(p.series) || (env.suppressions.length > 0 && suppressed(p.series, tMs, env.suppressions))) continue;
    const consensus = !quiet && p.consensus;
    const severity = anomalySeverity(consensus, quiet, band);
    for (let k = 0; k < p.firings.length; k++) {
      const f = p.firings[k]!;
      out.push({
        id: `anm_${env.newHexId()}`,
        workload: key,
        metric: p.series,
        method: f.method,
        severity,
        value: f.value,
        expected: f.expected,
        score: f.score,
        consensus,
        timeMs: tMs,
      });
    }
  }
}

/** an active suppression whose `signals` names the series drops its anomalies (§5.6) */
function suppressed(series: string, tMs: number, suppressions: readonly SuppressionInput[]): boolean {
  for (const s of suppressions) {
    if (s.signals === undefined || tMs < s.startMs || tMs > s.endMs) continue;
    if (s.signals.includes(series)) return true;
  }
  return false;
}
