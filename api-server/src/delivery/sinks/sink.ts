/**
 * An outbound dispatch sink (webhook, Alertmanager, PagerDuty). The delivery worker calls
 * `deliver` once per envelope, in order, and retries with backoff when it throws a
 * RetryableDeliveryError (5xx, 429, time-out, connection refused); a PermanentDeliveryError (other
 * 4xx, an envelope the sink cannot express) is logged and counted and the worker moves on.
 * Envelopes flagged `suppressed` never reach a sink (the worker skips them).
 */
import type { Envelope } from '../envelope.js';

export interface Sink {
  /** a stable name used for the outbox cursor, metrics and logs: `webhook:<name>`, `alertmanager`, `pagerduty` */
  readonly name: string;
  /** Whether this sink wants this envelope at all (by type and configured filters). */
  accepts(envelope: Envelope): boolean;
  deliver(envelope: Envelope): Promise<void>;
}

export class RetryableDeliveryError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'RetryableDeliveryError';
  }
}

export class PermanentDeliveryError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}
