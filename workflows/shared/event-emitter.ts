import { proxyLocalActivities, uuid4 } from '@temporalio/workflow';
import type { EventData, EventType, OutboundEvent } from './event-catalogue.js';
import { DEFAULT_EVENT_TENANT } from './search-attributes.js';

/** The local activity events are emitted with (activities/events/emit.ts), on every worker of the service's queue. */
export interface EmitActivities {
  /**
   * Keeps the event and queues it in the outbox for the tenant's endpoints (docs/developing/event-delivery.md); the
   * workers deliver it from there.
   */
  emitEvent(input: { event: OutboundEvent }): Promise<void>;
}

const { emitEvent } = proxyLocalActivities<EmitActivities>({
  startToCloseTimeout: '10 seconds',
  // The database unreachable: tried again until it is back (the workflow goes on meanwhile, and waits before it closes).
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
  summary: 'emit an event',
});

/**
 * How a verification, a batch or a patient tells its tenant's endpoints what happened (decision 80): a local activity
 * per event keeps it in the outbox, in order, before the workflow task completes; the workers deliver it from there.
 * Nothing waits for an endpoint: the workflow goes on at once, and before it closes it waits only for the last event to
 * be kept.
 */
export class EventEmitter {
  private chain: Promise<void> = Promise.resolve();
  readonly tenant: string;

  constructor(tenant: string | undefined) {
    this.tenant = tenant ?? DEFAULT_EVENT_TENANT;
  }

  /** The event as kept: its id is seeded from the run's, so a replay makes the same id (the receiver's `webhook-id`). */
  make(type: EventType, data: EventData, self: string): OutboundEvent {
    return {
      id: `evt_${uuid4().replaceAll('-', '')}`,
      type,
      timestamp: new Date().toISOString(),
      tenant: this.tenant,
      data,
      links: { self },
    };
  }

  emit(type: EventType, data: EventData, self: string): void {
    this.keep(this.make(type, data, self));
  }

  /** Keeps an event made with `make`, after every event emitted before it. */
  keep(event: OutboundEvent): void {
    // One after the other: the outbox keeps a verification's events in the order they happened.
    this.chain = this.chain.then(async () => {
      try {
        await emitEvent({ event });
      } catch {
        // Retried until kept: only the workflow's own end stops it, and then there is nothing left to order.
      }
    });
  }

  /** Resolves once every event emitted so far is kept. */
  kept(): Promise<void> {
    return this.chain;
  }
}
