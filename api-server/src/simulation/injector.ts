/**
 * Server-side failure injection (POST /sim/inject, analytics.md §10). Each injection first backfills
 * a calm baseline of `baselineMinutes` with past sample timestamps, so the workload is calibrated
 * and its windows are full, then runs its pattern generator every 5 s for the duration. Everything
 * goes through the normal ingest queue (normalisation, bucketing, all three pipelines), so a demo
 * shows the whole path from ingest to action.
 *
 * Besides the metrics of §10 every generator tick emits 10 log lines, error lines in proportion to
 * error_rate and the rest INFO, so the log pipeline and FusedR's second source move with the
 * pattern; cascade-failure with an `origin` also emits spans origin -> workload with the same error
 * rate (the [D] of §10).
 */
import type { DecodedBatch, LogRecord, MetricRecord, SpanRecord } from '../model/records.js';
import type { Noise, PatternSample, SimulationPattern } from './patterns.js';
import { patternSample } from './patterns.js';

export interface InjectionRequest {
  pattern: SimulationPattern;
  workload: string;
  durationMinutes: number;
  origin: string | undefined;
}

export interface Injection extends InjectionRequest {
  id: string;
  startedAtMs: number;
  endsAtMs: number;
}

export interface InjectorOptions {
  /** generator period, 5 s in analytics.md §10 */
  intervalMs: number;
  /** calm history written before the pattern starts */
  baselineMinutes: number;
}

export interface InjectorPorts {
  /** hands a batch to the ingest queue; false when the queue is full (the tick is skipped) */
  enqueue(batch: DecodedBatch): boolean;
  now(): number;
  newId(): string;
  noise: Noise;
}

const LOG_LINES_PER_TICK = 10;
const SPANS_PER_TICK = 10;
const BASELINE_STEP_MS = 5_000;

export class SimulationInjector {
  private readonly running = new Map<string, { injection: Injection; timer: NodeJS.Timeout }>();

  constructor(
    private readonly ports: InjectorPorts,
    private readonly options: InjectorOptions,
  ) {}

  start(request: InjectionRequest): Injection {
    const startedAtMs = this.ports.now();
    const injection: Injection = {
      ...request,
      id: this.ports.newId(),
      startedAtMs,
      endsAtMs: startedAtMs + request.durationMinutes * 60_000,
    };
    this.backfillBaseline(injection);
    let k = 0;
    this.emit(injection, k, this.ports.now());
    const timer = setInterval(() => {
      const now = this.ports.now();
      if (now >= injection.endsAtMs) {
        this.stop(injection.id);
        return;
      }
      k += 1;
      this.emit(injection, k, now);
    }, this.options.intervalMs);
    timer.unref();
    this.running.set(injection.id, { injection, timer });
    return injection;
  }

  list(): Injection[] {
    return [...this.running.values()].map((r) => r.injection);
  }

  stop(id: string): void {
    const entry = this.running.get(id);
    if (entry === undefined) return;
    clearInterval(entry.timer);
    this.running.delete(id);
  }

  stopAll(): void {
    for (const id of [...this.running.keys()]) this.stop(id);
  }

  /** The pattern's calm start (k = 0) with its noise, every 5 s over the baseline, ending just before now. */
  private backfillBaseline(injection: Injection): void {
    const steps = Math.floor((this.options.baselineMinutes * 60_000) / BASELINE_STEP_MS);
    for (let i = steps; i >= 1; i -= 1) {
      this.emit(injection, 0, injection.startedAtMs - i * BASELINE_STEP_MS);
    }
  }

  private emit(injection: Injection, k: number, timeMs: number): void {
    const sample = patternSample(injection.pattern, k, this.ports.noise);
    const batch: DecodedBatch = {
      metrics: metricsOf(injection.workload, sample, timeMs),
      logs: logsOf(injection.workload, sample, timeMs),
      spans: injection.pattern === 'cascade-failure' && injection.origin !== undefined ? spansOf(injection, sample, timeMs, k) : [],
      rejected: 0,
    };
    this.ports.enqueue(batch);
  }
}

function metricsOf(workload: string, sample: PatternSample, timeMs: number): MetricRecord[] {
  return (Object.keys(sample) as (keyof PatternSample)[]).map((name) => ({ workload, pod: undefined, name, value: sample[name], timeMs }));
}

function logsOf(workload: string, sample: PatternSample, timeMs: number): LogRecord[] {
  const errors = Math.round(LOG_LINES_PER_TICK * sample.error_rate);
  const logs: LogRecord[] = [];
  for (let i = 0; i < LOG_LINES_PER_TICK; i += 1) {
    const error = i < errors;
    logs.push({
      workload,
      pod: undefined,
      timeMs,
      severityNumber: error ? 17 : 9,
      severityText: error ? 'ERROR' : 'INFO',
      body: error ? 'simulated request failed' : 'simulated request served',
    });
  }
  return logs;
}

function spansOf(injection: Injection, sample: PatternSample, timeMs: number, k: number): SpanRecord[] {
  const origin = injection.origin ?? '';
  const errors = Math.round(SPANS_PER_TICK * sample.error_rate);
  const spans: SpanRecord[] = [];
  for (let i = 0; i < SPANS_PER_TICK; i += 1) {
    const traceId = hex(k * SPANS_PER_TICK + i, 32);
    const parentSpanId = hex(2 * (k * SPANS_PER_TICK + i) + 1, 16);
    const spanId = hex(2 * (k * SPANS_PER_TICK + i) + 2, 16);
    const durationMs = 20 + 400 * sample.error_rate;
    spans.push({ workload: origin, service: origin, traceId, spanId: parentSpanId, parentSpanId: '', name: 'call', kind: 3, startMs: timeMs, endMs: timeMs + durationMs + 5, statusCode: 0 });
    spans.push({
      workload: injection.workload,
      service: injection.workload,
      traceId,
      spanId,
      parentSpanId,
      name: 'serve',
      kind: 2,
      startMs: timeMs,
      endMs: timeMs + durationMs,
      statusCode: i < errors ? 2 : 1,
    });
  }
  return spans;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
