import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RunUpdateResponse } from '../../src/contract/index.js';
import type {
  DiscoveryHandout,
  DiscoveryRegistration,
  DiscoveryWaiter,
  DiscoveryUpdated,
  ReviewAnswer,
  ReviewDecision,
  RunAwaitingInput,
  SupplyRunInput,
  VerificationStatus,
} from './types.js';

// Defined once, used by the workflows and by every client (webhook receiver, intake API, CLI, tests).

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
/** The webhook receiver or an operator: a run of this verification awaits callback input. */
export const runAwaitingInputSignal = defineSignal<[RunAwaitingInput]>('runAwaitingInput');
/** Run input from Temporal UI, which sends signals only; a rejection shows in `status().lastError`. */
export const runInputSignal = defineSignal<[SupplyRunInput]>('runInput');
export const cancelSignal = defineSignal<[{ reason?: string }?]>('cancel');

/** Run input with an answer: the service's `{flowRunId, status}`, or a failure naming the bad `param`. */
export const supplyRunInputUpdate = defineUpdate<RunUpdateResponse, [SupplyRunInput]>('supplyRunInput');

/**
 * A person's decision on a v1 creation in `needs-review` (retry, record the verification id found, or abandon). The
 * validator refuses a verification not awaiting review and a malformed decision before anything is recorded.
 */
export const resolveReviewUpdate = defineUpdate<ReviewAnswer, [ReviewDecision]>('resolveReview');
/** The same decision from Temporal UI, which sends signals only; a rejection shows in `status().lastError`. */
export const reviewDecisionSignal = defineSignal<[ReviewDecision]>('reviewDecision');

export const statusQuery = defineQuery<VerificationStatus>('status');

/**
 * The front desk's wait (`Prefer: wait`, `eligibility start --wait`): completes with the status once the verification
 * is settled (`isSettled`). One update instead of polling the status query, each poll of which a worker answers.
 */
export const awaitSettledUpdate = defineUpdate<VerificationStatus>('awaitSettled');
