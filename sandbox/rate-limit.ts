import type { RateLimitSettings } from '../src/contract/index.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * A token bucket per client id: `burst` calls at once, then `ratePerSecond` sustained. The spec shows only that a
 * limit exists; the threshold is configuration, and `POST /sandbox/rate-limit` moves it mid-run (benchmarks and tests
 * of the traffic governor change R while calls flow).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private current: RateLimitSettings;

  constructor(
    private readonly initial: RateLimitSettings,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.current = { ...initial };
  }

  get settings(): RateLimitSettings {
    return { ...this.current };
  }

  /**
   * A new limit from now on. Each bucket keeps the tokens it holds (capped by a smaller burst), so lowering the limit
   * takes effect at once and raising it does not hand out a burst nobody earned.
   */
  update(patch: Partial<RateLimitSettings>): RateLimitSettings {
    for (const clientId of this.buckets.keys()) this.refill(clientId);
    this.current = { ...this.current, ...patch };
    for (const bucket of this.buckets.values()) bucket.tokens = Math.min(bucket.tokens, this.current.burst);
    return this.settings;
  }

  private refill(clientId: string): Bucket {
    const now = this.nowMs();
    const { ratePerSecond, burst } = this.current;
    const bucket = this.buckets.get(clientId) ?? { tokens: burst, updatedMs: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedMs) / 1000) * ratePerSecond);
    bucket.updatedMs = now;
    this.buckets.set(clientId, bucket);
    return bucket;
  }

  /** 0 when the call may proceed (it takes a token), else the whole seconds (>= 1) until a token is available. */
  take(clientId: string): number {
    const bucket = this.refill(clientId);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.current.ratePerSecond));
  }

  /** Every bucket full again, and the limit back to configuration. */
  reset(): void {
    this.buckets.clear();
    this.current = { ...this.initial };
  }
}
