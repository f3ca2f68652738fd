/**
 * The ingest token bucket (api.md §1.8): capacity = rate = SVC_INGEST_RPS, starts full, refills
 * continuously; each request costs one token. Shared by every HTTP ingest route and gRPC.
 * The capacity is at least one token, so a fractional rate (0.5 → one request per 2 s) admits
 * requests instead of none.
 */
export class TokenBucket {
  private readonly capacity: number;
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, ratePerSecond);
    this.tokens = this.capacity;
    this.last = now();
  }

  tryTake(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
