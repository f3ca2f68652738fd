/**
 * Prometheus self-metrics (interface "Self-metric series", exact names and labels) plus the
 * process metrics of prom-client and the series this service adds:
 * `rpt_ingest_dropped_total{reason}` (records refused: too_old, in_future, invalid, queue_full, analysis_backlog,
 * rate_limited, unparsable, memory_high_water; samples the analysis refused: late, overflow),
 * `rpt_ingest_queue_records` (records waiting for the analyzer), `rpt_workloads_refused_total`
 * (new workloads refused above the memory high-water mark, observability/memory-guard.ts), and
 * per outbound channel (`bus:nats`, `bus:kafka`, `sink:webhook:<name>`, `sink:alertmanager`,
 * `sink:pagerduty`): `rpt_outbound_backlog{channel}`, `rpt_outbound_delivered_total{channel}`,
 * `rpt_outbound_failures_total{channel}`, `rpt_outbound_dropped_total{channel,reason}` (reason
 * `overflow`: more than the backlog bound behind; `rejected`: a 4xx from a sink).
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { WorkloadSnapshot } from '../analysis/contract.js';
import { RuptureGauges } from './rupture-gauges.js';
import { WorkloadGauges } from './workload-gauges.js';

export class SelfMetrics {
  readonly registry = new Registry();
  /** svc_kpi and rpt_kpi_{healthscore,stress,fatigue}: one row per workload (workload-gauges.ts) */
  private readonly workloadGauges = new WorkloadGauges();
  /** rpt_rupture_index and rpt_time_to_failure_seconds: one row per host and primary metric (rupture-gauges.ts) */
  private readonly ruptureGauges = new RuptureGauges();
  private readonly actions: Counter;
  private readonly ingested: Counter;
  private readonly replayed: Counter;
  private readonly dropped: Counter;
  private readonly queue: Gauge;
  private readonly workloadsRefused: Counter;
  private readonly heapCollections: Counter;
  private readonly heapCollectionSeconds: Counter;
  private readonly startedAt = Date.now();
  private readonly outboundDelivered: Counter;
  private readonly outboundFailures: Counter;
  private readonly outboundDropped: Counter;
  private backlogs: () => { channel: string; backlog: number }[] = () => [];

  constructor(version: string) {
    const r = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.workloadGauges.registerKpi(this.registry);
    this.ruptureGauges.register(this.registry);
    this.workloadGauges.registerHostGauges(this.registry);
    this.actions = new Counter({ name: 'rpt_actions_total', help: 'action engine outcomes', labelNames: ['type', 'tier', 'outcome'], registers: r });
    this.ingested = new Counter({ name: 'rpt_ingest_samples_total', help: 'accepted metric points, log records and spans', labelNames: ['source'], registers: r });
    this.replayed = new Counter({ name: 'rpt_cluster_replayed_samples_total', help: 'cluster mode: samples read again from the telemetry topic after a partition moved (not in rpt_ingest_samples_total)', labelNames: ['source'], registers: r });
    this.dropped = new Counter({ name: 'rpt_ingest_dropped_total', help: 'ingest records or requests refused, by reason', labelNames: ['reason'], registers: r });
    this.workloadsRefused = new Counter({ name: 'rpt_workloads_refused_total', help: 'new workloads refused above the memory high-water mark (one per workload per refused request)', registers: r });
    this.heapCollections = new Counter({ name: 'rpt_heap_collections_total', help: "full collections of V8's heap asked for after a tick (engine/heap-trim.ts), by reason (caught_up, growth)", labelNames: ['reason'], registers: r });
    this.heapCollectionSeconds = new Counter({ name: 'rpt_heap_collection_seconds_total', help: 'main-thread pause of those collections, seconds, by reason', labelNames: ['reason'], registers: r });
    for (const reason of ['caught_up', 'growth']) {
      this.heapCollections.inc({ reason }, 0);
      this.heapCollectionSeconds.inc({ reason }, 0);
    }
    this.queue = new Gauge({ name: 'rpt_ingest_queue_records', help: 'records waiting for the analyzer', registers: r });
    new Gauge({ name: 'rpt_memory_bytes', help: 'resident set size of the process', registers: r, collect() { this.set(process.memoryUsage().rss); } });
    const startedAt = this.startedAt;
    new Gauge({ name: 'rpt_uptime_seconds', help: 'seconds since start', registers: r, collect() { this.set(Math.floor((Date.now() - startedAt) / 1000)); } });
    new Gauge({ name: 'rpt_version_info', help: 'server version', labelNames: ['version'], registers: r }).set({ version }, 1);
    for (const source of ['metrics', 'logs', 'traces']) this.ingested.inc({ source }, 0);
    this.outboundDelivered = new Counter({ name: 'rpt_outbound_delivered_total', help: 'envelopes delivered per outbound channel (bus driver or sink)', labelNames: ['channel'], registers: r });
    this.outboundFailures = new Counter({ name: 'rpt_outbound_failures_total', help: 'failed delivery attempts per outbound channel (each is retried)', labelNames: ['channel'], registers: r });
    this.outboundDropped = new Counter({ name: 'rpt_outbound_dropped_total', help: 'envelopes an outbound channel will never deliver, by reason (overflow, rejected)', labelNames: ['channel', 'reason'], registers: r });
    const backlogs = (): { channel: string; backlog: number }[] => this.backlogs();
    new Gauge({
      name: 'rpt_outbound_backlog',
      help: 'envelopes stored and not yet delivered per outbound channel',
      labelNames: ['channel'],
      registers: r,
      collect() {
        this.reset();
        for (const b of backlogs()) this.set({ channel: b.channel }, b.backlog);
      },
    });
  }

  /** Where the backlog gauge reads its values at scrape time. */
  outboundBacklogs(read: () => { channel: string; backlog: number }[]): void {
    this.backlogs = read;
  }

  outboundDeliveredCount(channel: string, n: number): void {
    this.outboundDelivered.inc({ channel }, n);
  }

  outboundFailure(channel: string): void {
    this.outboundFailures.inc({ channel });
  }

  outboundDroppedCount(channel: string, reason: 'overflow' | 'rejected', n: number): void {
    this.outboundDropped.inc({ channel, reason }, n);
  }

  accepted(source: 'metrics' | 'logs' | 'traces', n: number): void {
    this.ingested.inc({ source }, n);
  }

  clusterReplayed(source: 'metrics' | 'logs' | 'traces', n: number): void {
    this.replayed.inc({ source }, n);
  }

  droppedRecords(reason: string, n: number): void {
    this.dropped.inc({ reason }, n);
  }

  workloadsRefusedCount(n: number): void {
    this.workloadsRefused.inc(n);
  }

  /** a full collection of V8's heap asked for after a tick, and its pause */
  heapCollected(reason: 'caught_up' | 'growth', pauseSeconds: number): void {
    this.heapCollections.inc({ reason });
    this.heapCollectionSeconds.inc({ reason }, pauseSeconds);
  }

  queueSize(n: number): void {
    this.queue.set(n);
  }

  action(type: string, tier: number, outcome: string): void {
    this.actions.inc({ type, tier: String(tier), outcome });
  }

  snapshot(s: WorkloadSnapshot, ttfSeconds: number | undefined): void {
    this.workloadGauges.set(s);
    this.ruptureGauges.set(s, ttfSeconds);
  }
}
