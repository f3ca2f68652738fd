/**
 * Scores a seed's run: per workload (a plain object others may add fields to) and the summary
 * metrics the issue lists. The band at any time is the last band event's; an escalation is an
 * event whose band ranks above the band before it.
 */
import type { BandEventRow, Checkpoint } from './collect.js';
import type { SeedRun } from './run-eval.js';
import { BUCKET_MS, BUCKETS_PER_DAY } from './workload-model.js';

const RANK: Record<BandEventRow['type'], number> = { recovered: 0, warning: 1, critical: 2, emergency: 3 };

export interface WorkloadResult {
  seed: number;
  name: string;
  behaviour: string;
  kind: 'healthy' | 'failing' | 'nab';
  days: number;
  bandEvents: number;
  escalationsWarning: number;
  escalationsCritical: number;
  criticalAnomalies: number;
  criticalAnomaliesByMetric: Record<string, number>;
  actions: number;
  /** every band event of the workload: type, FusedR and hours after the run's start */
  events?: { type: string; fusedR: number; hours: number }[];
  /** failing workloads only */
  failure?: FailureResult;
  /** NAB replays only */
  nab?: NabResult;
  [extra: string]: unknown;
}

export interface FailureResult {
  onsetMs: number;
  failureMs: number;
  slow: boolean;
  detected: boolean;
  leadMinutes: number | null;
  bandChangesInEpisode: number;
  escalationsBeforeOnset: number;
  /** the band events after onset: type and minutes after onset */
  episodeEvents: { type: BandEventRow['type']; minutesAfterOnset: number }[];
  checkpoints: Checkpoint[];
  [extra: string]: unknown;
}

export interface NabResult {
  points: number;
  windows: number;
  windowsCaught: number;
  escalationsOutsideWindows: number;
}

