import { orderKey, type OutboundEvent } from '../shared/event-catalogue.js';
import { defineQuery, defineSignal } from '@temporalio/workflow';

/**
 * A tenant's events are spread over this many dispatchers by what they are about (a verification, a batch, a patient),
 * so each dispatcher takes a share of the signals and one continuing as new holds up only its share. The emitters
 * compute the same spread in workflow code: the number may grow in a new version (old emitters keep using the first
 * ones), never shrink.
 */
export const DISPATCHER_SHARDS = 8;

/**
 * A tenant's dispatcher `shard` (0 to DISPATCHER_SHARDS − 1); never PHI in its id. The first keeps the id of the one
 * dispatcher per tenant of earlier versions (`events-<tenant>`), which their verifications still signal. `~` is not
 * allowed in a tenant. Tenantless installs use `default`.
 */
export const eventDispatcherId = (tenant: string, shard = 0) =>
  shard === 0 ? `events-${tenant}` : `events-${tenant}~${shard}`;

/** Every dispatcher of a tenant's, the first first. */
export const eventDispatcherIds = (tenant: string): string[] =>
  Array.from({ length: DISPATCHER_SHARDS }, (_, shard) => eventDispatcherId(tenant, shard));

/** The shard of an ordering key (FNV-1a, so the workflow sandbox and the intake API agree without a library). */
export function dispatcherShard(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % DISPATCHER_SHARDS;
}

/** The dispatcher of a tenant's events with one ordering key (`orderKey`: a verification's workflow id, …). */
export const dispatcherFor = (tenant: string, key: string): string => eventDispatcherId(tenant, dispatcherShard(key));

/** The dispatcher that delivers an event: every event of one verification (batch, patient) goes to the same one. */
export const dispatcherOf = (event: OutboundEvent): string => dispatcherFor(event.tenant, orderKey(event));

/** A dispatcher's part of a per-endpoint bound: each gets an equal share, at least one. */
export const shardShare = (perEndpoint: number): number => Math.max(1, Math.ceil(perEndpoint / DISPATCHER_SHARDS));

/** An active endpoint as the dispatcher knows it: which events it takes. Its URL and secrets stay in the database. */
export interface DispatchEndpoint {
  id: string;
  events: string[];
}

export interface EndpointsUpdate {
  /** Epoch ms of the read: an older list than the one the dispatcher holds is ignored. */
  asOf: number;
  endpoints: DispatchEndpoint[];
  /** The configuration's policy now: a running dispatcher takes it when it continues as new. */
  policy?: DeliveryPolicy;
}

export interface Redelivery {
  endpointId: string;
  events: OutboundEvent[];
  /**
   * Handed over by a worker whose first attempt failed (src/events/handoff.ts), not asked for by a person: bounded by
   * the endpoint's share of the queue, and kept as undelivered where the endpoint is no longer active.
   */
  handedOver?: boolean;
}

/**
 * How deliveries are tried (issue 34): each attempt at most `attemptTimeoutSeconds`, retried with growing intervals
 * (Temporal's retry policy on the delivery activity) until `windowSeconds` after the first; at most `concurrency`
 * deliveries under way per endpoint, and `maxQueued` queued, both shared equally by the tenant's dispatchers. Given as
 * the dispatcher's input, so tests shorten it.
 */
export interface DeliveryPolicy {
  taskQueue: string;
  attemptTimeoutSeconds: number;
  initialIntervalSeconds: number;
  backoffCoefficient: number;
  maximumIntervalSeconds: number;
  windowSeconds: number;
  concurrency: number;
  /**
   * Deliveries the tenant's dispatchers keep queued at most, shared equally by them and then by their endpoints; beyond an endpoint's share its events
   * are kept as undelivered (for `redeliver failedSince`). An event is about half a kilobyte, and the queues are carried
   * across continue-as-new in one payload: the bound keeps it well under Temporal's 2 MB, however many endpoints fail.
   */
  maxQueued: number;
  /** Continue as new after this many history events (the server suggests it at 4,096 anyway). */
  continueAfterEvents: number;
  /** Before continuing as new, how long deliveries under way may finish; the rest are carried and tried again. */
  drainSeconds: number;
}

export const DEFAULT_DELIVERY_POLICY: Omit<DeliveryPolicy, 'taskQueue'> = {
  attemptTimeoutSeconds: 10,
  initialIntervalSeconds: 10,
  backoffCoefficient: 2,
  maximumIntervalSeconds: 2 * 3600,
  windowSeconds: 3 * 24 * 3600,
  concurrency: 16,
  maxQueued: 2000,
  continueAfterEvents: 10_000,
  drainSeconds: 5,
};

/** Bookkeeping a dispatcher owes the database: events an endpoint will not get now, or its disabling. */
export interface Chore {
  endpointId: string;
  events: OutboundEvent[];
  reason?: 'gone' | 'failing';
  /** With a reason: when the failure that disables the endpoint was seen (epoch ms). */
  at?: number;
}

/** A delivery waiting or under way: `firstAttemptAt` (epoch ms) keeps the retry window across continue-as-new. */
export interface PendingDelivery {
  endpointId: string;
  event: OutboundEvent;
  firstAttemptAt?: number;
}

export interface DispatcherInput {
  tenant: string;
  /** Which of the tenant's dispatchers (`eventDispatcherId`); absent in runs of earlier versions: the first. */
  shard?: number;
  policy: DeliveryPolicy;
  carried?: {
    asOf: number;
    endpoints: DispatchEndpoint[];
    pending: PendingDelivery[];
    /** Bookkeeping not yet done when the run ended: events kept as undelivered, an endpoint disabled. */
    chores?: Chore[];
  };
}

export interface DispatcherStatus {
  tenant: string;
  shard: number;
  /** Deliveries under way at once per endpoint from this dispatcher, at most (its share of the policy's). */
  concurrency: number;
  endpoints: { id: string; queued: number; underWay: number }[];
}

/** The delivery activity's answer: delivered (2xx), or not tried (the endpoint is gone or disabled). */
export interface DeliveryResult {
  delivered: boolean;
  statusCode?: number;
}

/** Failure types of the delivery activity. */
export const DeliveryFailure = {
  /** 410 Gone: the receiver says the endpoint no longer exists; not retried, the endpoint is disabled. */
  Gone: 'EndpointGone',
  /** Any other answer than 2xx, a timeout, a network error: retried. */
  Failed: 'DeliveryFailed',
} as const;

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
