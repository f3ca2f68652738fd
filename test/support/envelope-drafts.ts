/** Band events and drafts for the outbox and delivery tests. */
import type { BandEvent } from '../../api-server/src/analysis/contract.js';
import type { EnvelopeDraft } from '../../api-server/src/delivery/envelope.js';
import { ruptureDraft } from '../../api-server/src/delivery/envelope-drafts.js';

export function band(workload: string, type: BandEvent['type'], timeMs: number, ruptureId: string | null = 'r_0123456789ab'): BandEvent {
  const severity = type === 'recovered' ? 'info' : type;
  const state = type === 'recovered' ? 'stable' : type;
  return { type, severity, workload, fusedR: type === 'recovered' ? 0.4 : 3.2, previousState: type === 'recovered' ? 'critical' : 'stable', state, ruptureId, timeMs };
}

export function drafts(n: number, workload = 'shop/Deployment/cart', startMs = Date.UTC(2026, 10, 1)): EnvelopeDraft[] {
  return Array.from({ length: n }, (_, i) => ruptureDraft(band(workload, i % 2 === 0 ? 'critical' : 'recovered', startMs + i * 15_000), null, false));
}
