import { Context } from '@temporalio/activity';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Discovery } from '../src/contract/index.js';
import { discoveryWorkflowId } from '../workflows/shared/ids.js';
import { registerDiscoveryWaiterUpdate } from '../workflows/shared/messages.js';
import { DiscoveryId } from '../workflows/shared/search-attributes.js';
import { discoveryStartMetadata } from '../workflows/shared/start-metadata.js';
import type { DiscoveryRegistration, DiscoveryWorkflowInput } from '../workflows/shared/types.js';
import type { discoveryWorkflow } from '../workflows/verification/index.js';
import { WorkflowType } from '../workflows/shared/workflow-types.js';

/** How the workflow SDK refuses an update that the workflow's code has no handler for (an earlier version's run). */
const NO_HANDLER = 'No registered handler for update';

/**
 * A verification's one step towards its discovery (decision 0054): a discovery already complete is answered at once,
 * without touching `discovery-<id>`; a pending one registers the verification there, starting that workflow when
 * none runs. The waiter does the looking, so a workflow this starts skips its own first look (`looked`).
 */
export async function registerDiscoveryWaiter(
  fetchDiscovery: (discoveryId: string) => Promise<Discovery>,
  discoveryId: string,
  waiterId: string,
  timing: DiscoveryWorkflowInput['timing'],
): Promise<DiscoveryRegistration> {
  const discovery = await fetchDiscovery(discoveryId);
  if (discovery.status === 'complete') return { handout: { discoveryId, outcome: 'complete', discovery } };
  const { client, info } = Context.current();
  const input: DiscoveryWorkflowInput = { discoveryId, looked: true, ...(timing ? { timing } : {}) };
  const start = new WithStartWorkflowOperation<typeof discoveryWorkflow>(WorkflowType.discovery, {
    workflowId: discoveryWorkflowId(discoveryId),
    taskQueue: info.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [{ key: DiscoveryId, value: discoveryId }],
    ...discoveryStartMetadata(input),
  });
  let registration: DiscoveryRegistration;
  try {
    registration = await client.workflow.executeUpdateWithStart(registerDiscoveryWaiterUpdate, {
      args: [{ waiterId }],
      startWorkflowOperation: start,
    });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && String(err.cause?.message).startsWith(NO_HANDLER)) {
      return { earlierOwner: true };
    }
    throw err;
  }
  if (registration.handout || registration.looked) return registration;
  // A run that has not fetched yet may have started after the look above, and after an earlier run closed with the
  // discovery complete: look again, now that any later change wakes the run this waiter is registered with.
  const again = await fetchDiscovery(discoveryId);
  return again.status === 'complete' ? { handout: { discoveryId, outcome: 'complete', discovery: again } } : registration;
}
