/**
 * Tier rule of analytics.md §9.3. Pure. What is recommended comes from the rule table
 * (recommendation-rules.ts).
 */
import type { ActionType, RuptureState } from '../contract.js';

/** Tier 1 when the band is emergency and the type is scale or restart; otherwise Tier 2 (§9.3). */
export function actionTier(state: RuptureState, type: ActionType): 1 | 2 {
  return state === 'emergency' && (type === 'scale' || type === 'restart') ? 1 : 2;
}
