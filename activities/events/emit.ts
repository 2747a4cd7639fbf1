import type { EventDelivery } from '../../src/events/delivery/index.js';
import type { EmitActivities } from '../../workflows/shared/event-emitter.js';

/**
 * The local activity every workflow emits its events with: the event is kept and queued in the outbox for its tenant's
 * endpoints before the workflow task completes, and this worker's deliverer is woken. Without a database (no endpoint
 * can exist) it does nothing.
 */
export function createEmitActivities(delivery?: Pick<EventDelivery, 'emit'>): EmitActivities {
  return {
    async emitEvent({ event }): Promise<void> {
      await delivery?.emit(event);
    },
  };
}
