import { Context, type Info } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Discovery } from '../src/contract/index.js';
import { discoveryWorkflowId } from '../workflows/shared/ids.js';
import { DiscoveryId } from '../workflows/shared/search-attributes.js';
import { WorkflowType } from '../workflows/shared/workflow-types.js';
import { DiscoveryWorkflowInput, discoveryStartMetadata } from '../workflows/discovery/discovery.js';
import type { discoveryWorkflow } from '../workflows/discovery/index.js';
import { DiscoveryRegistration, registerDiscoveryWaiterUpdate } from '../workflows/verification/verification.js';

/** A run that closes between a refused start and the update is started again; more than twice is not a race. */
const ATTEMPTS = 3;

/**
 * Registers `waiterId` with `discovery-<id>`: a start that carries it when no run is open (one billed action), else
 * the registration update on the open run (one action; an update-with-start would cost both).
 */
async function register(
  client: Client,
  { taskQueue, priority }: Pick<Info, 'taskQueue' | 'priority'>,
  input: DiscoveryWorkflowInput & { waiters: string[] },
): Promise<DiscoveryRegistration> {
  const workflowId = discoveryWorkflowId(input.discoveryId);
  const [waiterId] = input.waiters;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.workflow.start<typeof discoveryWorkflow>(WorkflowType.discovery, {
        workflowId,
        taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'FAIL',
        // In its waiter's lane and tenant (decision 68): a check-in's discovery is not queued behind a batch's tasks.
        priority,
        typedSearchAttributes: [{ key: DiscoveryId, value: input.discoveryId }],
        ...discoveryStartMetadata(input),
      });
      return { looked: false };
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    try {
      return await client.workflow
        .getHandle<typeof discoveryWorkflow>(workflowId)
        .executeUpdate(registerDiscoveryWaiterUpdate, { args: [{ waiterId: waiterId! }] });
    } catch (err) {
      // The open run closed in between: start the next one.
      if (!(err instanceof WorkflowNotFoundError) || attempt >= ATTEMPTS) throw err;
    }
  }
}

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
  const { client, info, cancellationSignal } = Context.current();
  const input = { discoveryId, looked: true, waiters: [waiterId], ...(timing ? { timing } : {}) };
  // The update waits for a worker of this queue to run `discovery-<id>`: a worker shutting down (no poller left) would
  // otherwise wait with it until the activity's timeout. Cancelled, the next attempt registers again (idempotent).
  const registration = await client.withAbortSignal(cancellationSignal, () => register(client, info, input));
  if (registration.handout || registration.looked) return registration;
  // A run that has not fetched yet may have started after the look above, and after an earlier run closed with the
  // discovery complete: look again, now that any later change wakes the run this waiter is registered with.
  const again = await fetchDiscovery(discoveryId);
  return again.status === 'complete'
    ? { handout: { discoveryId, outcome: 'complete', discovery: again } }
    : registration;
}
