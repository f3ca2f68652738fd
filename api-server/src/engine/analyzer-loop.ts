/**
 * The analyzer and action-engine cycle (every SVC_TICK_SECONDS): hand the waiting telemetry to the
 * analysis, run the steps, write the tick's batch to LevelDB, publish band events, let the action
 * engine recommend and execute, update self-metrics, write the analysis state of the workloads
 * whose checkpoint is due (state-checkpoints.ts). Ticks never overlap; a tick that throws is
 * logged and the next one runs.
 */
import type { AnalysisCore, BandEvent, StepOutput, WorkloadSnapshot } from '../analysis/contract.js';
import type { ActionEngine } from '../actions/action-engine.js';
import type { IngestPipeline } from '../pipeline/ingest-pipeline.js';
import type { AnalysisStore, KpiPoint } from '../storage/analysis-store.js';
import type { SelfMetrics } from '../observability/self-metrics.js';
import { KpiRollup } from './kpi-rollup.js';
import { StateCheckpoints } from './state-checkpoints.js';
import { TimeSlicer, type Pause, type SliceLengths } from './time-slicer.js';
import type { HeapTrim } from './heap-trim.js';

export interface LoopLogger {
  info(fields: Record<string, unknown>, message: string): void;
  debug?(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface AnalyzerLoopOptions {
  tickMs: number;
  /**
   * a workload's exported analysis state is written at least every this many ticks while it steps
   * (each tick writes the workloads whose turn it is: state-checkpoints.ts), when it is first seen
   * and at shutdown
   */
  stateEveryTicks: number;
  now: () => number;
  /**
   * Run the step and build its LevelDB batch in slices of these lengths, serving the requests that
   * wait between two slices (time-slicer.ts); undefined: the whole tick at once.
   */
  slices?: SliceLengths;
  /** full collections of V8's heap between ticks, once a tick's writes are done (heap-trim.ts); undefined: none */
  heapTrim?: HeapTrim;
}

/**
 * The slices of a standalone service's tick (AnalyzerLoopOptions.slices): 10 ms when nothing
 * else waits; while ingest requests come in, 1 ms followed by 3 ms left to them (the analysis
 * takes at most a quarter of the wall clock); while they stream at 50 000 records a second or
 * more (a backfill or a burst; a live fleet of 10 000 workloads × 6 metrics sends about 4 000 a
 * second), 1 ms followed by 9 ms (at most a tenth). The step still advances every slice, and takes
 * the whole loop once the stream stops (docs/ingest-performance.md).
 */
export const TICK_SLICES: SliceLengths = { idleMs: 10, busyMs: 1, busyGapMs: 3, streamRecordsPerSecond: 50_000, streamGapMs: 9 };

/** workload-buckets the step runs between two looks at the clock (one run takes ~0.05-0.2 ms) */
const BUCKETS_PER_CLOCK_CHECK = 8;

/** Where the tick's band events go once the tick is stored (outbox, SSE stream, bus, sinks). */
export interface BandEventSink {
  bandEvents(bands: readonly BandEvent[]): Promise<void>;
}

/** Something that wants every tick's output after it is stored (tests, benchmarks). */
export type StepListener = (output: StepOutput) => void;

export class AnalyzerLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private ticks = 0;
  private readonly rollup = new KpiRollup();
  private readonly checkpoints: StateCheckpoints;
  private readonly listeners: StepListener[] = [];
  /** the analysis' refusals already counted in rpt_ingest_dropped_total */
  private readonly reportedRefusals = { late: 0, overflow: 0 };

  constructor(
    private readonly core: AnalysisCore,
    private readonly pipeline: IngestPipeline,
    private readonly store: AnalysisStore,
    private readonly events: BandEventSink,
    private readonly actions: ActionEngine,
    private readonly metrics: SelfMetrics,
    private readonly logger: LoopLogger,
    private readonly options: AnalyzerLoopOptions,
  ) {
    this.checkpoints = new StateCheckpoints(options.stateEveryTicks);
  }

  onStep(listener: StepListener): void {
    this.listeners.push(listener);
  }

  /** Starts ticking; the workloads the analysis holds by now (restored from LevelDB) count as stored. */
  start(): void {
    this.checkpoints.stored(this.core.workloadKeys());
    this.timer = setInterval(() => void this.tick(), this.options.tickMs);
  }

  /** Runs one tick now (or waits for the one in progress). */
  tick(): Promise<void> {
    if (this.running !== undefined) return this.running;
    this.running = this.runTick().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the timer, finishes the tick in progress, runs a last one and writes every workload's state. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.running) await this.running;
    await this.tick();
    await this.flushState(this.checkpoints.takeAll());
  }

  private async runTick(): Promise<void> {
    const now = this.options.now();
    let stateDue: string[] = [];
    let pause: Pause | undefined;
    let stepped = { buckets: 0, workloads: 0 };
    try {
      this.pipeline.drain();
      this.metrics.queueSize(this.pipeline.waiting);
      const slices = this.options.slices;
      const slicer = slices === undefined ? undefined : new TimeSlicer(slices, () => this.pipeline);
      pause = slicer?.pause;
      const output = await this.step(now, slicer);
      this.reportRefusals();
      this.ticks += 1;
      // a backfilled workload steps many buckets in one tick: only its latest snapshot (and state) is stored
      const snapshots = latestPerWorkload(output.snapshots);
      stepped = { buckets: output.buckets, workloads: snapshots.length };
      stateDue = this.checkpoints.due(this.ticks, snapshots.map((s) => s.key));
      const history = output.snapshots.flatMap((s) => this.rollup.add(s.key, kpiPoint(s)));
      await this.store.writeTick(
        {
          snapshots,
          history,
          anomalies: output.anomalies,
          ruptures: output.ruptures,
          fingerprints: output.fingerprints,
          rawPoints: this.pipeline.rawPoints.take(),
        },
        slicer?.pause,
      );
      await this.events.bandEvents(output.bandEvents);
      const ttf = new Map(output.ruptures.map((r) => [r.workload, r.ttfSeconds]));
      for (const s of output.snapshots) this.metrics.snapshot(s, ttf.get(s.key));
      const explain = new Map(output.ruptures.map((r) => [r.ruptureId, r]));
      await this.actions.considerStep(output.snapshots, (id) => explain.get(id) ?? this.core.explain(id), now);
      await this.actions.runCycle(now, (key) => this.core.snapshot(key)?.confidence ?? 0);
      for (const listener of this.listeners) listener(output);
    } catch (error) {
      this.logger.error({ err: error }, 'analyzer tick failed');
    }
    // last, so that the band events and actions do not wait for it; also when the rest failed
    try {
      await this.writeStates(stateDue, pause);
    } catch (error) {
      this.logger.error({ err: error, workloads: stateDue.length }, 'writing the analysis state of the tick failed');
    }
    const trimmed = this.options.heapTrim?.afterTick(stepped.buckets, stepped.workloads);
    if (trimmed !== undefined) {
      const mb = (b: number): number => Math.round(b / 1_048_576);
      const fields = { reason: trimmed.reason, heap_used_before_mb: mb(trimmed.beforeBytes), heap_used_after_mb: mb(trimmed.afterBytes), pause_ms: Math.round(trimmed.pauseMs), buckets_per_workload: +trimmed.bucketsPerWorkload.toFixed(1), workloads: stepped.workloads };
      this.metrics.heapCollected(trimmed.reason, trimmed.pauseMs / 1000);
      // the end of a catch-up is rare and worth a line; the heap's growth may call for one every few ticks
      if (trimmed.reason === 'caught_up') this.logger.info(fields, "collected V8's heap after the tick");
      else this.logger.debug?.(fields, "collected V8's heap after the tick");
    }
  }

  /** the analysis step: at once, or in time slices with the event loop served between them */
  private async step(now: number, slicer: TimeSlicer | undefined): Promise<StepOutput> {
    if (slicer === undefined || this.core.beginStep === undefined) return this.core.step(now);
    const run = this.core.beginStep(now);
    slicer.restart();
    while (!run.advance(BUCKETS_PER_CLOCK_CHECK)) {
      const wait = slicer.pause();
      if (wait !== undefined) await wait;
    }
    return run.output();
  }

  /**
   * Samples the analysis refused since the last tick, as rpt_ingest_dropped_total: `late` (for a
   * bucket already analysed; in cluster mode this can include samples of a record a new owner
   * reads again whose buckets its restored state has) and `overflow` (beyond the open-bucket bound
   * of a workload).
   */
  private reportRefusals(): void {
    const stats = this.core.ingestStats?.();
    if (stats === undefined) return;
    const reported = this.reportedRefusals;
    if (stats.lateSamples > reported.late) this.metrics.droppedRecords('late', stats.lateSamples - reported.late);
    if (stats.overflowSamples > reported.overflow) this.metrics.droppedRecords('overflow', stats.overflowSamples - reported.overflow);
    reported.late = stats.lateSamples;
    reported.overflow = stats.overflowSamples;
  }

  /** the exported state of `keys`, one at a time in bounded batches; a workload the analysis no longer holds is forgotten */
  private async writeStates(keys: readonly string[], pause?: Pause): Promise<void> {
    const gone = await this.store.writeStates(keys, (key) => this.core.exportWorkload(key), pause);
    for (const key of gone) this.checkpoints.forget(key);
  }

  private async flushState(keys: string[]): Promise<void> {
    const snapshots = keys.map((key) => this.core.snapshot(key)).filter((s): s is WorkloadSnapshot => s !== undefined);
    await this.store.writeTick({ snapshots, history: [], anomalies: [], ruptures: [], fingerprints: [], rawPoints: this.pipeline.rawPoints.take(true) });
    await this.writeStates(snapshots.map((s) => s.key));
  }
}

function kpiPoint(s: WorkloadSnapshot): KpiPoint {
  const v = s.signals;
  return {
    t: s.timeMs,
    fused_r: s.fusedR,
    health: v.health_score.value,
    stress: v.stress.value,
    fatigue: v.fatigue.value,
    mood: v.mood.value,
    pressure: v.pressure.value,
    humidity: v.humidity.value,
    contagion: v.contagion.value,
    resilience: v.resilience.value,
    entropy: v.entropy.value,
    velocity: v.velocity.value,
  };
}

/**
 * The last snapshot of each workload in `snapshots` (a step's output, in bucket order), in the
 * order of their first appearance. Storing only these gives the store what storing all of them in
 * order would (the later put of a key wins), without one JSON snapshot and exported state per
 * bucket of a workload that caught up on hours of backfill in one tick.
 */
export function latestPerWorkload(snapshots: readonly WorkloadSnapshot[]): WorkloadSnapshot[] {
  const latest = new Map<string, WorkloadSnapshot>();
  for (const s of snapshots) latest.set(s.key, s);
  return [...latest.values()];
}
