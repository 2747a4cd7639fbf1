import { defineSignal } from '@temporalio/workflow';
import type { OutboundEvent } from '../shared/event-catalogue.js';

/*
 * The events family's vocabulary. Events are delivered from the outbox by the workers (src/events/delivery); a
 * workflow only keeps its events there (shared/event-emitter.ts). What remains here is how earlier versions' tenant
 * dispatchers hand over what they hold (decision 80): their input, carried across continue-as-new, and the signals
 * their workers still send.
 */

/** A delivery an earlier dispatcher held: `firstAttemptAt` (epoch ms) is when its retry window began. */
export interface PendingDelivery {
  endpointId: string;
  event: OutboundEvent;
  firstAttemptAt?: number;
}

/** Bookkeeping an earlier dispatcher owed: events an endpoint will not get now, or the endpoint's disabling. */
export interface Chore {
  endpointId: string;
  events: OutboundEvent[];
  reason?: 'gone' | 'failing';
  /** With a reason: when the failure that disables the endpoint was seen (epoch ms). */
  at?: number;
}

/** An earlier dispatcher's input; `carried` is what its previous run held when it continued as new. */
export interface DispatcherInput {
  tenant: string;
  shard?: number;
  carried?: {
    pending: PendingDelivery[];
    chores?: Chore[];
  };
}

/** Events for one endpoint, signalled by an earlier version's worker (a failed first attempt, a sweep). */
export interface Redelivery {
  endpointId: string;
  events: OutboundEvent[];
  handedOver?: boolean;
}

/** What a dispatcher hands over to the outbox in one activity. */
export interface Handover {
  pending: PendingDelivery[];
  /** Events signalled with no endpoint: queued for every active endpoint of their tenant that takes them. */
  emitted: OutboundEvent[];
  chores: Chore[];
}

/** The activity a dispatcher hands over with (activities/events/), on the events task queue. */
export interface EventActivities {
  /** Queues the deliveries in the outbox (their retry windows kept) and does the bookkeeping; idempotent. */
  takeOver(handover: Handover): Promise<void>;
}

// Signals an earlier version's worker or verification sends a tenant's dispatcher. Its endpoint list (`endpoints`) is
// no longer needed: the outbox reads the endpoints when it queues.
export const eventSignal = defineSignal<[OutboundEvent]>('event');
export const endpointsSignal = defineSignal<[unknown]>('endpoints');
export const redeliverSignal = defineSignal<[Redelivery]>('redeliver');
