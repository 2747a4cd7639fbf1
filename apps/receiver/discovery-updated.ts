import pLimit from 'p-limit';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { discoveryUpdatedSignal } from '../../workflows/shared/messages.js';
import { DiscoveryId, VerificationStage } from '../../workflows/shared/search-attributes.js';
import { discoveryStartMetadata } from '../../workflows/shared/start-metadata.js';
import type { discoveryWorkflow } from '../../workflows/verification/index.js';
import type { DiscoveryUpdated } from '../../workflows/shared/types.js';
import { signalIfOpen, type ActionContext, type ActionReport } from './actions.js';
import type { DiscoveryEvent } from './parse-delivery.js';
import { and, is, withStatus } from '../../src/temporal/visibility-query.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';

/** Waiters signalled at once; a discovery shared by many verifications must not open hundreds of calls. */
const SIGNAL_CONCURRENCY = 16;

/**
 * `discovery-updated`: signal-with-start `discovery-<id>` (its history records when the lookup finished, even when no
 * verification waits), then wake every verification waiting on that discovery, which fetches it itself.
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

  const query = and(is(DiscoveryId, discoveryId), is(VerificationStage, 'awaiting-discovery'), withStatus('Running'));
  const waiters: string[] = [];
  for await (const info of client.workflow.list({ query })) waiters.push(info.workflowId);
  const signalled = [workflowId];
  const limit = pLimit(SIGNAL_CONCURRENCY);
  await Promise.all(
    waiters.map((id) =>
      limit(async () => {
        // A waiter that closed since the query has no use for the signal.
        if (await signalIfOpen(client, id, discoveryUpdatedSignal, update)) signalled.push(id);
      }),
    ),
  );
  return { signalled };
}
