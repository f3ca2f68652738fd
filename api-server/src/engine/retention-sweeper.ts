/**
 * Deletes what aged out of the retention table (model/retention.ts, analytics.md §11): each KPI
 * history tier, capped by `storage.retention.kpis_days`, the raw 15-second metric means, anomalies
 * and explain records. Runs in the background every `everyMs`.
 */
import { EVENT_RETENTION_MS, HISTORY_TIERS, RAW_RETENTION_MS, tierRetentionMs } from '../model/retention.js';
import type { AnalysisStore } from '../storage/analysis-store.js';

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
        for (const spec of HISTORY_TIERS) deleted += await this.store.expire(spec.tier, now - tierRetentionMs(spec, this.kpiRetentionDays));
        await this.store.expireRaw(now - RAW_RETENTION_MS);
        await this.store.expireAnomalies(now - EVENT_RETENTION_MS);
        await this.store.expireRuptures(now - EVENT_RETENTION_MS);
      } catch (error) {
        this.onError(error);
      }
    })();
    await this.running;
    this.running = undefined;
    return deleted;
  }
}
