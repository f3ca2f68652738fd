/**
 * The benchmarks run with the api-server's V8 inlining budget (SVC_JIT_BUDGET, default `raised`;
 * api-server/src/config/jit-budget.ts), applied once before any benchmark's code is optimised,
 * so the figures are those of the service. `SVC_JIT_BUDGET=default` measures V8's own budget.
 */
import { applyJitBudget, type JitBudget } from '../api-server/src/config/jit-budget.js';
import { loadSettings } from '../api-server/src/config/load-settings.js';

let applied: JitBudget | null = null;

/** applies the budget SVC_JIT_BUDGET names (once per process); returns it */
export function applyServiceJitBudget(): JitBudget {
  if (applied === null) {
    applied = loadSettings([], { SVC_JIT_BUDGET: process.env['SVC_JIT_BUDGET'] }).jitBudget;
    applyJitBudget(applied);
  }
  return applied;
}
