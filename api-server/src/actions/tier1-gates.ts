/**
 * The Tier-1 automatic execution gates of interface.md (action state table) and analytics.md §9.4,
 * checked in order; the first one that fails names the reason. Pure: every input is passed in.
 */
import type { Action } from './action.js';

export type ExecutionMode = 'auto' | 'shadow' | 'suggest';
export type Edition = 'community' | 'autopilot';

export interface GateSettings {
  edition: Edition;
  executionMode: ExecutionMode;
  autoActionConfidence: number;
  namespaceAllowlist: readonly string[];
  rateLimitPerHour: number;
  cooldownMs: number;
}

export interface GateFacts {
  /** confidence re-read at execution time */
  confidence: number;
  emergencyStop: boolean;
  suppressed: boolean;
  /** Tier-1 executions of this workload in the current rate window */
  executionsInWindow: number;
  /** last execution of the same (workload, type), epoch ms, or null */
  lastExecutionOfTypeMs: number | null;
  nowMs: number;
}

export type GateName =
  | 'edition'
  | 'execution_mode'
  | 'confidence'
  | 'namespace_allowlist'
  | 'rate_limit'
  | 'emergency_stop'
  | 'suppression'
  | 'cooldown';

export type GateVerdict = { pass: true } | { pass: false; gate: GateName; reason: string };

export function namespaceOfKey(key: string): string {
  const slash = key.indexOf('/');
  return slash === -1 ? key : key.slice(0, slash);
}

export function checkTier1Gates(action: Action, settings: GateSettings, facts: GateFacts): GateVerdict {
  if (settings.edition !== 'autopilot') {
    return { pass: false, gate: 'edition', reason: 'automatic execution needs the autopilot edition' };
  }
  if (settings.executionMode !== 'auto') {
    return { pass: false, gate: 'execution_mode', reason: `execution_mode is ${settings.executionMode}, not auto` };
  }
  if (!(facts.confidence >= settings.autoActionConfidence)) {
    return {
      pass: false,
      gate: 'confidence',
      reason: `confidence ${facts.confidence.toFixed(3)} is below confidence_thresholds.auto_action ${settings.autoActionConfidence}`,
    };
  }
  const namespace = namespaceOfKey(action.workload);
  if (!settings.namespaceAllowlist.includes(namespace)) {
    return { pass: false, gate: 'namespace_allowlist', reason: `namespace ${namespace} is not in namespace_allowlist` };
  }
  if (facts.executionsInWindow >= settings.rateLimitPerHour) {
    return {
      pass: false,
      gate: 'rate_limit',
      reason: `rate_limit_per_hour ${settings.rateLimitPerHour} reached for ${action.workload}`,
    };
  }
  if (facts.emergencyStop) {
    return { pass: false, gate: 'emergency_stop', reason: 'emergency stop is active' };
  }
  if (facts.suppressed) {
    return { pass: false, gate: 'suppression', reason: `a suppression window is active for ${action.workload}` };
  }
  if (facts.lastExecutionOfTypeMs !== null && facts.nowMs - facts.lastExecutionOfTypeMs < settings.cooldownMs) {
    return { pass: false, gate: 'cooldown', reason: `cooldown of ${settings.cooldownMs / 1000} s since the last ${action.type}` };
  }
  return { pass: true };
}
