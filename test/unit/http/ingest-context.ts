/**
 * The parts of the service context the HTTP ingest edge uses (ingest-route.ts, otlp-app.ts), built
 * from the real classes: token bucket (with a clock the test moves), self-metrics, memory guard,
 * bearer key. The ingest sink is the one port the test plays: it records every batch and answers
 * the outcome the test sets, so each sink answer's status can be checked by hand.
 */
import { pino } from 'pino';
import type { DecodedBatch } from '../../../api-server/src/model/records.js';
import { BearerKey } from '../../../api-server/src/http/bearer-auth.js';
import type { ServiceContext } from '../../../api-server/src/http/service-context.js';
import type { IngestOutcome, IngestSink } from '../../../api-server/src/pipeline/ingest-sink.js';
import { TokenBucket } from '../../../api-server/src/pipeline/token-bucket.js';
import { MemoryGuard } from '../../../api-server/src/observability/memory-guard.js';
import { SelfMetrics } from '../../../api-server/src/observability/self-metrics.js';

export class RecordingSink implements IngestSink {
  readonly batches: DecodedBatch[] = [];
  outcome: IngestOutcome = 'accepted';
  accept(batch: DecodedBatch): Promise<IngestOutcome> {
    if (this.outcome === 'accepted') this.batches.push(batch);
    return Promise.resolve(this.outcome);
  }
}

export type IngestContext = Pick<ServiceContext, 'bucket' | 'metrics' | 'now' | 'ingest' | 'memoryGuard' | 'logger' | 'auth'>;

export interface IngestFixture {
  svc: IngestContext;
  sink: RecordingSink;
  /** the token bucket's clock in ms; the bucket holds `rps` tokens and refills `rps` a second */
  clock: { ms: number };
  /** the value of rpt_ingest_dropped_total{reason} */
  dropped(reason: string): Promise<number>;
}

/** `nowMs`: the service's wall clock (the decoders' time window is around it). */
export function ingestFixture(options: { rps?: number; key?: string; nowMs?: number } = {}): IngestFixture {
  const clock = { ms: 0 };
  const sink = new RecordingSink();
  const metrics = new SelfMetrics('test');
  const nowMs = options.nowMs ?? Date.now();
  const svc: IngestContext = {
    bucket: new TokenBucket(options.rps ?? 1000, () => clock.ms),
    metrics,
    now: () => nowMs,
    ingest: sink,
    // 900 MiB resident against a 1 GiB limit at 0.85: above the mark, so reason() names real numbers
    memoryGuard: new MemoryGuard({ limit: { bytes: 1024 * 1_048_576, source: 'setting' }, highWater: 0.85, rss: () => 900 * 1_048_576, clock: () => clock.ms }),
    logger: pino({ level: 'silent' }),
    auth: new BearerKey(options.key, false),
  };
  return {
    svc,
    sink,
    clock,
    dropped: async (reason) => {
      const metric = await metrics.registry.getSingleMetric('rpt_ingest_dropped_total')?.get();
      return metric?.values.find((v) => v.labels['reason'] === reason)?.value ?? 0;
    },
  };
}

/** the context as the edge's factories take it (they read only the members above) */
export const asServiceContext = (svc: IngestContext): ServiceContext => svc as ServiceContext;
