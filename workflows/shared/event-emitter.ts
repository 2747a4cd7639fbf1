import { getExternalWorkflowHandle, uuid4 } from '@temporalio/workflow';
import type { EventData, EventType, OutboundEvent } from './event-catalogue.js';
import { eventSignal } from './event-messages.js';
import { DEFAULT_EVENT_TENANT, dispatcherOf } from './event-types.js';

/**
 * How a verification, a batch or a patient tells its tenant's dispatcher what happened (DESIGN §14): one signal per event (one
 * billed action) to the one of the tenant's dispatchers that takes what it is about, each sent once the one before has
 * been delivered, so they arrive in order. Nothing
 * waits for them: the workflow goes on at once. A tenant with no endpoint has no dispatcher, and the signal fails: no
 * subscriber, nothing to deliver. Before it closes, the workflow waits for the last one to reach the dispatcher (a
 * signal the server has not sent yet is dropped once its sender has closed); that is one round trip to the server,
 * never a wait for an endpoint.
 */
export class EventEmitter {
  private sent: Promise<void> = Promise.resolve();
  readonly tenant: string;

  constructor(tenant: string | undefined) {
    this.tenant = tenant ?? DEFAULT_EVENT_TENANT;
  }

  emit(type: EventType, data: EventData, self: string): void {
    const event: OutboundEvent = {
      // Seeded from the run's id: a replay makes the same id, so a redelivery is recognised by its `webhook-id`.
      id: `evt_${uuid4().replaceAll('-', '')}`,
      type,
      timestamp: new Date().toISOString(),
      tenant: this.tenant,
      data,
      links: { self },
    };
    const dispatcher = getExternalWorkflowHandle(dispatcherOf(event));
    this.sent = this.sent.then(() => dispatcher.signal(eventSignal, event)).catch(() => undefined);
  }

  /** Resolves once every event emitted so far has reached the dispatcher, or found none. */
  delivered(): Promise<void> {
    return this.sent;
  }
}
