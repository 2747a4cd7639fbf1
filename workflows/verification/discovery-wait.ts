import { condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { VerificationActivities } from './activities.js';
import type { Discovery } from '../../src/contract/index.js';
import { verificationCallOptions, type CallPolicy } from '../shared/activity-options.js';
import { quietProgress, type ProgressReport } from './progress.js';
import { activitySummary } from './summaries.js';
import { ms, type Timing } from '../shared/timing.js';
import {
  discoveryHandoutSignal,
  type DiscoveryHandout,
  type DiscoverySummary,
  type LastError,
} from './verification.js';
import { code, instant } from '../shared/ui-text.js';

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
    const deadline = Date.now() + ms(timing.discoveryDeadlineSeconds);
    const summary = activitySummary.registerDiscoveryWaiter(discoveryId);
    this.progress.at({ doing: summary });
    const ownerTiming = {
      pollInitialSeconds: timing.pollInitialSeconds,
      pollMaxSeconds: timing.pollMaxSeconds,
      discoveryDeadlineSeconds: timing.discoveryDeadlineSeconds,
    };
    const registration = await registerDiscoveryWaiter.executeWithOptions({ summary }, [
      discoveryId,
      workflowInfo().workflowId,
      ownerTiming,
      policy,
    ]);
    this.handout ??= registration.handout;
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
