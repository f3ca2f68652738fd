/**
 * NAB v1.1 scoring, restated from the benchmark's published method (Lavin & Ahmad 2015, and the
 * scoring rules of the NAB repository):
 * - probation: the first min(floor(0.15 n), 750) rows of a file are not scored at all;
 * - a detected row inside a labelled window [l, r] is worth tpWeight * sigma(y) / sigma(-1) with
 *   y = -(r - i + 1) / (r - l + 1), sigma(y) = 2 / (1 + e^(5y)) - 1 (so the window's first row is
 *   worth exactly tpWeight); only the best (earliest) detection of a window counts;
 * - a detected row outside every window is worth fpWeight * sigma(y) with
 *   y = |i - r_prev| / (width_prev - 1) relative to the preceding window, or -fpWeight when no
 *   window precedes it (sigma is -1 from y >= 3 on);
 * - a scored window without a detection costs -fnWeight;
 * - one threshold for the whole corpus per profile: the sweep over every distinct anomaly score,
 *   from the highest down, keeping the threshold with the best total;
 * - normalised = 100 (raw - null) / (perfect - null), null = -fnWeight per scored window,
 *   perfect = tpWeight per scored window.
 */
export interface CostMatrix {
  tpWeight: number;
  fnWeight: number;
  fpWeight: number;
}

export interface ScoredFile {
  /** anomaly score per row, in time order */
  scores: ArrayLike<number>;
  /** windows as inclusive row index ranges, sorted, non-overlapping */
  windows: readonly (readonly [number, number])[];
}

export function scaledSigmoid(y: number): number {
  if (y >= 3) return -1;
  return 2 / (1 + Math.exp(5 * y)) - 1;
}

export function probationRows(length: number): number {
  return Math.min(Math.floor(0.15 * length), 750);
}

const MAX_TP = scaledSigmoid(-1);

/** One scored row: its anomaly score, what detecting it is worth, and its window (-1 outside). */
export interface SweepPoint {
  score: number;
  worth: number;
  window: number;
}

/**
 * The scored rows of a file. Window ids are offset by `windowBase` so points of several files can
 * be swept together; returns the points and the ids of the windows that have scored rows.
 */
export function sweepPoints(file: ScoredFile, cost: CostMatrix, windowBase = 0): { points: SweepPoint[]; windows: number[] } {
  const n = file.scores.length;
  const start = probationRows(n);
  const points: SweepPoint[] = [];
  const scoredWindows = new Set<number>();
  let w = 0;
  let prevRight = -1;
  let prevWidth = 0;
  for (let i = 0; i < n; i += 1) {
    while (w < file.windows.length && (file.windows[w] as readonly [number, number])[1] < i) {
      const done = file.windows[w] as readonly [number, number];
      prevRight = done[1];
      prevWidth = done[1] - done[0] + 1;
      w += 1;
    }
    const win = file.windows[w];
    const inside = win !== undefined && i >= win[0];
    if (i < start) continue;
    let worth: number;
    if (inside) {
      const width = win[1] - win[0] + 1;
      worth = (scaledSigmoid(-(win[1] - i + 1) / width) * cost.tpWeight) / MAX_TP;
      scoredWindows.add(windowBase + w);
    } else if (prevRight < 0) {
      worth = -cost.fpWeight;
    } else {
      worth = scaledSigmoid(Math.abs(i - prevRight) / Math.max(1, prevWidth - 1)) * cost.fpWeight;
    }
    const score = file.scores[i] ?? 0;
    points.push({ score: Number.isFinite(score) ? score : 0, worth, window: inside ? windowBase + w : -1 });
  }
  return { points, windows: [...scoredWindows] };
}

/** The best threshold over every distinct score of the corpus, with its raw total. */
export function bestThreshold(points: SweepPoint[], windowIds: readonly number[], cost: CostMatrix): { threshold: number; raw: number } {
  const sorted = [...points].sort((a, b) => b.score - a.score);
  const best = new Map<number, number>(windowIds.map((id) => [id, -cost.fnWeight]));
  let windowsTotal = -cost.fnWeight * windowIds.length;
  let fp = 0;
  let result = { threshold: Infinity, raw: windowsTotal };
  for (let k = 0; k < sorted.length; k += 1) {
    const p = sorted[k] as SweepPoint;
    if (p.window >= 0) {
      const before = best.get(p.window) ?? -cost.fnWeight;
      if (p.worth > before) {
        best.set(p.window, p.worth);
        windowsTotal += p.worth - before;
      }
    } else {
      fp += p.worth;
    }
    const next = sorted[k + 1];
    // a threshold sits between distinct scores: detections are every row with score >= threshold
    if (next === undefined || next.score !== p.score) {
      const raw = windowsTotal + fp;
      if (raw > result.raw) result = { threshold: p.score, raw };
    }
  }
  return result;
}

/** Raw score of one file for detections `score >= threshold`. */
export function rawFileScore(file: ScoredFile, threshold: number, cost: CostMatrix): number {
  const { points, windows } = sweepPoints(file, cost);
  const best = new Map<number, number>(windows.map((id) => [id, -cost.fnWeight]));
  let fp = 0;
  for (const p of points) {
    if (!(p.score >= threshold)) continue;
    if (p.window >= 0) best.set(p.window, Math.max(best.get(p.window) ?? -cost.fnWeight, p.worth));
    else fp += p.worth;
  }
  return [...best.values()].reduce((a, b) => a + b, 0) + fp;
}

export interface CorpusScore {
  threshold: number;
  raw: number;
  normalised: number;
  windows: number;
}

/** The corpus score of a profile at its best threshold. */
export function scoreCorpus(files: readonly ScoredFile[], cost: CostMatrix): CorpusScore {
  const all: SweepPoint[] = [];
  const ids: number[] = [];
  let base = 0;
  for (const f of files) {
    const { points, windows } = sweepPoints(f, cost, base);
    for (const p of points) all.push(p);
    ids.push(...windows);
    base += f.windows.length;
  }
  const { threshold, raw } = bestThreshold(all, ids, cost);
  const nullScore = -cost.fnWeight * ids.length;
  const perfect = cost.tpWeight * ids.length;
  const normalised = perfect === nullScore ? 0 : (100 * (raw - nullScore)) / (perfect - nullScore);
  return { threshold, raw, normalised, windows: ids.length };
}
