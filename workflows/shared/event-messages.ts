import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { OutboundEvent } from './event-catalogue.js';
import type { DispatcherStatus, EndpointsUpdate, Redelivery } from './event-types.js';

// Messages of a tenant's event dispatcher (docs/integrating/events.md), defined once for the workflows and every
// client.

/** A verification or batch to its tenant's dispatcher: an event happened. */
export const eventSignal = defineSignal<[OutboundEvent]>('event');
/** The intake API or CLI: the tenant's active endpoints changed (signal-with-start: the first one starts it). */
export const endpointsSignal = defineSignal<[EndpointsUpdate]>('endpoints');
/** The intake API or CLI: deliver these stored events to one endpoint again (same `webhook-id`). */
export const redeliverSignal = defineSignal<[Redelivery]>('redeliver');
/** What is queued and under way per endpoint (tests, operators); a query is a billed action: not for hot paths. */
export const dispatcherStatusQuery = defineQuery<DispatcherStatus>('dispatcherStatus');
