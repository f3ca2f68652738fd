/**
 * The HTTP answer to an ingest sink's outcome (pipeline/ingest-sink.ts), one place for both HTTP
 * listeners (the contract's ingest routes and the standard OTLP/HTTP listener): undefined when the
 * batch was accepted, else the error to throw.
 */
import type { AnalysisCore } from '../../analysis/contract.js';
import type { Settings } from '../../config/settings.js';
import { analysisBacklog, ingestUnavailable, memoryHighWater, queueFull, type HttpError } from '../../model/http-errors.js';
import type { MemoryGuard } from '../../observability/memory-guard.js';
import type { IngestOutcome } from '../../pipeline/ingest-sink.js';

export interface IngestRefusalPorts {
  /** the reason a 429 memory_high_water names */
  memoryGuard: Pick<MemoryGuard, 'reason'>;
  /** the backlog a 429 analysis_backlog names */
  core: Pick<AnalysisCore, 'waitingBuckets'>;
  /** a 429 analysis_backlog asks to retry after one tick */
  settings: Pick<Settings, 'tickSeconds'>;
}

export function ingestRefusal(outcome: IngestOutcome, ports: IngestRefusalPorts): HttpError | undefined {
  switch (outcome) {
    case 'accepted':
      return undefined;
    case 'busy':
      return queueFull();
    case 'unavailable':
      return ingestUnavailable();
    case 'memory_high_water':
      return memoryHighWater(ports.memoryGuard.reason());
    case 'analysis_backlog':
      return analysisBacklog(ports.core.waitingBuckets?.() ?? 0, ports.settings.tickSeconds);
  }
}
