import type { OutboundEvent } from '../shared/event-catalogue.js';
import type { DeliveryResult } from './events.js';

/** Why the dispatcher stops delivering to an endpoint. */
export type DisableReason = 'gone' | 'failing';

/** A first attempt's outcome: `skipped` when the endpoint was deleted or disabled meanwhile (nothing to deliver). */
export type FirstAttempt = 'delivered' | 'failed' | 'gone' | 'skipped';

/** The activities a tenant's event dispatcher calls (implemented in activities/events/), on the events task queue. */
export interface EventActivities {
  /** Signs and POSTs one event to one endpoint, recording the attempt; throws to be retried. */
  deliverEvent(input: { endpointId: string; event: OutboundEvent }): Promise<DeliveryResult>;
  /**
   * The first attempts at several events for one endpoint, side by side and recorded in one statement; never throws
   * for an answer and is not retried: each failed event goes on in its own `deliverEvent`.
   */
  deliverFirst(input: { endpointId: string; events: OutboundEvent[] }): Promise<FirstAttempt[]>;
  /** Disables the endpoint (status, reason, log line, metric) and keeps what it will not get, for redelivery. */
  /** `at`: when the failure was seen; an endpoint changed since (re-enabled) is not disabled for it. */
  disableEndpoint(input: {
    endpointId: string;
    reason: DisableReason;
    undelivered: OutboundEvent[];
    at?: number;
  }): Promise<void>;
  /** Keeps events an endpoint will not get now (it was disabled or deleted), for redelivery. */
  recordUndelivered(input: { endpointId: string; events: OutboundEvent[] }): Promise<void>;
}
