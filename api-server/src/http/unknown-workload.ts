/**
 * The 404 of a workload lookup (rupture, KPI, anomalies, history) with a hint on when to ask again
 * (issue 35). A workload is known from its first ingested point; until then the lookup answers
 * 404, which right after POST /sim/inject (its points still queued) or a first OTLP post looks like
 * a wrong name. The body keeps `error` and `code: not_found` and adds `hint`; while a simulation of
 * that workload runs it also names the injection.
 */
import { parseWorkloadKey } from '../model/workload-key.js';
import type { Injection } from '../simulation/injector.js';
import { HttpError } from '../model/http-errors.js';

/** bucket length and the grace after its end before it is analysed (analytics: 15 s + 15 s) */
const FIRST_ANALYSIS = 'its first 15-second bucket is analysed 15-45 s after the first point';

/** True when the lookup segments (`ns/kind/name`, `ns/name`, `name` or `ns/name` as one host) name `key`. */
export function segmentsName(key: string, segments: readonly string[]): boolean {
  const ref = parseWorkloadKey(key);
  if (ref === undefined) return segments.join('/') === key;
  const parts = segments.length === 1 && segments[0]!.includes('/') ? segments[0]!.split('/') : segments;
  if (parts.length === 3) return parts.join('/') === key;
  if (parts.length === 2) return parts[0] === ref.namespace && parts[1] === ref.name;
  return parts.length === 1 && parts[0] === ref.name;
}

export function unknownWorkload(message: string, segments: readonly string[], injections: readonly Injection[]): HttpError {
  const running = injections.find((i) => segmentsName(i.workload, segments));
  if (running !== undefined) {
    return new HttpError(404, 'not_found', message, undefined, {
      hint: `a simulation of ${running.workload} started at ${new Date(running.startedAtMs).toISOString()}; its points are still queued for analysis: retry in a few seconds (${FIRST_ANALYSIS})`,
      injection_id: running.id,
    });
  }
  return new HttpError(404, 'not_found', message, undefined, {
    hint: `no telemetry has arrived for this workload: it is known from its first ingested point (GET /api/v2/ruptures lists the known ones), and ${FIRST_ANALYSIS}`,
  });
}
