import { defineQuery, defineSignal } from '@temporalio/workflow';
/*
 * The traffic governor's shapes (docs/developing/traffic.md): what workers report, its durable state, its settings and
 * its `status` query. One governor workflow per task queue sets the queue's activity dispatch rate (the service's calls
 * per second across every worker) from the outcomes the workers' activities report.
 */

/** One worker's service-call outcomes over one interval: counts only, never a request or a patient value. */
export interface OutcomeReport {
  /** The reporting worker process (its identity); the governor keeps each worker's latest rate. */
  workerId: string;
  /** Calls the service answered with anything but a rate limit (a 4xx or 5xx counts: it was served). */
  answered: number;
  /** Of `answered`: 5xx answers and calls that got no answer; a service failing this way is not raised. */
  failed: number;
  /** Calls refused with a rate limit (429 or the spec's `Too many requests` body). */
  rateLimited: number;
  /** The longest `Retry-After` among those refusals, in ms (0 when none was given). */
  retryAfterMs: number;
  /** How long this worker counted, in ms. */
  intervalMs: number;
  /** The worker's `ELIGIBILITY_MAX_RPS` (null = unset, the limit is discovered): the ceiling the governor obeys. */
  maxRps: number | null;
}

/** How the governor's rules move the rate. Defaults in `activities/governor/aimd.ts`; tests pass small values. */
export interface GovernorSettings {
  /** The rate to start from when no limit is known (ELIGIBILITY_INITIAL_RPS); with a known limit, that limit. */
  initialRps: number;
  /** Never below this: a queue at 0 would dispatch nothing, and nothing would report that the service recovered. */
  minRps: number;
  /** A 429 multiplies the rate by this (at most: the rate that was served is lower when the service cut its limit). */
  decrease: number;
  /** Above the rate last refused, the first probe adds this share of it, and each next one twice the last. */
  probeShare: number;
  /** Before the first 429 (slow start), each raise multiplies the rate by this (at most once per `raiseEveryMs`). */
  slowStartFactor: number;
  /** The start rate is held this long from its first call before the first raise: a limit under it shows meanwhile. */
  slowStartEveryMs: number;
  /**
   * Back at the rate last refused, it stays there this long before probing above it (0: probe at once). The service's
   * bucket refills meanwhile, so a probe's 429s come only when the limit is really passed, not at every step.
   */
  probeAfterMs: number;
  /** After a cut, no raise and no second cut for this long (or the service's `Retry-After`, if longer). */
  holdMs: number;
  /** At most one raise per this long: a raise must have shown its effect before the next one (0: one per report). */
  raiseEveryMs: number;
  /** A worker's rate counts toward demand this long after its report. */
  reportFreshMs: number;
}

export interface GovernorState {
  /** The queue's activity dispatch rate, calls per second. */
  rps: number;
  /** The rate at which the service last refused calls (undefined until the first 429: still in slow start). */
  limitedAtRps?: number;
  /** Epoch ms: no change before then (after a cut). */
  holdUntilMs: number;
  /** Epoch ms of the last raise, or of the last report that stayed at the limit: raises are counted from it. */
  lastRaiseMs: number;
  /** Epoch ms from which the rate has been at the rate last refused (undefined when below it or not yet limited). */
  atLimitSinceMs?: number;
  /** Probe steps taken above the rate last refused since it was reached (each doubles the last). */
  probes?: number;
  /** Calls reported since the rate last changed (for the demand over the whole step), and how many were answered. */
  step?: { sinceMs: number; calls: number; answered?: number };
  /**
   * The rates the last two raising reports started from, in slow start or probing (oldest first): the calls a second a
   * step reached instead of its rate when they never filled it.
   */
  raisedFrom?: number[];
  /** How long the last of `raisedFrom` had held when the rate was raised from it, in ms. */
  lastRaisedFromHeldMs?: number;
  /** How long the rate stays at the limit before probing above it (undefined: `probeAfterMs`). */
  stayMs?: number;
  /** The most recent change and why, for the status. */
  lastChange?: { atMs: number; fromRps: number; reason: string };
  /** Each worker's latest calls per second (answered + rate limited) and when it reported. */
  workers: Record<string, { rps: number; servedRps: number; atMs: number }>;
  /** The ceiling workers last reported (ELIGIBILITY_MAX_RPS; null = discover). */
  maxRps: number | null;
  totals: { reports: number; calls: number; rateLimited: number; raises: number; cuts: number };
}

export interface GovernorInput {
  taskQueue: string;
  /** The ceiling when the first worker started it (later reports update it). */
  maxRps: number | null;
  /** The rules' settings, passed to each `decideRate` (tests pass small values). */
  settings?: Partial<GovernorSettings>;
  /** Continue as new after this many history events (default 2,000; tests pass a small number). */
  continueAsNewAfterEvents?: number;
  /** Carried across continue-as-new. */
  state?: GovernorState;
  /** The rate last written to the task queue's config, carried across continue-as-new. */
  appliedRps?: number;
}

/** What the governor hands its rules: its state (none yet on its first decision), the reports since, its clock. */
export interface RateDecision {
  state: GovernorState | undefined;
  maxRps: number | null;
  reports: OutcomeReport[];
  nowMs: number;
  settings?: Partial<GovernorSettings>;
}

/** A rate as the governor keeps and shows it: to the hundredth of a call a second. */
export const roundRps = (rps: number): number => Math.round(rps * 100) / 100;

/** Calls a second across the workers, each by its latest report. */
export function reportedRps(workers: GovernorState['workers']): number {
  return Object.values(workers).reduce((sum, w) => sum + w.rps, 0);
}

/** The `status` query and `eligibility governor`: the rate now, the limit it was refused at, and why it moved. */
export interface GovernorStatus {
  taskQueue: string;
  /** `known`: ELIGIBILITY_MAX_RPS is set, the rate starts there and never exceeds it; `discovering`: it is learnt. */
  mode: 'known' | 'discovering';
  rps: number;
  /** The rate last written to the task queue's config (equal to `rps` once applied). */
  appliedRps?: number;
  maxRps: number | null;
  limitedAtRps?: number;
  /** Calls per second the workers reported lately (answered and refused). */
  demandRps: number;
  workers: number;
  holdUntil?: string;
  lastChange?: { at: string; fromRps: number; reason: string };
  totals: GovernorState['totals'];
}

/** The reason the governor gives while it doubles a probe no 429 has answered; batch starts read it to hold back. */
export const SLOW_START_REASON = 'calls served, no 429 yet: slow start';

// Messages of the traffic governor (docs/developing/traffic.md), defined once for the workflow, the workers and the
// CLI.

/** The governor of a task queue: one per queue, whatever the number of workers (a fixed id; starts deduplicate). */
export const governorWorkflowId = (taskQueue: string) => `governor-${taskQueue}`;

/** A worker's aggregated call outcomes over an interval (sent with signal-with-start: one per worker per interval). */
export const outcomeReportSignal = defineSignal<[OutcomeReport]>('outcomeReport');

/** The current rate, the limit last met and the last change (a query is a billed action: for people, not polling). */
export const governorStatusQuery = defineQuery<GovernorStatus>('status');
