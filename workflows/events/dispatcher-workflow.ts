import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { DispatcherInput, EventActivities, Handover } from './events.js';
import { endpointsSignal, eventSignal, redeliverSignal } from './events.js';

const { takeOver } = proxyActivities<EventActivities>({
  startToCloseTimeout: '1 minute',
  // The database unreachable: tried again until it is back.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  summary: 'hand over to the outbox',
});

/**
 * An earlier version's tenant dispatcher, on this version (decision 80): what it carried across continue-as-new, and
 * what an earlier version's worker still signals it, goes into the outbox, whose deliverers take it from there; then it
 * ends. Nothing starts one any more: it runs only where an earlier version's dispatcher continues as new or is signalled.
 */
export async function eventDispatcherWorkflow(input: DispatcherInput): Promise<void> {
  const held: Handover = {
    pending: [...(input.carried?.pending ?? [])],
    emitted: [],
    chores: [...(input.carried?.chores ?? [])],
  };
  setHandler(endpointsSignal, () => undefined);
  setHandler(eventSignal, (event) => void held.emitted.push(event));
  setHandler(redeliverSignal, ({ endpointId, events }) => {
    for (const event of events) held.pending.push({ endpointId, event });
  });
  for (;;) {
    if (held.pending.length + held.emitted.length + held.chores.length > 0) {
      await takeOver({
        pending: held.pending.splice(0),
        emitted: held.emitted.splice(0),
        chores: held.chores.splice(0),
      });
      continue;
    }
    await condition(allHandlersFinished);
    // A signal that came with the last task keeps it going.
    if (held.pending.length + held.emitted.length + held.chores.length === 0) return;
  }
}
