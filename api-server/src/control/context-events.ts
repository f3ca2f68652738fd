/**
 * Context events (interface "Context event", api.md §6.7): a deploy or other known change of a
 * workload. It opens a quiet period (analytics.md §8.7) and anchors the explain timeline.
 */
import { z } from 'zod';
import { isWorkloadSelector } from '../model/workload-selector.js';

export interface ContextEvent {
  id: string;
  workload: string;
  event: string;
  description: string;
  timeMs: number;
  createdAtMs: number;
}

/** quiet period around a context event: 60 s before to 300 s after (analytics.md §8.7) */
export const QUIET_BEFORE_MS = 60_000;
export const QUIET_AFTER_MS = 300_000;

export const contextBody = z.object({
  workload: z.string().refine(isWorkloadSelector, 'must be a workload key namespace/Kind/name, namespace/* or *'),
  event: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  description: z.string().max(4096).optional(),
  timestamp: z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' }).optional(),
});

export type ContextBody = z.infer<typeof contextBody>;

export function contextEventFromBody(body: ContextBody, id: string, nowMs: number): ContextEvent {
  return {
    id,
    workload: body.workload,
    event: body.event,
    description: body.description ?? '',
    timeMs: body.timestamp === undefined ? nowMs : Date.parse(body.timestamp),
    createdAtMs: nowMs,
  };
}
