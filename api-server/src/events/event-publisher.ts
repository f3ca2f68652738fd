/**
 * Where band changes and Tier-1 action changes leave the service: each is written to the outbox
 * first (LevelDB), then shown on the SSE stream, and delivered by one worker per configured
 * outbound channel (the bus driver, each sink), each at its own pace with its own retries.
 */
import type { BandEvent } from '../analysis/contract.js';
import { actionDraft, ruptureDraft } from '../delivery/envelope-drafts.js';
import type { ActionPayload, RupturePayload } from '../delivery/envelope.js';
import type { ChannelStatus, DeliveryWorker } from '../delivery/delivery-worker.js';
import type { EventHub } from './event-hub.js';
import type { EventOutbox } from '../delivery/outbox.js';

export interface PublishContext {
  /** whole-workload suppression (sinks skip those envelopes; the bus still carries them) */
  suppressed(workload: string, signal: string | null, nowMs: number): boolean;
  /** the narrative of a rupture, when the analysis has one */
  narrative(ruptureId: string): string | null;
  now(): number;
}

export class EventPublisher {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly hub: EventHub,
    private readonly context: PublishContext,
    private readonly workers: readonly DeliveryWorker[],
  ) {}

  /** Stores the tick's band events, then streams them (ids from the outbox). */
  async bandEvents(bands: readonly BandEvent[]): Promise<void> {
    if (bands.length === 0) return;
    const now = this.context.now();
    const drafts = bands.map((b) =>
      ruptureDraft(b, b.ruptureId === null ? null : this.context.narrative(b.ruptureId), this.context.suppressed(b.workload, null, now)),
    );
    const stored = await this.outbox.append(drafts);
    for (const e of stored) if (e.type === 'rupture.state_changed') this.hub.publish(e.payload as RupturePayload);
  }

  /** Stores a Tier-1 action change for the bus and the sinks. */
  async tier1Action(action: ActionPayload, triggerSignal: string | null): Promise<void> {
    const now = this.context.now();
    await this.outbox.append([actionDraft(action, now, this.context.suppressed(action.workload, triggerSignal, now))]);
  }

  start(): void {
    for (const w of this.workers) w.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }

  status(): ChannelStatus[] {
    return this.workers.map((w) => w.status());
  }
}
