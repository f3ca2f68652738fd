/**
 * The ingest token bucket (api.md §1.8): capacity = rate = SVC_INGEST_RPS, starts full, refills
 * continuously; each request costs one token. Shared by every HTTP ingest route and gRPC.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = ratePerSecond;
    this.last = now();
  }

  tryTake(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.ratePerSecond, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
