/**
 * The live event stream (api.md §6.12): band events carry the id the outbox gave them (`ev_` + a
 * sequence that never repeats, across restarts too), the last 300 are kept for `Last-Event-ID`
 * replay and the JSON fallback, and every subscriber has its own buffer of 64 events; a slow
 * subscriber loses events, nobody else does.
 */
import type { RupturePayload } from '../delivery/envelope.js';

export type StreamEvent = RupturePayload;

export const KEPT_EVENTS = 300;
export const SUBSCRIBER_BUFFER = 64;

export interface Subscriber {
  push(event: StreamEvent): void;
}

export class EventHub {
  private readonly ring: StreamEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();

  publish(event: StreamEvent): void {
    this.ring.push(event);
    if (this.ring.length > KEPT_EVENTS) this.ring.shift();
    for (const s of this.subscribers) s.push(event);
  }
  /** Newest first. */
  recent(limit: number): StreamEvent[] {
    return this.ring.slice(-limit).reverse();
  }

  /** Kept events after `lastEventId` (oldest first); all kept events when the id is unknown. */
  since(lastEventId: string | undefined): StreamEvent[] {
    if (lastEventId === undefined) return [];
    const i = this.ring.findIndex((e) => e.id === lastEventId);
    return i === -1 ? [...this.ring] : this.ring.slice(i + 1);
  }

  subscribe(s: Subscriber): () => void {
    this.subscribers.add(s);
    return () => this.subscribers.delete(s);
  }
}
