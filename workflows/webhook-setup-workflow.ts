import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { serviceCallOptions } from './activity-options.js';
import type { WebhookSetupInput, WebhookSetupResult } from './types.js';

const { registerWebhook, subscribeWebhookEvent } = proxyActivities<Activities>(serviceCallOptions);

/**
 * Registers the receiver once and subscribes each event. The service has no way to list endpoints, so the starter
 * passes the endpoint an earlier setup returned (`existing`); then nothing is registered again and only events not
 * yet subscribed are, which makes re-running it change nothing.
 */
export async function webhookSetupWorkflow(input: WebhookSetupInput): Promise<WebhookSetupResult> {
  const reuse = input.existing && input.existing.url === input.url ? input.existing : undefined;
  let endpoint = reuse ?? (await registerWebhook(input.url));
  const subscribed: string[] = [];
  for (const event of input.events) {
    if (endpoint.events.includes(event)) continue;
    endpoint = await subscribeWebhookEvent(endpoint.endpointId, event);
    subscribed.push(event);
  }
  return {
    endpointId: endpoint.endpointId,
    url: endpoint.url,
    events: endpoint.events,
    registered: !reuse,
    subscribed,
  };
}
