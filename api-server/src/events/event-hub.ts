/**
 * The live event stream (api.md §6.12): band events get ids `ev_` + a 6-digit process sequence,
 * the last 300 are kept for `Last-Event-ID` replay and the JSON fallback, and every subscriber has
 * its own buffer of 64 events; a slow subscriber loses events, nobody else does.
 */
import type { BandEvent } from '../analysis/contract.js';

export interface StreamEvent {
  id: string;
  type: BandEvent['type'];
  severity: BandEvent['severity'];
  workload: string;
  state: string;
  previous_state: string;
  fused_r: number;
  rupture_id: string | null;
  message: string;
  ts: string;
}

export const KEPT_EVENTS = 300;
export const SUBSCRIBER_BUFFER = 64;

export interface Subscriber {
  push(event: StreamEvent): void;
}

export class EventHub {
  private readonly ring: StreamEvent[] = [];
  private sequence = 0;
  private readonly subscribers = new Set<Subscriber>();

  publish(band: BandEvent): StreamEvent {
    this.sequence += 1;
    const fusedR = Math.round(band.fusedR * 1000) / 1000;
    const event: StreamEvent = {
      id: `ev_${String(this.sequence).padStart(6, '0')}`,
      type: band.type,
      severity: band.severity,
      workload: band.workload,
      state: band.state,
      previous_state: band.previousState,
      fused_r: fusedR,
      rupture_id: band.ruptureId,
      message: band.type === 'recovered' ? `${band.workload} recovered (FusedR ${fusedR.toFixed(2)})` : `${band.workload} entered ${band.type} (FusedR ${fusedR.toFixed(2)})`,
      ts: new Date(band.timeMs).toISOString(),
    };
    this.ring.push(event);
    if (this.ring.length > KEPT_EVENTS) this.ring.shift();
    for (const s of this.subscribers) s.push(event);
    return event;
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
