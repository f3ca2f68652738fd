/**
 * Builds the outbox drafts of the two published event kinds (api.md §7): a band change of a
 * workload (`svc.rupture.{workload}`) and a change of a Tier-1 action (`svc.actions.tier1`).
 */
import type { BandEvent } from '../analysis/contract.js';
import { ENVELOPE_SCHEMA, RUPTURE_SUBJECT_PREFIX, TIER1_SUBJECT, type ActionPayload, type EnvelopeDraft, type RupturePayload } from './envelope.js';

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The SSE / bus payload of a band event; `id` is filled in by the outbox (same as the envelope id). */
export function rupturePayload(band: BandEvent, id: string): RupturePayload {
  const fusedR = r3(band.fusedR);
  return {
    id,
    type: band.type,
    severity: band.severity,
    workload: band.workload,
    state: band.state,
    previous_state: band.previousState,
    fused_r: fusedR,
    rupture_id: band.ruptureId,
    message:
      band.type === 'recovered'
        ? `${band.workload} recovered (FusedR ${fusedR.toFixed(2)})`
        : `${band.workload} entered ${band.type} (FusedR ${fusedR.toFixed(2)})`,
    ts: new Date(band.timeMs).toISOString(),
  };
}

export function ruptureDraft(band: BandEvent, narrative: string | null, suppressed: boolean): EnvelopeDraft {
  return {
    schema: ENVELOPE_SCHEMA,
    type: 'rupture.state_changed',
    topic: RUPTURE_SUBJECT_PREFIX + band.workload,
    org_id: '',
    timestamp: new Date(band.timeMs).toISOString(),
    workload: band.workload,
    suppressed,
    // the payload id is the envelope id; set when the outbox numbers it
    payload: rupturePayload(band, ''),
    narrative,
  };
}

export function actionDraft(action: ActionPayload, timeMs: number, suppressed: boolean): EnvelopeDraft {
  return {
    schema: ENVELOPE_SCHEMA,
    type: 'action.tier1',
    topic: TIER1_SUBJECT,
    org_id: '',
    timestamp: new Date(timeMs).toISOString(),
    workload: action.workload,
    suppressed,
    payload: action,
  };
}
