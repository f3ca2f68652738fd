/**
 * A dispatch sink as an outbound channel: envelopes one at a time, in order. Suppressed envelopes
 * and those the sink does not want are passed over; a permanent refusal (a 4xx) is dropped and
 * counted; anything else stops the batch where it is, so the worker retries from that envelope.
 */
import { DeliveryFailure, type OutboundChannel } from '../delivery-worker.js';
import type { Envelope } from '../envelope.js';
import { PermanentDeliveryError, type Sink } from './sink.js';

export interface SinkChannelHooks {
  rejected(sink: string, envelope: Envelope, error: PermanentDeliveryError): void;
}

export class SinkChannel implements OutboundChannel {
  readonly kind = 'sink' as const;
  readonly batchSize = 20;

  constructor(
    private readonly sink: Sink,
    private readonly hooks: SinkChannelHooks,
  ) {}

  get name(): string {
    return `sink:${this.sink.name}`;
  }

  async open(): Promise<void> {
    // HTTP sinks hold no connection of their own
  }

  async deliver(batch: readonly Envelope[]): Promise<{ dropped: number }> {
    let dropped = 0;
    let handled = 0;
    for (const envelope of batch) {
      if (!envelope.suppressed && this.sink.accepts(envelope)) {
        try {
          await this.sink.deliver(envelope);
        } catch (error) {
          if (!(error instanceof PermanentDeliveryError)) throw new DeliveryFailure(error, handled);
          dropped += 1;
          this.hooks.rejected(this.sink.name, envelope, error);
        }
      }
      handled = envelope.seq;
    }
    return { dropped };
  }

  async close(): Promise<void> {
    // nothing to release
  }
}
