/**
 * What an OTLP export answer's partial_success says (OTLP specification, "Partial Success"), the same
 * on the standard OTLP/HTTP listener and the OTLP/gRPC port: the count of dropped records and why.
 */
import type { OtlpSignal, PartialSuccess } from './otlp-proto-messages.js';

const NOUN: Record<OtlpSignal, string> = { metrics: 'data points', logs: 'log records', traces: 'spans' };

/**
 * What partial_success says: undefined when nothing of the request was dropped. `refused`: what the
 * decoder dropped (batch.rejected); `outsideWindow`: what the pipeline will drop for its time.
 */
export function partialSuccess(signal: OtlpSignal, refused: number, outsideWindow: number): PartialSuccess | undefined {
  if (refused + outsideWindow === 0) return undefined;
  const parts: string[] = [];
  const noun = NOUN[signal];
  if (refused > 0) parts.push(`${refused} ${noun} were dropped because their resource names no workload (node-only resources) or their value is not a finite number`);
  if (outsideWindow > 0) {
    parts.push(
      `${outsideWindow} ${noun} were dropped because their time is older than 7 days or more than 5 minutes ahead; times are Unix nanoseconds (a time sent in milliseconds reads as 1970)`,
    );
  }
  return { rejected: refused + outsideWindow, errorMessage: parts.join('; ') };
}
