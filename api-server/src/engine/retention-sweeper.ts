/**
 * Retention of what the analysis stores (analytics.md §11): raw 15-second metric means and KPI
 * history 15 s for 7 days, 1 min for
 * 30 days, 5 min for a year, 1 h for 400 days, every tier capped by `storage.retention.kpis_days`;
 * anomalies and explain records for 7 days. Runs in the background every `everyMs`.
 */
import type { AnalysisStore, HistoryTier } from '../storage/analysis-store.js';

const DAY_MS = 86_400_000;
const TIER_DAYS: [HistoryTier, number][] = [
  ['raw', 7],
  ['1m', 30],
  ['5m', 365],
  ['1h', 400],
];
export const EVENT_RETENTION_DAYS = 7;

export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly store: AnalysisStore,
    private readonly kpiRetentionDays: number,
    private readonly now: () => number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(everyMs: number): void {
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.running) await this.running;
  }

  /** One pass; returns how many history points were deleted. */
  async sweep(): Promise<number> {
    if (this.running) {
      await this.running;
      return 0;
    }
    let deleted = 0;
    this.running = (async () => {
      try {
        const now = this.now();
        for (const [tier, days] of TIER_DAYS) deleted += await this.store.expire(tier, now - Math.min(days, this.kpiRetentionDays) * DAY_MS);
        await this.store.expireRaw(now - 7 * DAY_MS);
        await this.store.expireAnomalies(now - EVENT_RETENTION_DAYS * DAY_MS);
        await this.store.expireRuptures(now - EVENT_RETENTION_DAYS * DAY_MS);
      } catch (error) {
        this.onError(error);
      }
    })();
    await this.running;
    this.running = undefined;
    return deleted;
  }
}
