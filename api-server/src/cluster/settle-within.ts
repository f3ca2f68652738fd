/**
 * Bounded waiting for shutdown and hand-over steps: waits for `work` at most `ms` and never
 * throws, so one stuck Kafka request cannot hold a replica's stop (or a partition's hand-over)
 * past its budget.
 */
export async function settleWithin(work: Promise<unknown> | undefined, ms: number): Promise<'settled' | 'failed' | 'timed_out'> {
  if (work === undefined) return 'settled';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timed_out'>((resolve) => {
    timer = setTimeout(() => resolve('timed_out'), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => 'settled' as const, () => 'failed' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
