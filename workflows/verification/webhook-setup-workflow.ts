import { proxyActivities } from '@temporalio/workflow';
import type { VerificationActivities } from './activities.js';
import { deadlineCallOptions } from '../shared/activity-options.js';
import { simpleDetails } from './current-details.js';
import { Progress } from './progress.js';
import { activitySummary } from './summaries.js';
import type { WebhookSetupInput, WebhookSetupResult } from './verification.js';

const { registerWebhook, subscribeWebhookEvent } = proxyActivities<VerificationActivities>(deadlineCallOptions);

/**
 * Registers the receiver once and subscribes each event. The service has no way to list endpoints, so the starter
 * passes the endpoint an earlier setup returned (`existing`); then nothing is registered again and only events not
 * yet subscribed are, which makes re-running it change nothing.
 */
export async function webhookSetupWorkflow(input: WebhookSetupInput): Promise<WebhookSetupResult> {
  let heading = 'Setting up the webhook';
  const progress = new Progress((step) => simpleDetails(heading, step));
  const call = (summary: string) => {
    progress.at({ doing: summary });
    return { summary };
  };
  const reuse = input.existing && input.existing.url === input.url ? input.existing : undefined;
  let endpoint =
    reuse ?? (await registerWebhook.executeWithOptions(call(activitySummary.registerWebhook(input.url)), [input.url]));
  const subscribed: string[] = [];
  for (const event of input.events) {
    if (endpoint.events.includes(event)) continue;
    const options = call(activitySummary.subscribeWebhookEvent(endpoint.endpointId, event));
    endpoint = await subscribeWebhookEvent.executeWithOptions(options, [endpoint.endpointId, event]);
    subscribed.push(event);
  }
  heading = `Webhook ${endpoint.endpointId} subscribed to ${endpoint.events.length} events`;
  progress.at(undefined);
  return {
    endpointId: endpoint.endpointId,
    url: endpoint.url,
    events: endpoint.events,
    registered: !reuse,
    subscribed,
  };
}
