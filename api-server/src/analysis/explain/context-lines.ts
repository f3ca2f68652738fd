/**
 * Context-event lines of the narrative (analytics.md §8.7). Pure.
 */
import type { ContextEventInput } from '../contract.js';

export const CONTEXT_LOOKBACK_MS = 3600_000;
/** Largest epoch ms a Date can render. */
const MAX_DATE_MS = 8.64e15;

/**
 * One line per context event of `workload` in the hour before the episode opened or during it
 * (opened ≤ t ≤ closed, closed = null while open), oldest first:
 * "Context: {event} ({description}) at {ISO time}, N min before the rupture" (N = whole minutes,
 * floor) or "…, during the rupture". Events with a non-finite or unrenderable time are skipped.
 */
export function contextEventLines(
  events: readonly ContextEventInput[],
  workload: string,
  episodeOpenedAtMs: number,
  episodeClosedAtMs: number | null,
): string[] {
  if (!Number.isFinite(episodeOpenedAtMs)) return [];
  const end = episodeClosedAtMs !== null && Number.isFinite(episodeClosedAtMs) ? episodeClosedAtMs : Infinity;
  return events
    .filter((e) => e.workload === workload && Number.isFinite(e.timeMs) && Math.abs(e.timeMs) <= MAX_DATE_MS)
    .filter((e) => e.timeMs >= episodeOpenedAtMs - CONTEXT_LOOKBACK_MS && e.timeMs <= end)
    .sort((a, b) => a.timeMs - b.timeMs)
    .map((e) => {
      const when = new Date(e.timeMs).toISOString();
      const relation = e.timeMs < episodeOpenedAtMs ? `${Math.floor((episodeOpenedAtMs - e.timeMs) / 60_000)} min before the rupture` : 'during the rupture';
      return `Context: ${e.event} (${e.description}) at ${when}, ${relation}`;
    });
}
