import type { Client } from '@temporalio/client';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { DiscoveryId } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import {
  DiscoveryUpdated,
  discoveryStartMetadata,
  discoveryUpdatedSignal,
} from '../../workflows/discovery/discovery.js';
import type { discoveryWorkflow } from '../../workflows/discovery/index.js';

/**
 * A discovery changed (its webhook came): one signal-with-start of `discovery-<id>`, which fetches it once and hands it
 * to every verification waiting on it (decision 0054), started for it when none runs. Returns the workflow id.
 */
export async function signalDiscoveryUpdated(
  client: Client,
  taskQueue: string,
  update: DiscoveryUpdated,
): Promise<string> {
  const { discoveryId } = update;
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
  return workflowId;
}
