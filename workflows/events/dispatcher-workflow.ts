import { allHandlersFinished, condition, makeContinueAsNewFunc } from '@temporalio/workflow';
import { ON_CURRENT_VERSION, shouldContinueAsNew } from '../shared/continue-as-new.js';
import { Dispatcher } from './dispatcher-record.js';
import type { DispatcherInput } from './events.js';

export { deliveryOptions } from './delivery-options.js';

/**
 * One of a tenant's event dispatchers (docs/integrating/events.md): verifications, batches and patients signal it their
 * events (each to the dispatcher of its shard, `dispatcherOf`), the intake API its active endpoints; it queues each
 * event for every endpoint that takes it and delivers each with one activity on the events task queue, whose retry
 * policy (growing intervals for the window) is Temporal's, so a failing endpoint costs no timer and holds up nothing
 * but its own queue. It waits with no timer, and continues as new, carrying its queues, before its history grows long
 * or when the deployment's current version changes; with no endpoint and nothing to deliver it ends (the next
 * endpoint's signal-with-start begins it again).
 */
export async function eventDispatcherWorkflow(input: DispatcherInput): Promise<void> {
  const dispatcher = new Dispatcher(input);
  const { book } = dispatcher;
  const dueToContinue = () => shouldContinueAsNew(input.policy.continueAfterEvents);
  for (;;) {
    dispatcher.startDeliveries();
    if (dispatcher.idle) {
      await condition(allHandlersFinished);
      // A signal that came with the last task (an endpoint created meanwhile) keeps it going.
      if (book.isEmpty()) return;
      continue;
    }
    if (dueToContinue()) break;
    await condition(() => dispatcher.choresDue || book.hasStartable() || book.isEmpty() || dueToContinue());
  }
  const carried = await dispatcher.carry();
  // On the events queue: a dispatcher an earlier version started on the verifications' queue moves there now.
  await makeContinueAsNewFunc<typeof eventDispatcherWorkflow>({
    ...ON_CURRENT_VERSION,
    taskQueue: dispatcher.nextPolicy.taskQueue,
  })({ ...input, policy: dispatcher.nextPolicy, carried });
}
