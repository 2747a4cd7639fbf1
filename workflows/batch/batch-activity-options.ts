import type { LocalActivityOptions } from '@temporalio/workflow';

/**
 * Options of a batch's own activities: calls to Temporal (starts, visibility counts and lists, signals), never to the
 * eligibility service. They run as local activities, in the worker that runs the batch: the task queue's rate limit
 * (ELIGIBILITY_MAX_RPS, enforced by the server on dispatched activities) is for service calls, and a batch's counts
 * waiting behind thousands of its own items' service calls would leave its progress minutes stale. Cheaper too: all
 * local activities of one workflow task are one billed action. Every one is idempotent (derived workflow ids), so a
 * retry, or a rerun after the worker died, repeats nothing.
 */
export const batchActivityOptions: LocalActivityOptions = {
  // A page starts up to a few hundred workflows; a resubmission chunk reads and starts a few hundred.
  startToCloseTimeout: '2 minutes',
  // Temporal unreachable: retried until it is back (the batch is durable; nothing is lost meanwhile).
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
