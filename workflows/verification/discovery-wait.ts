import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { VerificationActivities } from './activities.js';
import type { Discovery } from '../../src/contract/index.js';
import { deadlineCallOptions } from '../shared/activity-options.js';
import { discoveryUpdatedSignal } from '../shared/messages.js';
import { quietProgress, type ProgressReport } from './progress.js';
import { SeenEvents } from './seen-events.js';
import { activitySummary, timerSummary } from './summaries.js';
import { ms, type Timing } from '../shared/timing.js';
import type { DiscoverySummary } from '../shared/types.js';
import { humanDuration, instant } from '../shared/ui-text.js';

const { fetchDiscovery } = proxyActivities<VerificationActivities>(deadlineCallOptions);

export type DiscoveryWaitResult =
  { kind: 'complete'; discovery: Discovery } | { kind: 'timed-out'; discovery: Discovery } | { kind: 'stopped' };

/**
 * Waits for a discovery to complete: a `discoveryUpdated` signal (from the webhook receiver) triggers a fetch at
 * once, once per webhook event; without signals it polls with doubling intervals up to a deadline. The handler is set when the workflow
 * starts, so a signal that races ahead of the wait is counted, not lost.
 */
export class DiscoveryWatch {
  private updates = 0;

  constructor(
    private readonly discoveryId: string | undefined,
    seen: SeenEvents = new SeenEvents(),
    private readonly progress: ProgressReport = quietProgress,
  ) {
    setHandler(discoveryUpdatedSignal, ({ discoveryId, eventId }) => {
      // A repeated delivery would only fetch the same discovery again: one effect per event.
      if (discoveryId === this.discoveryId && !seen.repeated(eventId)) this.updates += 1;
    });
  }

  async wait(timing: Timing, stopped: () => boolean): Promise<DiscoveryWaitResult> {
    if (!this.discoveryId) throw new Error('DiscoveryWatch.wait needs a discoveryId');
    const deadline = Date.now() + ms(timing.discoveryDeadlineSeconds);
    let interval = ms(timing.pollInitialSeconds);
    // The first fetch comes right away: the discovery may have completed before this workflow indexed its id.
    let why = 'first look';
    for (let polls = 1; ; polls += 1) {
      const seen = this.updates;
      const fetching = activitySummary.fetchDiscovery(this.discoveryId, why);
      this.progress.at({ doing: fetching });
      const discovery = await fetchDiscovery.executeWithOptions({ summary: fetching }, [this.discoveryId]);
      if (discovery.status === 'complete') return { kind: 'complete', discovery };
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { kind: 'timed-out', discovery };
      const wait = Math.min(interval, remaining);
      const summary = timerSummary.discoveryPoll(this.discoveryId, wait);
      this.progress.at({
        doing: `waiting for the discovery: next poll in ${humanDuration(wait)}, at once on its webhook; gives up at ${instant(deadline)}`,
        until: Date.now() + wait,
      });
      const woken = await condition(() => this.updates > seen || stopped(), wait, { summary });
      if (stopped()) return { kind: 'stopped' };
      if (!woken) interval = Math.min(interval * 2, ms(timing.pollMaxSeconds));
      why = woken ? 'woken by its webhook' : `poll ${polls}`;
    }
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
