import { defineQuery, defineSignal } from '@temporalio/workflow';
import { startMetadata, type StartMetadata } from '../shared/start-metadata.js';
import type { Timing } from '../shared/timing.js';
import type { DiscoveryHandout, DiscoverySummary, LastError } from '../verification/verification.js';

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

export interface DiscoveryWorkflowResult {
  outcome: DiscoveryHandout['outcome'];
  discovery?: DiscoverySummary;
  error?: LastError;
}

/** The webhook receiver: a discovery changed; the workflow fetches it at once instead of waiting for a poll. */
export const discoveryUpdatedSignal = defineSignal<[DiscoveryUpdated]>('discoveryUpdated');
/** The verifications registered with `discovery-<id>`, in registration order (ids only, no patient data). */
export const discoveryWaitersQuery = defineQuery<string[]>('discoveryWaiters');

export function discoveryStartMetadata(input: DiscoveryWorkflowInput): StartMetadata {
  return startMetadata('Coverage discovery', { discoveryId: input.discoveryId });
}
