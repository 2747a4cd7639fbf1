import { proxyLocalActivities, uuid4 } from '@temporalio/workflow';
import type { EventData, EventType, OutboundEvent } from './event-catalogue.js';
import { DEFAULT_EVENT_TENANT } from './event-types.js';

/** The local activity events are emitted with (activities/events/emit.ts), on every worker of the service's queue. */
export interface EmitActivities {
  /**
   * Keeps the event and queues it for the tenant's endpoints (docs/integrating/events.md); their first attempts begin
   * at once.
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
 * How a verification, a batch or a patient tells its tenant's endpoints what happened (decision 60): a local
 * activity per event keeps it in the outbox, in order, before the workflow task completes, and the worker's first
 * attempt follows at once; what that does not deliver goes to the tenant's dispatchers. Nothing waits for an endpoint:
 * the workflow goes on at once, and before it closes it waits only for the last event to be kept.
 */
export class EventEmitter {
  private chain: Promise<void> = Promise.resolve();
  /** Events emitted and not kept yet. */
  private unkept = 0;
  readonly tenant: string;

  constructor(tenant: string | undefined) {
    this.tenant = tenant ?? DEFAULT_EVENT_TENANT;
  }

  /**
   * The event as it is kept; its id is the run's next unless it is one made ahead (decision 62: an activity was to keep
   * that one and did not).
   */
  make(type: EventType, data: EventData, self: string, id?: string): OutboundEvent {
    return {
      // Seeded from the run's id: a replay makes the same id, so a redelivery is recognised by its `webhook-id`.
      id: id ?? `evt_${uuid4().replaceAll('-', '')}`,
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

  /** Keeps an event made with `make` (one an activity was to keep and did not). */
  keep(event: OutboundEvent): void {
    this.unkept += 1;
    // One after the other: the outbox keeps a verification's events in the order they happened.
    this.chain = this.chain.then(async () => {
      try {
        await emitEvent({ event });
      } catch {
        // Retried until kept: only the workflow's own end stops it, and then there is nothing left to order.
      } finally {
        this.unkept -= 1;
      }
    });
  }

  /** No event is still on its way to the outbox: one kept elsewhere now cannot overtake an earlier one. */
  get idle(): boolean {
    return this.unkept === 0;
  }

  /** Resolves once every event emitted so far is kept. */
  kept(): Promise<void> {
    return this.chain;
  }
}
