import { EligibilityError, NetworkError, RateLimitError, ServerError } from '../src/client/index.js';

/** A worker's service-call outcomes since it last reported (workflows/governor/governor.ts `OutcomeReport`). */
export interface OutcomeCounts {
  answered: number;
  failed: number;
  rateLimited: number;
  retryAfterMs: number;
}

// A 429 is reported within 100 ms: a floor of a second would understate the rate served before it several times over.
const MIN_INTERVAL_MS = 250;

const zero = (): OutcomeCounts => ({ answered: 0, failed: 0, rateLimited: 0, retryAfterMs: 0 });

/**
 * The outcomes of this worker's service calls, counted in memory by the activities and drained by the governor's
 * reporter (workers/governor-reporter.ts) once per interval: the governor hears one aggregated report per worker per
 * interval, never one message per call (each message is a billed action).
 */
export class CallOutcomes {
  private counts = zero();
  private sinceMs: number;

  constructor(private readonly nowMs: () => number = Date.now) {
    this.sinceMs = nowMs();
  }

  /** One call's outcome: `undefined` when it succeeded, else the client's error (anything else is not a call). */
  record(err?: unknown): void {
    // A cancellation or a bug is not something the service said.
    if (err !== undefined && !(err instanceof EligibilityError)) return;
    // An interval starts at its first call: idle time (a worker starting, a quiet night) is not a slow service.
    if (this.counts.answered + this.counts.rateLimited === 0) this.sinceMs = this.nowMs();
    if (err instanceof RateLimitError) {
      this.counts.rateLimited += 1;
      this.counts.retryAfterMs = Math.max(this.counts.retryAfterMs, err.retryAfterMs ?? 0);
      return;
    }
    this.counts.answered += 1;
    if (err instanceof ServerError || err instanceof NetworkError) this.counts.failed += 1;
  }

  get pending(): Readonly<OutcomeCounts> {
    return this.counts;
  }

  /** The counts since the last take, and over how long; the counting starts again from zero. */
  take(): { counts: OutcomeCounts; intervalMs: number } {
    const now = this.nowMs();
    // A floor: a report of a few calls made within milliseconds is no rate of thousands a second.
    const taken = { counts: this.counts, intervalMs: Math.max(MIN_INTERVAL_MS, now - this.sinceMs) };
    this.counts = zero();
    this.sinceMs = now;
    return taken;
  }

  /** Puts back counts whose report could not be sent (Temporal unreachable): the next report carries them. */
  restore(taken: { counts: OutcomeCounts; intervalMs: number }): void {
    const c = this.counts;
    this.counts = {
      answered: c.answered + taken.counts.answered,
      failed: c.failed + taken.counts.failed,
      rateLimited: c.rateLimited + taken.counts.rateLimited,
      retryAfterMs: Math.max(c.retryAfterMs, taken.counts.retryAfterMs),
    };
    this.sinceMs -= taken.intervalMs;
  }
}
