import { signalDiscoveryUpdated } from '../../src/temporal/discovery-updated.js';
import type { ActionContext, ActionReport } from './actions.js';
import type { DiscoveryEvent } from './parse-delivery.js';

/**
 * `discovery-updated`: one call, a signal-with-start of `discovery-<id>`. That workflow keeps the verifications
 * waiting on the discovery, fetches it once and hands it to each of them (decision 0054); its history records when the
 * lookup finished even when no verification waits.
 */
export async function discoveryUpdated(
  ctx: ActionContext,
  { discoveryId }: DiscoveryEvent,
  eventId: string,
): Promise<ActionReport> {
  return { signalled: [await signalDiscoveryUpdated(ctx.client, ctx.taskQueue, { discoveryId, eventId })] };
}
