/**
 * A message-bus driver (NATS or Kafka). The delivery worker hands it envelopes in outbox order and
 * retries with backoff when `publish` rejects; a driver never buffers on its own beyond one call.
 *
 * `publish` resolves only when the broker has acknowledged every envelope of the call (JetStream
 * ack, committed Kafka transaction); it rejects when any is not known to be stored, and the worker
 * then offers the same envelopes again (same ids), so the driver must make repeats harmless
 * (NATS: `Nats-Msg-Id` = envelope id; Kafka: skip what a committed transaction already holds).
 */
import type { Envelope } from '../envelope.js';

export interface BusDriver {
  /** `nats` or `kafka` */
  readonly name: string;
  /** Connects (and, for Kafka, initialises the transactional producer). Rejects when the broker is unreachable; the worker retries. */
  connect(): Promise<void>;
  publish(envelopes: readonly Envelope[]): Promise<void>;
  /** True while the last connect or publish succeeded. */
  connected(): boolean;
  close(): Promise<void>;
}
