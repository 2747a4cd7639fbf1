import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { discoveryUpdatedSignal } from '../../workflows/shared/messages.js';
import { DiscoveryId } from '../../workflows/shared/search-attributes.js';
import { discoveryStartMetadata } from '../../workflows/shared/start-metadata.js';
import type { discoveryWorkflow } from '../../workflows/verification/index.js';
import type { DiscoveryUpdated } from '../../workflows/shared/types.js';
import type { ActionContext, ActionReport } from './actions.js';
import type { DiscoveryEvent } from './parse-delivery.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';

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
  const { client, taskQueue } = ctx;
  const update: DiscoveryUpdated = { discoveryId, eventId };
  const workflowId = discoveryWorkflowId(discoveryId);
  await client.workflow.signalWithStart<typeof discoveryWorkflow, [DiscoveryUpdated]>(WorkflowType.discovery, {
    workflowId,
    taskQueue,
    args: [{ discoveryId }],
    signal: discoveryUpdatedSignal,
    signalArgs: [update],
    // Free at start; lets Temporal UI find the discovery's workflow by DiscoveryId too.
    typedSearchAttributes: [{ key: DiscoveryId, value: discoveryId }],
    ...discoveryStartMetadata({ discoveryId }),
  });
  return { signalled: [workflowId] };
}
