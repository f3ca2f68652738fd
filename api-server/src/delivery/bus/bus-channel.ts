/** The bus driver as an outbound channel: batches of up to 100 envelopes, all or nothing. */
import type { OutboundChannel } from '../delivery-worker.js';
import type { Envelope } from '../envelope.js';
import type { BusDriver } from './bus-driver.js';

export const BUS_BATCH = 100;

export class BusChannel implements OutboundChannel {
  readonly kind = 'bus' as const;
  readonly batchSize = BUS_BATCH;

  constructor(private readonly driver: BusDriver) {}

  get name(): string {
    return `bus:${this.driver.name}`;
  }

  open(): Promise<void> {
    return this.driver.connect();
  }

  async deliver(batch: readonly Envelope[]): Promise<{ dropped: number }> {
    await this.driver.publish(batch);
    return { dropped: 0 };
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}

