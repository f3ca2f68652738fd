/**
 * Maintenance suppression windows (interface "Suppression", api.md §6.6). During a window ruptures
 * are still recorded but nothing is dispatched to the action engine; a window with `signals`
 * suppresses only those signals.
 */
import { z } from 'zod';
import { isWorkloadSelector, selectorMatches } from '../model/workload-selector.js';
import { SIGNAL_NAMES } from '../model/signals.js';

export interface Suppression {
  id: string;
  workload: string;
  startMs: number;
  endMs: number;
  reason: string | null;
  signals: string[] | null;
  createdAtMs: number;
  /** set when the operator created it from a Suppression CR (operator.md §7.4) */
  owner: string | null;
}

const rfc3339 = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' });

export const suppressionBody = z
  .object({
    workload: z.string().refine(isWorkloadSelector, 'must be a workload key namespace/Kind/name, namespace/* or *'),
    start: rfc3339,
    end: rfc3339,
    reason: z.string().max(1024).optional(),
    signals: z
      .array(z.enum(SIGNAL_NAMES, { message: `must be one of ${SIGNAL_NAMES.join(', ')}` }))
      .refine((s) => new Set(s).size === s.length, 'must not repeat a signal')
      .optional(),
    owner: z.string().min(1).max(253).optional(),
  })
  .refine((b) => Date.parse(b.end) > Date.parse(b.start), { message: 'must be after start', path: ['end'] });

export type SuppressionBody = z.infer<typeof suppressionBody>;

export function suppressionFromBody(body: SuppressionBody, id: string, nowMs: number): Suppression {
  return {
    id,
    workload: body.workload,
    startMs: Date.parse(body.start),
    endMs: Date.parse(body.end),
    reason: body.reason ?? null,
    signals: body.signals ?? null,
    createdAtMs: nowMs,
    owner: body.owner ?? null,
  };
}

export function isActive(s: Suppression, nowMs: number): boolean {
  return s.startMs <= nowMs && nowMs < s.endMs;
}

/** Whole-workload windows suppress everything; signal-scoped ones only a listed signal. */
export function suppresses(s: Suppression, workload: string, signal: string | null, nowMs: number): boolean {
  if (!isActive(s, nowMs) || !selectorMatches(s.workload, workload)) return false;
  return s.signals === null || (signal !== null && s.signals.includes(signal));
}
