/**
 * Per-workload failure objectives as people write them (POST /config/objectives and
 * SVC_WORKLOAD_OBJECTIVES): a JSON array, first matching selector wins. Every entry is checked
 * here, at the edge; an unknown field is refused rather than ignored (a misspelt `error-rate`
 * would otherwise silently keep the fixed edge).
 */
import { z } from 'zod';
import type { FailureObjective } from '../model/failure-objective.js';
import { isWorkloadSelector } from '../model/workload-selector.js';

export const MAX_OBJECTIVES = 1000;

const fraction = z.number().finite('must be a finite number').gt(0, 'must be > 0 (a fraction in (0, 1])').lte(1, 'must be <= 1 (a fraction, not a percentage)').optional();

const objectiveEntry = z
  .object({
    selector: z.string({ message: 'must be a string' }).refine((s) => isWorkloadSelector(s), 'must be *, namespace/* or namespace/Kind/name'),
    error_rate: fraction,
    latency_ms: z.number().finite('must be a finite number').gt(0, 'must be > 0 (milliseconds)').optional(),
    memory: fraction,
    cpu: fraction,
  })
  .strict();

export const failureObjectivesBody = z
  .array(objectiveEntry, { message: 'must be a JSON array of failure objectives' })
  .max(MAX_OBJECTIVES, `must hold at most ${MAX_OBJECTIVES} entries`);

/** the validated body as stored: only the fields that were given */
export function objectivesFrom(body: z.infer<typeof failureObjectivesBody>): FailureObjective[] {
  return body.map((e) => ({
    selector: e.selector,
    ...(e.error_rate === undefined ? {} : { error_rate: e.error_rate }),
    ...(e.latency_ms === undefined ? {} : { latency_ms: e.latency_ms }),
    ...(e.memory === undefined ? {} : { memory: e.memory }),
    ...(e.cpu === undefined ? {} : { cpu: e.cpu }),
  }));
}
