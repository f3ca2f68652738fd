/**
 * Where decoded telemetry goes once a transport admitted it. Standalone: the local pipeline
 * (synchronous, refuses when its queue is full). Cluster mode: the Kafka telemetry topic
 * (answers once Kafka acknowledged). Every transport (HTTP routes, gRPC, StatsD, the simulation
 * injector) hands its batches to one sink and answers its client from the outcome:
 * `accepted` → 2xx / OK; `busy` → 429 / RESOURCE_EXHAUSTED; `unavailable` → 503 / UNAVAILABLE;
 * `analysis_backlog` (the analysis is too far behind: ingest-pipeline.ts) → 429 / RESOURCE_EXHAUSTED;
 * `memory_high_water` (admission-sink.ts: the known workloads' records were taken, the new ones'
 * refused) → 429 / RESOURCE_EXHAUSTED.
 */
import type { DecodedBatch } from '../model/records.js';
import type { IngestPipeline } from './ingest-pipeline.js';

export type IngestOutcome = 'accepted' | 'busy' | 'unavailable' | 'memory_high_water' | 'analysis_backlog';

export interface IngestSink {
  accept(batch: DecodedBatch): Promise<IngestOutcome>;
}

const ACCEPTED: Promise<IngestOutcome> = Promise.resolve('accepted');
const BUSY: Promise<IngestOutcome> = Promise.resolve('busy');
const BEHIND: Promise<IngestOutcome> = Promise.resolve('analysis_backlog');

/** The standalone sink: the local pipeline (its refusals are counted in rpt_ingest_dropped_total by the pipeline). */
export class LocalIngestSink implements IngestSink {
  constructor(private readonly pipeline: IngestPipeline) {}

  accept(batch: DecodedBatch): Promise<IngestOutcome> {
    if (this.pipeline.behind(batch)) return BEHIND;
    return this.pipeline.offer(batch) ? ACCEPTED : BUSY;
  }
}
