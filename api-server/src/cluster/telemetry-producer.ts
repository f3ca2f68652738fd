/**
 * Cluster-mode ingest (`IngestSink`): splits an admitted batch by workload and writes one record
 * per workload to the telemetry topic, key = workload key, on the workload's partition. The
 * promise resolves once Kafka acknowledged every record (acks = all, idempotent; requests of
 * concurrent clients are coalesced, one in flight: serial-producer.ts), so a
 * 2xx means the samples are in Kafka; an error answers 503 and nothing is acknowledged.
 * Backpressure: when more than `maxInFlightRecords` records wait for Kafka, new batches are
 * refused as `busy` (429 / RESOURCE_EXHAUSTED) instead of queueing without bound.
 */
import type { DecodedBatch } from '../model/records.js';
import type { IngestOutcome, IngestSink } from '../pipeline/ingest-sink.js';
import { encodeTelemetry, groupByWorkload, type WorkloadTelemetry } from './telemetry-codec.js';
import { partitionOf } from './workload-partition.js';
import { SerialProducer } from './serial-producer.js';

export interface TelemetryProducerOptions {
  brokers: string[];
  topic: string;
  partitions: number;
  clientId: string;
  maxInFlightRecords?: number;
  /** counts records left out (non-finite numbers) and refused batches */
  dropped(reason: 'invalid' | 'queue_full' | 'unavailable', n: number): void;
  /** counts what Kafka acknowledged, per source (rpt_ingest_samples_total in cluster mode) */
  accepted(source: 'metrics' | 'logs' | 'traces', n: number): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export class TelemetryProducer implements IngestSink {
  private readonly producer: SerialProducer;
  private inFlight = 0;
  private readonly maxInFlight: number;

  constructor(private readonly options: TelemetryProducerOptions) {
    this.maxInFlight = options.maxInFlightRecords ?? 200_000;
    this.producer = new SerialProducer(options.brokers, options.clientId);
  }

  async accept(batch: DecodedBatch): Promise<IngestOutcome> {
    const records = batch.metrics.length + batch.logs.length + batch.spans.length;
    if (records === 0) return 'accepted';
    if (this.inFlight + records > this.maxInFlight) {
      this.options.dropped('queue_full', records);
      return 'busy';
    }
    const { groups, nonFinite } = groupByWorkload(batch);
    if (nonFinite > 0) this.options.dropped('invalid', nonFinite);
    if (groups.size === 0) return 'accepted';
    const messages = [...groups].map(([workload, telemetry]) => ({
      topic: this.options.topic,
      partition: partitionOf(workload, this.options.partitions),
      key: workload,
      value: encodeTelemetry(telemetry),
    }));
    this.inFlight += records;
    try {
      await this.producer.send(messages);
      this.countAccepted(groups.values());
      return 'accepted';
    } catch (error) {
      this.options.dropped('unavailable', records);
      this.options.warn({ err: error, records }, 'telemetry topic refused a batch; the client is told 503 and may retry');
      return 'unavailable';
    } finally {
      this.inFlight -= records;
    }
  }

  /** what went to Kafka (records with non-finite numbers were left out), per source */
  private countAccepted(groups: Iterable<WorkloadTelemetry>): void {
    let metrics = 0;
    let logs = 0;
    let spans = 0;
    for (const g of groups) {
      metrics += g.metrics.length;
      logs += g.logs.length;
      spans += g.spans.length;
    }
    if (metrics > 0) this.options.accepted('metrics', metrics);
    if (logs > 0) this.options.accepted('logs', logs);
    if (spans > 0) this.options.accepted('traces', spans);
  }

  close(): Promise<void> {
    return this.producer.close().catch(() => undefined);
  }
}
