import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Discovery } from '../../src/contract/index.js';
import { startMetadata, type StartMetadata } from '../shared/start-metadata.js';
import type { Timing } from '../shared/timing.js';
import type { DiscoverySummary, LastError } from '../verification/verification.js';

// The discovery family's vocabulary: `discovery-<id>` fetches and polls one discovery for every verification that
// waits on it (decision 54), and hands each of them its end. Defined once for the workflows and every client.

export interface DiscoveryUpdated {
  discoveryId: string;
  /** The webhook event's id: a repeated delivery of the same event fetches nothing more. Absent from operators. */
  eventId?: string;
}

export interface DiscoveryWorkflowInput {
  discoveryId: string;
  timing?: Partial<Pick<Timing, 'pollInitialSeconds' | 'pollMaxSeconds' | 'discoveryDeadlineSeconds'>>;
  /** Started by a waiter that fetched the discovery a moment before: no first look, the first poll comes next. */
  looked?: boolean;
  /** The waiters that started it, registered before anything else happens (a start costs no update). */
  waiters?: string[];
}

/** A verification that waits on a discovery, registering with `discovery-<id>` (its workflow id). */
export interface DiscoveryWaiter {
  waiterId: string;
}

/** What `discovery-<id>` hands every waiter once the wait ends: the discovery as last fetched (PHI: encrypted). */
export interface DiscoveryHandout {
  discoveryId: string;
  /**
   * `failed`: the service refused the fetch for good, and `error` says how. A verification of an earlier version reads
   * it as `timed-out`.
   */
  outcome: 'complete' | 'timed-out' | 'cancelled' | 'failed';
  discovery?: Discovery;
  error?: LastError;
}

/**
 * A registration's answer: the handout at once when the discovery had already ended, or nothing yet (the handout
 * follows as a signal). `looked`: this run of `discovery-<id>` has fetched the discovery since it started, so a
 * completion before the registration is not missed. `earlierOwner`: an earlier version runs it, which keeps no waiters.
 */
export interface DiscoveryRegistration {
  handout?: DiscoveryHandout;
  looked?: boolean;
  earlierOwner?: boolean;
}

export interface DiscoveryWorkflowResult {
  outcome: DiscoveryHandout['outcome'];
  discovery?: DiscoverySummary;
  error?: LastError;
}

/** The webhook receiver: a discovery changed; the workflow fetches it at once instead of waiting for a poll. */
export const discoveryUpdatedSignal = defineSignal<[DiscoveryUpdated]>('discoveryUpdated');
/**
 * A verification registers with `discovery-<id>` (update-with-start from its activity): the discovery's workflow keeps
 * the exact set of its waiters and answers with the handout at once when the discovery already ended.
 */
export const registerDiscoveryWaiterUpdate = defineUpdate<DiscoveryRegistration, [DiscoveryWaiter]>(
  'registerDiscoveryWaiter',
);
/** `discovery-<id>` to each registered verification: the discovery's end, fetched once for all of them. */
export const discoveryHandoutSignal = defineSignal<[DiscoveryHandout]>('discoveryHandout');
/** The verifications registered with `discovery-<id>`, in registration order (ids only, no patient data). */
export const discoveryWaitersQuery = defineQuery<string[]>('discoveryWaiters');

export function discoveryStartMetadata(input: DiscoveryWorkflowInput): StartMetadata {
  return startMetadata('Coverage discovery', { discoveryId: input.discoveryId });
}
