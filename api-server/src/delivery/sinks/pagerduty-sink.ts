/**
 * Incident paging in the PagerDuty Events API v2 format (`POST /v2/enqueue`), one incident per
 * rupture: `dedup_key` = rupture_id.
 *
 *   trigger      on a warning, critical or emergency band change, with payload {summary,
 *                source = workload key, severity (emergency → critical, critical → error,
 *                warning → warning), timestamp, component = name, group = namespace,
 *                class = rupture, custom_details {fused_r, state, previous_state, narrative}}
 *   acknowledge  when a Tier-1 action of that rupture is approved or executed (automation or a
 *                person is working on it)
 *   resolve      on recovered
 *
 * Band changes without a rupture id and other action states are not sent. PagerDuty answers 202;
 * 400 is permanent, 429 and 5xx are retried.
 */
import type { Envelope } from '../envelope.js';
import { postJson } from './post-json.js';
import type { Sink } from './sink.js';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

export interface PagerDutySinkOptions {
  routingKey: string;
  url: string;
  timeoutMs: number;
}

const SEVERITY: Record<string, 'critical' | 'error' | 'warning'> = { emergency: 'critical', critical: 'error', warning: 'warning' };

export class PagerDutySink implements Sink {
  readonly name = 'pagerduty';

  constructor(private readonly options: PagerDutySinkOptions) {}

  accepts(envelope: Envelope): boolean {
    if (envelope.type === 'rupture.state_changed') return envelope.payload.rupture_id !== null;
    const status = String(envelope.payload.status);
    return (status === 'approved' || status === 'executed') && typeof envelope.payload.rupture_id === 'string' && envelope.payload.rupture_id !== '';
  }

  /** The Events v2 object for an accepted envelope. */
  eventFor(envelope: Envelope): Record<string, unknown> {
    const routing = { routing_key: this.options.routingKey };
    if (envelope.type === 'action.tier1') return { ...routing, event_action: 'acknowledge', dedup_key: envelope.payload.rupture_id };
    const p = envelope.payload;
    if (p.type === 'recovered') return { ...routing, event_action: 'resolve', dedup_key: p.rupture_id };
    const [namespace = '', , name = ''] = p.workload.split('/');
    return {
      ...routing,
      event_action: 'trigger',
      dedup_key: p.rupture_id,
      payload: {
        summary: (envelope.narrative?.split('\n')[0] ?? p.message).slice(0, 1024),
        source: p.workload,
        severity: SEVERITY[p.type] ?? 'warning',
        timestamp: envelope.timestamp,
        component: name,
        group: namespace,
        class: 'rupture',
        custom_details: { fused_r: p.fused_r, state: p.state, previous_state: p.previous_state, message: p.message, narrative: envelope.narrative },
      },
    };
  }

  async deliver(envelope: Envelope): Promise<void> {
    await postJson(this.name, this.options.url, JSON.stringify(this.eventFor(envelope)), {}, this.options.timeoutMs);
  }
}
