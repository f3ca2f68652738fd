/**
 * V8's inlining budget for the api-server process (setting `jitBudget`, SVC_JIT_BUDGET).
 *
 * TurboFan inlines a function's callees only up to 920 bytes of their bytecode in total (460 per
 * callee) by default. The analysis tick's hot path is a tree of small functions over typed arrays
 * (the five models, the residual record, the detectors, the novelty experts): with the default
 * budget most of it stays real calls, whose double arguments and results are boxed on the heap.
 * `raised` lets TurboFan inline 4000 bytes per function (800 per callee); the 10k-workload tick
 * then takes about a fifth less time (docs/performance.md has the measurements). `default` leaves
 * V8's own values.
 *
 * The flags only affect code optimised after they are set, so the entry point applies them before
 * the first analysis step. They are compiler heuristics: a V8 that does not know them ignores them.
 */
import { setFlagsFromString } from 'node:v8';

export const JIT_BUDGETS = ['raised', 'default'] as const;
export type JitBudget = (typeof JIT_BUDGETS)[number];

/** the V8 flags of the `raised` budget */
export const RAISED_INLINING_FLAGS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=4000', '--max-inlined-bytecode-size=800'];

/** applies `budget` to code optimised from now on; returns the flags set (none for `default`) */
export function applyJitBudget(budget: JitBudget): readonly string[] {
  if (budget === 'default') return [];
  for (const flag of RAISED_INLINING_FLAGS) setFlagsFromString(flag);
  return RAISED_INLINING_FLAGS;
}
