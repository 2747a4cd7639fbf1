import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { readQueueDispatch } from '../../src/temporal/task-queue-rate.js';
import { SLOW_START_REASON } from '../../workflows/governor/governor.js';

/** A verification's calls to the service before it is created: its payer's lookup, then its creation. */
const CALLS_PER_VERIFICATION = 2;
/**
 * Starts run this much faster than the service can create verifications: the queue always holds calls ready for the
 * rate, while the rows not yet started wait in their page, where a cancel still stops them.
 */
const START_LEAD = 1.25;
/**
 * In the governor's slow start the rate is a probe, doubled before anything shows the service takes it. Starts then
 * fill it and no more: that is what the governor must see to double it again (80% of it filled). A lead above 1 on a
 * probe asks for more starts than a worker can make while it calls: the calls stay under the limit, so no 429 finds
 * it until every row has started.
 */
const SLOW_START_LEAD = 1;
/**
 * Starts hold while more activity tasks than this many seconds of calls at the rate wait in the queue. Led by
 * `START_LEAD`, a long batch's queue grows without end, and rows in the queue cost the server more than rows in their
 * page (each task written and read back) and cannot be stopped by a cancel. Ten seconds, because the server's count is
 * up to about 6 s old (its stats cache) and read every 2 s: a hold that began on an old count still leaves the queue
 * seconds of calls, so it never runs dry.
 */
const MAX_BACKLOG_SECONDS = 10;
/**
 * In a slow start, this many: the probe is not yet known to be what the calls can reach. When the worker's CPU holds
 * the calls below the probe, the probe's seconds of calls pile up in the queue, and a crowded queue costs the server
 * more CPU per verification, so less of the limit is used. Fewer seconds than `MAX_BACKLOG_SECONDS` are safe here
 * although the count is 6 s old: at lead 1 the pace refills the queue twice as fast as such calls drain it.
 */
const SLOW_START_BACKLOG_SECONDS = 4;
/** A rate read stands this long: the governor moves it at most every second or so, and a read is a call to Temporal. */
const RATE_FRESH_MS = 2000;
/** Starts allowed at once after a pause: this many seconds of the pace, so the first calls do not wait for starts. */
const BURST_SECONDS = 2;
/** And never fewer than this, so a small batch (a clinic's 10 rows) starts at once whatever the rate. */
const MIN_BURST = 16;

/** The task queue's governed rate, in calls a second, whether it is a slow start's probe, and its backlog. */
export interface PaceRate {
  /** Undefined while the queue has none set: the pace's `fallbackRps` applies. */
  rps: number | undefined;
  slowStart?: boolean;
  /** Activity tasks waiting in the queue (unknown: starts never hold for it). */
  backlog?: number;
}

export interface StartPaceOptions {
  /** The task queue's activity dispatch rate (the governor's, or none set yet: undefined). */
  readRate: () => Promise<PaceRate | undefined>;
  /** The rate the workers ask for while the queue's config has none: ELIGIBILITY_MAX_RPS, else the governor's start. */
  fallbackRps: number;
  now?: () => number;
  wait?: (ms: number) => Promise<void>;
}

/**
 * How fast one worker's batches start their rows: `START_LEAD` times the verifications the service can take at the
 * task queue's governed rate, following that rate as the governor moves it. Rows started as fast as Temporal takes
 * them keep the server busy with starts, which slows its dispatch of the calls already started below the rate. Rows
 * gain nothing by waiting in the task queue instead of their page, where a cancel still stops them. A token bucket:
 * `take()` resolves in turn, once a start is due.
 */
export class StartPace {
  private readonly readRate: () => Promise<PaceRate | undefined>;
  private readonly fallbackRps: number;
  private readonly now: () => number;
  private readonly wait: (ms: number) => Promise<void>;
  private rate: PaceRate | undefined;
  private rateReadAtMs = Number.NEGATIVE_INFINITY;
  private tokens = 0;
  private refilledAtMs: number | undefined;
  private readonly waiting = new Map<string, { pass: number; weight: number; waiters: (() => void)[] }>();
  private virtualTime = 0;
  private serving = false;

  constructor(options: StartPaceOptions) {
    this.readRate = options.readRate;
    this.fallbackRps = options.fallbackRps;
    this.now = options.now ?? (() => performance.now());
    this.wait = options.wait ?? ((ms) => sleep(ms));
  }

