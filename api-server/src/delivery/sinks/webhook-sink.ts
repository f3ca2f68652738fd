/**
 * Generic webhook sink: POSTs every band change and Tier-1 action change as JSON (api.md §7) with
 * an HMAC-SHA256 signature a receiver verifies:
 *
 *   X-Faultline-Timestamp: <unix seconds>
 *   X-Faultline-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 *   X-Faultline-Event-Id:  <envelope id>   (repeats after a retry: receivers de-duplicate on it)
 *
 * A receiver recomputes the HMAC over the timestamp, a dot and the raw body bytes, compares in
 * constant time, and refuses timestamps more than 5 minutes from its clock (replay protection),
 * as `verifyWebhookSignature` does.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Envelope } from '../envelope.js';
import { postJson } from './post-json.js';
import type { Sink } from './sink.js';

export interface WebhookSinkOptions {
  name: string;
  url: string;
  secret: string | undefined;
  events: readonly Envelope['type'][];
  /** band events below this severity are not sent (recoveries of sent ruptures always are) */
  minSeverity: 'warning' | 'critical' | 'emergency';
  timeoutMs: number;
  now?: () => number;
}

const RANK: Record<string, number> = { warning: 1, critical: 2, emergency: 3 };

export function signWebhook(secret: string, timestampSeconds: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex')}`;
}

/** True when the signature matches the body and the timestamp is within `toleranceSeconds` of now. */
export function verifyWebhookSignature(secret: string, timestampHeader: string | undefined, body: string, signatureHeader: string | undefined, nowSeconds: number, toleranceSeconds = 300): boolean {
  if (timestampHeader === undefined || signatureHeader === undefined || !/^\d{1,12}$/.test(timestampHeader)) return false;
  const ts = Number(timestampHeader);
  if (Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, ts, body));
  const given = Buffer.from(signatureHeader);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `event` member: band changes, or the action's lifecycle step. */
export function webhookEventName(envelope: Envelope): string {
  if (envelope.type === 'rupture.state_changed') return 'rupture.state_changed';
  const status = String(envelope.payload.status);
  if (status === 'pending') return 'action.recommended';
  return `action.${status}`;
}

export function webhookBody(envelope: Envelope): Record<string, unknown> {
  const common = { source: 'faultline', schema: envelope.schema, event: webhookEventName(envelope), event_id: envelope.id, workload: envelope.workload, timestamp: envelope.timestamp };
  if (envelope.type === 'rupture.state_changed') {
    const p = envelope.payload;
    return { ...common, action_type: null, tier: null, reason: p.message, rupture_id: p.rupture_id, state: p.state, previous_state: p.previous_state, fused_r: p.fused_r, narrative: envelope.narrative, payload: p };
  }
  const p = envelope.payload;
  return { ...common, action_type: p.type, tier: p.tier, reason: p['reason'] ?? p['description'] ?? null, rupture_id: p.rupture_id, payload: p };
}

export class WebhookSink implements Sink {
  private readonly sentRuptures = new Set<string>();

  constructor(private readonly options: WebhookSinkOptions) {}

  get name(): string {
    return `webhook:${this.options.name}`;
  }

  accepts(envelope: Envelope): boolean {
    if (!this.options.events.includes(envelope.type)) return false;
    if (envelope.type !== 'rupture.state_changed') return true;
    const p = envelope.payload;
    if (p.type === 'recovered') return p.rupture_id === null || this.sentRuptures.has(p.rupture_id) || this.options.minSeverity === 'warning';
    return (RANK[p.type] ?? 0) >= RANK[this.options.minSeverity]!;
  }

  async deliver(envelope: Envelope): Promise<void> {
    const body = JSON.stringify(webhookBody(envelope));
    const headers: Record<string, string> = { 'x-faultline-event-id': envelope.id };
    if (this.options.secret !== undefined) {
      const ts = Math.floor((this.options.now ?? Date.now)() / 1000);
      headers['x-faultline-timestamp'] = String(ts);
      headers['x-faultline-signature'] = signWebhook(this.options.secret, ts, body);
    }
    await postJson(this.name, this.options.url, body, headers, this.options.timeoutMs);
    if (envelope.type === 'rupture.state_changed' && envelope.payload.rupture_id !== null) {
      const id = envelope.payload.rupture_id;
      if (envelope.payload.type === 'recovered') this.sentRuptures.delete(id);
      else {
        this.sentRuptures.add(id);
        if (this.sentRuptures.size > 4096) this.sentRuptures.delete(this.sentRuptures.values().next().value!);
      }
    }
  }
}
