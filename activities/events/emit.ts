import type { FirstDeliveries } from '../../src/events/first-deliveries.js';
import type { EventOutbox } from '../../src/events/outbox.js';
import type { EmitActivities } from '../../workflows/shared/event-emitter.js';

/**
 * The local activity every workflow emits its events with (decision 60): the event is kept and queued for
 * its tenant's endpoints before the workflow task completes, and its first attempts begin at once in this process.
 * Without a database (no endpoint can exist) it does nothing.
 */
export function createEmitActivities(events?: { outbox: EventOutbox; first: FirstDeliveries }): EmitActivities {
  return {
    async emitEvent({ event }): Promise<void> {
      if (!events) return;
      const kept = await events.outbox.enqueue(event);
      events.first.take(kept.event, kept.targets);
    },
  };
}