  /** Starts a second at the current rate (after the last read of it). */
  get startsPerSecond(): number {
    const { rps, slowStart } = this.current;
    return (rps / CALLS_PER_VERIFICATION) * (slowStart ? SLOW_START_LEAD : START_LEAD);
  }

  /** Whether the queue, at the last read, held more calls than `MAX_BACKLOG_SECONDS` of its rate (or the slow start's). */
  get holding(): boolean {
    const { rps, slowStart, backlog = 0 } = this.current;
    return backlog > rps * (slowStart ? SLOW_START_BACKLOG_SECONDS : MAX_BACKLOG_SECONDS);
  }

  /** The last rate read, `fallbackRps` standing for one not read or not set. */
  private get current(): PaceRate & { rps: number } {
    return { ...this.rate, rps: this.rate?.rps ?? this.fallbackRps };
  }

  /**
   * Resolves when the caller's start is due. Tenants (`fairnessKey`, as their verifications' priority has it; none is
   * one key of its own) share the pace by weight, as Temporal's fairness shares the queue: a clinic's 10,000 rows
   * waiting here do not hold back another's 100. Within a tenant, in the order asked.
   */
  take(fairnessKey = '', weight = 1): Promise<void> {
    return new Promise((resolve) => {
      let tenant = this.waiting.get(fairnessKey);
      if (!tenant) {
        // A tenant that was not waiting gets no credit for the time it was away.
        tenant = { pass: this.virtualTime, weight, waiters: [] };
        this.waiting.set(fairnessKey, tenant);
      }
      tenant.weight = weight;
      tenant.waiters.push(resolve);
      if (!this.serving) void this.serve();
    });
  }

  /** Hands out starts as they fall due, each to the waiting tenant furthest behind its share (start-time fair queuing). */
  private async serve(): Promise<void> {
    this.serving = true;
    try {
      while (this.waiting.size > 0) {
        await this.due();
        const [key, next] = [...this.waiting].reduce((a, b) => (b[1].pass < a[1].pass ? b : a));
        this.virtualTime = next.pass;
        next.pass += 1 / next.weight;
        next.waiters.shift()?.();
        if (next.waiters.length === 0) this.waiting.delete(key);
      }
    } finally {
      this.serving = false;
    }
  }

  private async due(): Promise<void> {
    for (;;) {
      await this.refreshRate();
      const now = this.now();
      if (this.holding) {
        await this.wait(Math.max(1, this.rateReadAtMs + RATE_FRESH_MS - now));
        // No credit built while holding: the starts resume at the pace, not in a burst onto a queue just drained.
        this.tokens = 0;
        this.refilledAtMs = this.now();
        continue;
      }
      const burst = Math.max(MIN_BURST, this.startsPerSecond * BURST_SECONDS);
      const elapsedMs = this.refilledAtMs === undefined ? Number.POSITIVE_INFINITY : now - this.refilledAtMs;
      this.tokens = Math.min(burst, this.tokens + (elapsedMs * this.startsPerSecond) / 1000);
      this.refilledAtMs = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      // Waits at most until the rate is read again: a raise applies to the starts already waiting.
      await this.wait(Math.min(RATE_FRESH_MS, ((1 - this.tokens) * 1000) / this.startsPerSecond));
    }
  }

  private async refreshRate(): Promise<void> {
    const now = this.now();
    if (now - this.rateReadAtMs < RATE_FRESH_MS) return;
    this.rateReadAtMs = now;
    // Temporal unreachable for a read: the last rate stands (the starts themselves will say if it is down).
    this.rate = await this.readRate().catch(() => this.rate && { ...this.rate, backlog: undefined });
  }
}

/**
 * The start pace of a worker on `taskQueue`: its governed rate as the queue's config holds it, and its backlog (a
 * describe, not a billed action), or `fallbackRps` until the governor has set a rate.
 */
export function queueStartPace(client: Client, taskQueue: string, fallbackRps: number): StartPace {
  return new StartPace({
    readRate: async () => {
      const { rate, backlog } = await readQueueDispatch(client, taskQueue);
      return { rps: rate?.rps, slowStart: rate?.reason === SLOW_START_REASON, backlog };
    },
    fallbackRps,
  });
}
