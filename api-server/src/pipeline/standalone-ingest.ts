/**
 * The standalone service's ingest sink: the local pipeline (which refuses a full queue and an
 * analysis backlog at its bound) behind the memory high-water guard (admission-sink.ts), whose
 * refusals are counted (rpt_workloads_refused_total, rpt_ingest_dropped_total{reason=
 * "memory_high_water"}) and logged at most once per 10 s however many requests are refused.
 */
import type { MemoryGuard } from '../observability/memory-guard.js';
import type { SelfMetrics } from '../observability/self-metrics.js';
import { AdmissionSink } from './admission-sink.js';
import type { IngestPipeline } from './ingest-pipeline.js';
import { LocalIngestSink, type IngestSink } from './ingest-sink.js';

export interface StandaloneIngestPorts {
  pipeline: IngestPipeline;
  /** true when the analysis already holds this workload */
  known(workload: string): boolean;
  guard: MemoryGuard;
  metrics: Pick<SelfMetrics, 'workloadsRefusedCount' | 'droppedRecords'>;
  logger: { warn(fields: Record<string, unknown>, message: string): void };
}

const REFUSAL_LOG_EVERY_MS = 10_000;

export function standaloneIngest(ports: StandaloneIngestPorts): IngestSink {
  const { guard, metrics, logger } = ports;
  let loggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return new AdmissionSink(new LocalIngestSink(ports.pipeline), guard, {
    known: ports.known,
    refused: ({ workloads, records }) => {
      guard.countRefused(workloads.length);
      metrics.workloadsRefusedCount(workloads.length);
      metrics.droppedRecords('memory_high_water', records);
      unlogged += workloads.length;
      const at = performance.now();
      if (at - loggedAt >= REFUSAL_LOG_EVERY_MS) {
        logger.warn({ refused_workloads: unlogged, example: workloads[0], records, memory: guard.status() }, `new workloads refused: ${guard.reason()}`);
        loggedAt = at;
        unlogged = 0;
      }
    },
  });
}
