import { setTimeout as sleep } from 'node:timers/promises';
import { EligibilityError, RateLimitError } from '../src/client/index.js';

/** How long a 429 paces this worker's calls: about the time the governor takes to cut the queue's rate. */
const BRAKE_MS = 1500;
/** Answered calls within this window make the rate the service is serving. */
const WINDOW_MS = 1000;
/** Paced at this share of that rate: under the limit, so the service's bucket refills. */
const SHARE = 0.85;
/**
 * A call waits here at most this long, about the time the governor's cut takes to land; one whose turn is further off
 * goes back to the task queue (`pass`). A brake that kept every call dispatched to it would let them go later, on top
 * of the calls the queue goes on dispatching: the worker would call faster than the queue's rate, and each 429 of
 * that surplus would cut the rate again.
 */
const MAX_HOLD_MS = 1500;
/** A call sent back is dispatched again after this long, by then at the rate the governor cut to. */
export const HELD_BACK_RETRY_MS = BRAKE_MS;

/**
 * A worker's own brake on a 429, until the traffic governor's cut reaches the task queue. The governor hears of the
 * 429 within 100 ms, but its cut takes a workflow task, a config update and the tasks already dispatched before it
 * lands: about a second in which every call above the limit is refused (a service's bucket hides for a second or two
 * that a raise passed the limit, so the rate is by then well over it). From a 429 on, this worker's calls are spaced
 * to 85% of what the service answered it over the last second, until 1.5 s pass without a 429; calls dispatched
 * meanwhile wait here, up to `MAX_HOLD_MS`, instead of being refused and retried. Per worker and in memory: nothing
 * to coordinate, and the governor still owns the rate.
 */
export class RateLimitBrake {
  private answeredAt: number[] = [];
  private until = 0;
  private spacingMs = 0;
  private nextAt = 0;

  /** `nowMs` and `wait` are the clock and the timer; tests pass their own to read the turns without waiting them. */
  constructor(
    private readonly nowMs: () => number = Date.now,
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown> = (ms, signal) =>
      sleep(ms, undefined, { signal }),
  ) {}

  /**
   * Waits for this call's turn while braking and resolves true; at once otherwise. Resolves false, at once, when its
   * turn is more than `MAX_HOLD_MS` away: the call is not made, and goes back to the task queue, where the calls beyond
   * what the service takes wait for the governed rate instead of in this worker's memory.
   */
  async pass(signal?: AbortSignal): Promise<boolean> {
    const now = this.nowMs();
    if (now >= this.until) return true;
    const at = Math.max(now, this.nextAt);
    if (at - now > MAX_HOLD_MS) return false;
    this.nextAt = at + this.spacingMs;
    if (at > now) await this.wait(at - now, signal);
    return true;
  }

  /**
   * One call's outcome, read as `CallOutcomes.record` reads it: `undefined` or a client error is an answer, a 429 a
   * refusal; anything else (a cancellation, a bug) is not the service's.
   */
  record(err?: unknown): void {
    if (err instanceof RateLimitError) this.rateLimited();
    else if (err === undefined || err instanceof EligibilityError) this.answered();
  }

  answered(): void {
    const now = this.nowMs();
    this.answeredAt.push(now);
    if (this.answeredAt.length > 64 && this.answeredAt[0]! < now - WINDOW_MS) {
      this.answeredAt = this.answeredAt.filter((t) => t >= now - WINDOW_MS);
    }
  }

  rateLimited(): void {
    const now = this.nowMs();
    const answered = this.answeredAt.filter((t) => t >= now - WINDOW_MS).length;
    // Braking already, what was answered is what the brake let through: a refusal at that pace slows it further.
    this.spacingMs = now >= this.until ? 1000 / Math.max(1, answered * SHARE) : this.spacingMs / SHARE;
    this.until = now + BRAKE_MS;
    this.nextAt = Math.max(this.nextAt, now + this.spacingMs);
  }
}
