/** Wire forms of suppressions and context events (api.md §6.6, §6.7). */
import type { ContextEvent } from '../../control/context-events.js';
import type { Suppression } from '../../control/suppressions.js';
import { isActive } from '../../control/suppressions.js';

export function suppressionJson(s: Suppression, nowMs: number): Record<string, unknown> {
  return {
    id: s.id,
    workload: s.workload,
    start: new Date(s.startMs).toISOString(),
    end: new Date(s.endMs).toISOString(),
    reason: s.reason,
    signals: s.signals,
    active: isActive(s, nowMs),
    created_at: new Date(s.createdAtMs).toISOString(),
    owner: s.owner,
  };
}

export function contextEventJson(c: ContextEvent): Record<string, unknown> {
  return {
    id: c.id,
    workload: c.workload,
    event: c.event,
    description: c.description,
    timestamp: new Date(c.timeMs).toISOString(),
    created_at: new Date(c.createdAtMs).toISOString(),
  };
}
