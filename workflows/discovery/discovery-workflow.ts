import { ActivityFailure, condition, proxyActivities } from '@temporalio/workflow';
import type { VerificationActivities } from '../verification/activities.js';
import type { Discovery } from '../../src/contract/index.js';
import { CALL_DEADLINE_SECONDS, deadlineCallOptions } from '../shared/activity-options.js';
import { describeFailure } from '../verification/failures.js';
import { simpleDetails } from '../verification/current-details.js';
import { summarizeDiscovery } from '../verification/discovery-wait.js';
import { DiscoveryOwner } from './discovery-owner.js';
import { Progress } from '../verification/progress.js';
import { activitySummary, timerSummary } from '../verification/summaries.js';
import { code, humanDuration, instant } from '../shared/ui-text.js';
import { ms, resolveTiming } from '../shared/timing.js';
import type { DiscoveryHandout, LastError } from '../verification/verification.js';
import type { DiscoveryWorkflowInput, DiscoveryWorkflowResult } from './discovery.js';

const { fetchDiscovery } = proxyActivities<VerificationActivities>(deadlineCallOptions);

/**
 * One discovery's wait, for everyone who waits on it (docs/developing/workflows.md): the webhook receiver
 * signal-with-starts it (`discovery-<id>`) and verifications register with it. It fetches the discovery once per
 * webhook event, polls with doubling intervals when none comes, once for all its waiters, and hands the end to each of
 * them.
 */
export async function discoveryWorkflow(input: DiscoveryWorkflowInput): Promise<DiscoveryWorkflowResult> {
  const { discoveryId } = input;
  const timing = resolveTiming(input.timing);
  const owner = new DiscoveryOwner(discoveryId, Array.isArray(input.waiters) ? input.waiters : []);
  let heading = `Awaiting discovery ${code(discoveryId)}`;
  const progress = new Progress((step) => simpleDetails(`${heading} · ${owner.waiting} waiting`, step));
  const deadline = Date.now() + ms(timing.discoveryDeadlineSeconds);
  let interval = ms(timing.pollInitialSeconds);
  let last: Discovery | undefined;
  // A waiter that started this workflow has just looked, so it skips its own first look, unless the discovery's webhook
  // reached it before its first task (counted already, it would wait for a poll); the receiver's start means a change.
  let why: string | undefined = !input.looked ? 'first look' : owner.updates > 0 ? 'woken by its webhook' : undefined;
  let handout: DiscoveryHandout | undefined;
  for (let polls = 1; !handout; polls += 1) {
    // Counted before the fetch: an update that arrives while it runs fetches again.
    const seen = owner.updates;
    if (why !== undefined) {
      const fetching = activitySummary.fetchDiscovery(discoveryId, why);
      progress.at({ doing: fetching });
      owner.looks += 1;
      // A fetch never outlives the discovery's deadline, and its failure never strands the waiters (decision 71).
      const bound = Math.max(1, Math.min(ms(CALL_DEADLINE_SECONDS), deadline - Date.now()));
      try {
        last = await fetchDiscovery.executeWithOptions({ summary: fetching, scheduleToCloseTimeout: bound }, [
          discoveryId,
        ]);
      } catch (err) {
        const refused = refusal(err);
        if (refused) {
          handout = { discoveryId, outcome: 'failed', ...(last ? { discovery: last } : {}), error: refused };
          break;
        }
        // Its retries ran out (the service down for the call's whole deadline): no news. Polls and webhooks go on.
      }
      if (last?.status === 'complete') {
        handout = { discoveryId, outcome: 'complete', discovery: last };
        break;
      }
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      handout = { discoveryId, outcome: 'timed-out', ...(last ? { discovery: last } : {}) };
      break;
    }
    const wait = Math.min(interval, remaining);
    progress.at({
      doing: `waiting for the discovery: next poll in ${humanDuration(wait)}, at once on its webhook; gives up at ${instant(deadline)}`,
      until: Date.now() + wait,
    });
    const summary = timerSummary.discoveryPoll(discoveryId, wait);
    const woken = await condition(() => owner.updates > seen || owner.cancelled, wait, { summary });
    if (owner.cancelled) handout = { discoveryId, outcome: 'cancelled', ...(last ? { discovery: last } : {}) };
    if (!woken) interval = Math.min(interval * 2, ms(timing.pollMaxSeconds));
    why = woken ? 'woken by its webhook' : `poll ${polls}`;
  }
  progress.at({ doing: `handing the discovery to ${owner.waiting} waiting` });
  await owner.handOut(handout);
  const result: DiscoveryWorkflowResult = {
    outcome: handout.outcome,
    ...(handout.discovery ? { discovery: summarizeDiscovery(handout.discovery) } : {}),
    ...(handout.error ? { error: handout.error } : {}),
  };
  const found =
    result.outcome === 'complete' ? (result.discovery?.successful ? ': coverage found' : ': no coverage') : '';
  heading = `Discovery ${code(discoveryId)} ${result.outcome}${found}`;
  progress.at(undefined);
  return result;
}

/**
 * The service's refusal a retry cannot change (an unknown discovery, a malformed answer), as the waiters report it;
 * undefined for a fetch whose retries only ran out of time. Temporal's retry state says which.
 */
function refusal(err: unknown): LastError | undefined {
  if (!(err instanceof ActivityFailure) || err.retryState !== 'NON_RETRYABLE_FAILURE') return undefined;
  return describeFailure(err);
}
