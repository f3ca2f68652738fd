/**
 * ttf_seconds of analytics.md §8.5. Pure.
 */

export const TTF_CAP_SECONDS = 3600;
/** θ_c: saturation of a normalised input. */
export const TTF_THRESHOLD = 1.0;

/**
 * TTF = (θ_c − m)/α_b for the primary metric (m its latest normalised value, α_b its burst slope
 * per second); α_b ≤ 0 → 3600; clamped to [0, 3600]; integer (floor).
 * Non-finite input is clamped, never propagated: NaN m or NaN α → 3600 (no estimate);
 * α = +∞ → 0; m = −∞ → 3600; m = +∞ → 0.
 */
export function ttfSeconds(latestValue: number, burstSlopePerSecond: number, thresholdValue: number = TTF_THRESHOLD): number {
  if (Number.isNaN(latestValue) || Number.isNaN(burstSlopePerSecond) || Number.isNaN(thresholdValue)) return TTF_CAP_SECONDS;
  if (!(burstSlopePerSecond > 0)) return TTF_CAP_SECONDS;
  const t = (thresholdValue - latestValue) / burstSlopePerSecond;
  if (Number.isNaN(t)) return TTF_CAP_SECONDS;
  return Math.floor(Math.min(TTF_CAP_SECONDS, Math.max(0, t)));
}
