/**
 * Polls every live replica's `/rupture/<workload>` in the background and records every read in
 * which a workload's calibration_progress is lower than an earlier read from the same replica
 * slot (a restarted replica keeps its slot), or in which a workload that was served is missing.
 */
export interface ProgressDrop {
  slot: number;
  workload: string;
  from: number;
  to: number | 'missing';
}

export interface ProgressMonitor {
  /** reads done so far */
  reads(): number;
  drops(): ProgressDrop[];
  stop(): Promise<void>;
}

export function monitorProgress(apis: () => (string | undefined)[], workloads: readonly string[], everyMs = 250): ProgressMonitor {
  const highest = new Map<string, number>();
  const drops: ProgressDrop[] = [];
  let reads = 0;
  let running = true;
  const readOne = async (slot: number, api: string, workload: string): Promise<void> => {
    let res: Response;
    try {
      res = await fetch(`${api}/rupture/${workload}`, { signal: AbortSignal.timeout(2_000) });
    } catch {
      return; // a replica being killed does not answer: that is not a read
    }
    const key = `${slot}\u0000${workload}`;
    const before = highest.get(key);
    if (res.status !== 200) {
      await res.body?.cancel();
      if (res.status === 404 && before !== undefined) drops.push({ slot, workload, from: before, to: 'missing' });
      return;
    }
    const progress = ((await res.json()) as { calibration_progress: number }).calibration_progress;
    reads += 1;
    if (before !== undefined && progress < before) drops.push({ slot, workload, from: before, to: progress });
    if (before === undefined || progress > before) highest.set(key, progress);
  };
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const targets = apis();
      await Promise.all(targets.flatMap((api, slot) => (api === undefined ? [] : workloads.map((w) => readOne(slot, api, w)))));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - started))));
    }
  })();
  return {
    reads: () => reads,
    drops: () => [...drops],
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
