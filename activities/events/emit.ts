import type { FirstDeliveries } from '../../src/events/first-deliveries.js';
import type { EventOutbox } from '../../src/events/outbox.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
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

/** How long an activity waits for the event it brought about to be kept before leaving it to its workflow. */
export const KEEP_AHEAD_TIMEOUT_MS = 5_000;

/**
 * Keeps, from the activity that brought it about, an event its workflow made ahead (decision 62), with what the
 * activity learned filled in. False when the database did not take it in time: the workflow's local activity then
 * keeps it under the same id, and is retried until the database is back.
 */
export async function keepAhead(emit: EmitActivities, event: OutboundEvent, timeoutMs = KEEP_AHEAD_TIMEOUT_MS) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const kept = emit.emitEvent({ event: { ...event, timestamp: new Date().toISOString() } }).then(() => true);
    return await Promise.race([kept, late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
