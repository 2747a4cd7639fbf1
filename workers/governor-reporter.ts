import type { Client } from '@temporalio/client';
import type { CallOutcomes } from '../activities/outcomes.js';
import { governorWorkflowId, outcomeReportSignal } from '../workflows/governor/governor.js';
import type { GovernorSettings, OutcomeReport } from '../workflows/governor/governor.js';
import type { governorWorkflow } from '../workflows/governor/index.js';
import { WorkflowType } from '../workflows/shared/workflow-types.js';

export interface GovernorReporterOptions {
  client: Client;
  taskQueue: string;
  /** This worker's identity in its reports. */
  workerId: string;
  /** ELIGIBILITY_MAX_RPS (null = unset: the governor discovers the limit). */
  maxRps: number | null;
  /** ELIGIBILITY_INITIAL_RPS and, in tests, shorter intervals: used only when this report starts the governor. */
  settings?: Partial<GovernorSettings>;
  /** Tests: the governor continues as new after this many events (used only when this report starts it). */
  continueAsNewAfterEvents?: number;
  outcomes: CallOutcomes;
  /** Report at least this often while calls are made (default 8 s). */
  everyMs?: number;
  /** Report sooner once this many calls were counted (default 50) ... */
  afterCalls?: number;
  /** ... but never more often than this (default 1 s), except at once (within 100 ms) after a 429. */
  minMs?: number;
  /** Report every `minMs` while this worker's call rate is this many times its last report's (default 1.3) ... */
  risingFactor?: number;
  /** ... over at least this many calls (default 10): a rate of a handful of calls is mostly noise. */
  risingCalls?: number;
  log?: (line: string) => void;
}

const TICK_MS = 100;
/**
 * After a report of a rising rate, the next ones go a second apart whatever their calls: the governor's slow start
 * steps on the demand over 2 s since a raise, and the report that shows the rise may come at the raise itself.
 */
const FOLLOW_UPS = 2;

/**
 * Sends this worker's aggregated call outcomes to its task queue's governor with signal-with-start, which starts the
 * governor if none runs (a fixed id per queue: one governor whatever the number of workers). One report per interval:
 * at least every 8 s at a steady pace, every 50 calls when calls are many, every second while the rate rises and for 2
 * s after (the governor's slow start steps on the demand over 2 s; at 16 calls a second, the report 50 calls later
 * made each step 3 s long), within 100 ms of a 429 (so a cut comes fast). A report is one billed action,
 * against the dozens of calls it covers; nothing is sent while no call is made.
 */
export class GovernorReporter {
  private timer: NodeJS.Timeout | undefined;
  private lastSentMs = Date.now();
  /** Calls per second in the last report sent (0 before the first). */
  private lastRps = 0;
  /** Reports still to send a second apart after the rate rose (the governor's step after a raise is 2 s). */
  private followUps = 0;
  private sending: Promise<void> | undefined;

  constructor(private readonly opts: GovernorReporterOptions) {}

  /** Starts the governor (an empty report) and the reporting; rejects when Temporal cannot be reached. */
  async start(): Promise<void> {
    await this.send({ counts: { answered: 0, failed: 0, rateLimited: 0, retryAfterMs: 0 }, intervalMs: 0 });
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Stops reporting after a last report of what is still counted (a worker's drain on shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sending;
    if (this.calls() > 0) await this.flush();
  }

  private calls(): number {
    const { answered, rateLimited } = this.opts.outcomes.pending;
    return answered + rateLimited;
  }

  private tick(): void {
    if (this.sending) return;
    const since = Date.now() - this.lastSentMs;
    const calls = this.calls();
    if (calls === 0) return;
    // A 429 goes at the next tick: every 100 ms the cut waits is 100 ms of calls over the limit, all refused.
    const rising =
      calls >= (this.opts.risingCalls ?? 10) &&
      calls / (since / 1000) >= (this.opts.risingFactor ?? 1.3) * this.lastRps;
    const due =
      this.opts.outcomes.pending.rateLimited > 0 ||
      (since >= (this.opts.minMs ?? 1000) &&
        (rising ||
          this.followUps > 0 ||
          calls >= (this.opts.afterCalls ?? 50) ||
          since >= (this.opts.everyMs ?? 8000)));
    if (!due) return;
    this.sending = this.flush(rising).finally(() => (this.sending = undefined));
  }

  private async flush(rising = false): Promise<void> {
    const taken = this.opts.outcomes.take();
    try {
      await this.send(taken);
      this.followUps = rising ? FOLLOW_UPS : Math.max(0, this.followUps - 1);
    } catch (err) {
      // Temporal unreachable: the counts ride on the next report.
      this.opts.outcomes.restore(taken);
      this.opts.log?.(`governor report not sent (${(err as Error).message}); retried with the next one`);
    }
  }

  private async send(taken: ReturnType<CallOutcomes['take']>): Promise<void> {
    const { client, taskQueue, workerId, maxRps, settings, continueAsNewAfterEvents } = this.opts;
    const report: OutcomeReport = { workerId, ...taken.counts, intervalMs: taken.intervalMs, maxRps };
    const { answered, rateLimited } = taken.counts;
    await client.workflow.signalWithStart<typeof governorWorkflow, [OutcomeReport]>(WorkflowType.governor, {
      workflowId: governorWorkflowId(taskQueue),
      taskQueue,
      args: [
        {
          taskQueue,
          maxRps,
          ...(settings ? { settings } : {}),
          ...(continueAsNewAfterEvents ? { continueAsNewAfterEvents } : {}),
        },
      ],
      signal: outcomeReportSignal,
      signalArgs: [report],
      // Its workflow tasks share the queue with thousands of verifications': the highest priority key, so a cut is not
      // decided behind a batch's backlog (the server's priority matcher, on with matching.enableFairness).
      priority: { priorityKey: 1 },
    });
    this.lastSentMs = Date.now();
    if (taken.intervalMs > 0) this.lastRps = (answered + rateLimited) / (taken.intervalMs / 1000);
  }
}
