import { condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { VerificationActivities } from './activities.js';
import type { Discovery } from '../../src/contract/index.js';
import { verificationCallOptions, type CallPolicy } from '../shared/activity-options.js';
import { discoveryHandoutSignal } from '../shared/messages.js';
import { quietProgress, type ProgressReport } from './progress.js';
import { activitySummary, timerSummary } from './summaries.js';
import { ms, type Timing } from '../shared/timing.js';
import type { DiscoveryHandout, DiscoverySummary, LastError } from '../shared/types.js';
import { code, humanDuration, instant } from '../shared/ui-text.js';

// One of the verification's calls, retried within its retry window like the creation (decision 71), not for an hour.
const { registerDiscoveryWaiter } = proxyActivities<VerificationActivities>(verificationCallOptions);

export type DiscoveryWaitResult =
  | { kind: 'complete'; discovery: Discovery }
  | { kind: 'timed-out'; discovery?: Discovery }
  | { kind: 'failed'; error: LastError }
  | { kind: 'stopped' };

/**
 * A verification's wait for its discovery (decision 0054): one activity looks at the discovery and, while it is
 * pending, registers this workflow with `discovery-<id>`, which fetches and polls it once for all its waiters and
 * signals the end here. The handler is set when the workflow starts, so a handout that races ahead is kept.
 */
export class DiscoveryWait {
  private handout: DiscoveryHandout | undefined;

  constructor(
    private readonly discoveryId: string | undefined,
    private readonly progress: ProgressReport = quietProgress,
  ) {
    setHandler(discoveryHandoutSignal, (handout) => {
      if (handout.discoveryId === this.discoveryId) this.handout ??= handout;
    });
  }

  async wait(timing: Timing, policy: CallPolicy, stopped: () => boolean): Promise<DiscoveryWaitResult> {
    const discoveryId = this.discoveryId;
    if (!discoveryId) throw new Error('DiscoveryWait.wait needs a discoveryId');
    const owner = { pollInitialSeconds: timing.pollInitialSeconds, pollMaxSeconds: timing.pollMaxSeconds };
    const deadline = Date.now() + ms(timing.discoveryDeadlineSeconds);
    let interval = ms(timing.pollInitialSeconds);
    for (;;) {
      const summary = activitySummary.registerDiscoveryWaiter(discoveryId);
      this.progress.at({ doing: summary });
      const remaining = Math.max(1, deadline - Date.now()) / 1000;
      const args = [
        discoveryId,
        workflowInfo().workflowId,
        { ...owner, discoveryDeadlineSeconds: remaining },
        policy,
      ] as const;
      const registration = await registerDiscoveryWaiter.executeWithOptions({ summary }, [...args]);
      this.handout ??= registration.handout;
      if (!registration.earlierOwner || this.handout) break;
      // An earlier version's `discovery-<id>` keeps no waiters: look again on the polling schedule until it closes
      // (only while a deploy drains; its own webhook fetch closes it as soon as the discovery completes).
      const wait = Math.min(interval, deadline - Date.now());
      if (wait <= 0) return { kind: 'timed-out' };
      this.progress.at({ doing: `looking at the discovery again in ${humanDuration(wait)}`, until: Date.now() + wait });
      await condition(() => this.handout !== undefined || stopped(), wait, {
        summary: timerSummary.discoveryPoll(discoveryId, wait),
      });
      if (stopped()) return { kind: 'stopped' };
      interval = Math.min(interval * 2, ms(timing.pollMaxSeconds));
    }
    this.progress.at({
      doing: `waiting for ${code(`discovery-${discoveryId}`)} to hand the discovery over; gives up at ${instant(deadline)}`,
    });
    await condition(() => this.handout !== undefined || stopped());
    const handout = this.handout;
    if (!handout || handout.outcome === 'cancelled') return { kind: 'stopped' };
    if (handout.outcome === 'failed' && handout.error) return { kind: 'failed', error: handout.error };
    if (handout.outcome === 'complete' && handout.discovery) return { kind: 'complete', discovery: handout.discovery };
    return { kind: 'timed-out', ...(handout.discovery ? { discovery: handout.discovery } : {}) };
  }
}

/** A complete discovery with a payer and a member id found. */
export function isSuccessfulDiscovery(d: Discovery): d is Discovery & { payerName: string; memberId: string } {
  return d.status === 'complete' && d.payerName !== null && d.memberId !== null;
}

export function summarizeDiscovery(d: Discovery): DiscoverySummary {
  return {
    discoveryId: d.discoveryId,
    status: d.status,
    successful: isSuccessfulDiscovery(d),
    payerId: isSuccessfulDiscovery(d) ? d.payerId : null,
    payerName: d.payerName,
  };
}