export function scoreRun(run: SeedRun): WorkloadResult[] {
  const byWorkload = new Map<string, BandEventRow[]>();
  for (const e of run.collector.events) {
    const list = byWorkload.get(e.workload) ?? [];
    list.push(e);
    byWorkload.set(e.workload, list);
  }
  const at = (bucket: number): number => run.startMs + bucket * BUCKET_MS;
  return run.specs.map((s) => {
    const events = byWorkload.get(s.name) ?? [];
    let prev = 0;
    const escalations: { timeMs: number; rank: number; from: number }[] = [];
    for (const e of events) {
      const r = RANK[e.type];
      if (r > prev) escalations.push({ timeMs: e.timeMs, rank: r, from: prev });
      prev = r;
    }
    const anomalies = run.collector.criticalAnomalies.get(s.name) ?? new Map<string, number>();
    const result: WorkloadResult = {
      seed: run.seed,
      name: s.name,
      behaviour: s.behaviour,
      kind: s.kind,
      days: (s.endBucket - s.startBucket) / BUCKETS_PER_DAY,
      bandEvents: events.length,
      escalationsWarning: escalations.filter((x) => x.rank >= 1 && x.from < 1).length,
      escalationsCritical: escalations.filter((x) => x.rank >= 2 && x.from < 2).length,
      criticalAnomalies: [...anomalies.values()].reduce((a, b) => a + b, 0),
      criticalAnomaliesByMetric: Object.fromEntries(anomalies),
      actions: [...run.collector.actions.values()].filter((a) => a.workload === s.name).length,
      events: events.map((e) => ({ type: e.type, fusedR: Math.round(e.fusedR * 100) / 100, hours: Math.round((e.timeMs - run.startMs) / 36_000) / 100 })),
    };
    if (s.failure !== null) {
      const onsetMs = at(s.failure.onsetBucket);
      const failureMs = at(s.failure.failureBucket + 1);
      // the band at onset, then every event up to the failure point
      let band = 0;
      let firstCritical: number | null = null;
      for (const e of events) {
        if (e.timeMs <= onsetMs) band = RANK[e.type];
        else if (e.timeMs <= failureMs && RANK[e.type] >= 2 && firstCritical === null) firstCritical = e.timeMs;
      }
      if (band >= 2) firstCritical = onsetMs;
      result.failure = {
        onsetMs,
        failureMs,
        slow: s.failure.slow,
        detected: firstCritical !== null,
        leadMinutes: firstCritical === null ? null : (failureMs - firstCritical) / 60_000,
        bandChangesInEpisode: events.filter((e) => e.timeMs > onsetMs).length,
        escalationsBeforeOnset: escalations.filter((x) => x.timeMs <= onsetMs && x.from < 1).length,
        episodeEvents: events.filter((e) => e.timeMs > onsetMs).map((e) => ({ type: e.type, minutesAfterOnset: (e.timeMs - onsetMs) / 60_000 })),
        checkpoints: run.checkpoints.get(s.name) ?? [],
      };
    }
    if (s.kind === 'nab') {
      const windows = s.windows.map(([a, b]) => [at(a), at(b + 1)] as const);
      const inWindow = (t: number): boolean => windows.some(([a, b]) => t >= a && t <= b);
      let caught = 0;
      for (const [a, b] of windows) {
        let band = 0;
        let hit = false;
        for (const e of events) {
          if (e.timeMs <= a) band = RANK[e.type];
          else if (e.timeMs <= b && RANK[e.type] >= 2) hit = true;
        }
        if (hit || band >= 2) caught += 1;
      }
      result.nab = {
        points: s.endBucket - s.startBucket,
        windows: windows.length,
        windowsCaught: caught,
        escalationsOutsideWindows: escalations.filter((x) => x.from < 1 && !inWindow(x.timeMs)).length,
      };
    }
    return result;
  });
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export interface Summary {
  healthy_workload_days: number;
  false_escalations_warning_per_workload_day: number;
  false_escalations_critical_per_workload_day: number;
  critical_anomalies_per_healthy_workload_day: number;
  actions_on_healthy_workloads: number;
  failures: number;
  failures_detected: number;
  median_lead_minutes_slow: number | null;
  max_band_changes_per_failure_episode: number;
  nab_windows: number;
  nab_windows_caught_critical: number;
  nab_escalations_outside_windows_per_1000_points: number;
}

export function summarise(results: readonly WorkloadResult[]): Summary {
  const healthy = results.filter((r) => r.kind === 'healthy');
  const days = healthy.reduce((a, r) => a + r.days, 0);
  const per = (n: number): number => (days === 0 ? 0 : round(n / days));
  const failing = results.filter((r) => r.failure !== undefined);
  const nab = results.filter((r) => r.nab !== undefined);
  const nabPoints = nab.reduce((a, r) => a + r.nab!.points, 0);
  const leads = failing.filter((r) => r.failure!.slow).map((r) => r.failure!.leadMinutes ?? 0);
  return {
    healthy_workload_days: round(days),
    false_escalations_warning_per_workload_day: per(healthy.reduce((a, r) => a + r.escalationsWarning, 0)),
    false_escalations_critical_per_workload_day: per(healthy.reduce((a, r) => a + r.escalationsCritical, 0)),
    critical_anomalies_per_healthy_workload_day: per(healthy.reduce((a, r) => a + r.criticalAnomalies, 0)),
    actions_on_healthy_workloads: healthy.reduce((a, r) => a + r.actions, 0),
    failures: failing.length,
    failures_detected: failing.filter((r) => r.failure!.detected).length,
    median_lead_minutes_slow: median(leads),
    max_band_changes_per_failure_episode: Math.max(0, ...failing.map((r) => r.failure!.bandChangesInEpisode)),
    nab_windows: nab.reduce((a, r) => a + r.nab!.windows, 0),
    nab_windows_caught_critical: nab.reduce((a, r) => a + r.nab!.windowsCaught, 0),
    nab_escalations_outside_windows_per_1000_points: nabPoints === 0 ? 0 : round((1000 * nab.reduce((a, r) => a + r.nab!.escalationsOutsideWindows, 0)) / nabPoints),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
