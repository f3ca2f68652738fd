/**
 * The message every outbound channel carries (api.md §7), versioned by `schema`. One envelope is
 * made per band change and per Tier-1 action change, stored in the outbox first, and only then
 * handed to the bus driver and the sinks; `id` and `seq` come from the outbox and never repeat,
 * across restarts too, so consumers can de-duplicate on them.
 */
export const ENVELOPE_SCHEMA = 'faultline.event/v1';

export type EnvelopeType = 'rupture.state_changed' | 'action.tier1';

/** The band event as the SSE stream shows it (api.md §6.12). */
export interface RupturePayload {
  id: string;
  type: 'warning' | 'critical' | 'emergency' | 'recovered';
  severity: 'info' | 'warning' | 'critical' | 'emergency';
  workload: string;
  state: string;
  previous_state: string;
  fused_r: number;
  rupture_id: string | null;
  message: string;
  ts: string;
}

/** The action object of api.md §6.5 (both shapes), as GET /actions/{id} renders it. */
export type ActionPayload = Record<string, unknown> & { id: string; workload: string; type: string; tier: number; status: string; rupture_id: string };

interface EnvelopeBase {
  schema: typeof ENVELOPE_SCHEMA;
  /** `ev_` + the outbox sequence, zero-padded to 6 digits at least */
  id: string;
  /** the outbox sequence number (1, 2, …), strictly increasing */
  seq: number;
  /** the NATS subject: `svc.rupture.{workload key}` or `svc.actions.tier1` */
  topic: string;
  org_id: string;
  /** RFC 3339, the time of the change (sample time for band events) */
  timestamp: string;
  /** the workload key the event is about (Kafka record key is `topic`) */
  workload: string;
  /** true when a suppression window covered the workload at that time: sinks skip it, the bus still carries it */
  suppressed: boolean;
}

export interface RuptureEnvelope extends EnvelopeBase {
  type: 'rupture.state_changed';
  payload: RupturePayload;
  /** the plain-English narrative of the rupture when one exists (sinks use it as a description) */
  narrative: string | null;
}

export interface ActionEnvelope extends EnvelopeBase {
  type: 'action.tier1';
  payload: ActionPayload;
}

export type Envelope = RuptureEnvelope | ActionEnvelope;

export const RUPTURE_SUBJECT_PREFIX = 'svc.rupture.';
export const TIER1_SUBJECT = 'svc.actions.tier1';

export function envelopeId(seq: number): string {
  return `ev_${String(seq).padStart(6, '0')}`;
}

/** An envelope before the outbox numbers it. */
export type EnvelopeDraft = Omit<RuptureEnvelope, 'id' | 'seq'> | Omit<ActionEnvelope, 'id' | 'seq'>;

/** Gives a draft its sequence and id (a band payload carries the same id, as on the SSE stream). */
export function numberEnvelope(draft: EnvelopeDraft, seq: number): Envelope {
  const id = envelopeId(seq);
  if (draft.type === 'rupture.state_changed') return { ...draft, id, seq, payload: { ...draft.payload, id } };
  return { ...draft, id, seq };
}
