interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * A token bucket per client id: `burst` calls at once, then `ratePerSecond` sustained. The spec shows only that a
 * limit exists; the threshold is configuration.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** 0 when the call may proceed (it takes a token), else the whole seconds (>= 1) until a token is available. */
  take(clientId: string): number {
    const now = this.nowMs();
    const bucket = this.buckets.get(clientId) ?? { tokens: this.burst, updatedMs: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.ratePerSecond);
    bucket.updatedMs = now;
    this.buckets.set(clientId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }

  reset(): void {
    this.buckets.clear();
  }
}
