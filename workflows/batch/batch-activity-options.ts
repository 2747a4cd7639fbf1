import type { ActivityOptions } from '@temporalio/workflow';

// A batch's activities call Temporal (starts, visibility counts and lists, signals), never the eligibility service.
// None is a local activity: a local activity holds its workflow task, and one of the worker's few workflow-task slots,
// until it ends, and under load even a visibility count takes seconds. They run in the batch's lane (bulk).
// Temporal unreachable: each is retried until it is back (the batch is durable; nothing is lost meanwhile).
const untilTemporalAnswers = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' };

/**
 * Starting a page's items: seconds to minutes at the start pace. It heartbeats the rows it has done, so a worker that
 * dies is noticed within the heartbeat timeout and the retry resumes where the last heartbeat left off; the
 * start-to-close bound then costs nothing but a resumption.
 */
export const pageStartOptions: ActivityOptions = {
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: untilTemporalAnswers,
};

/**
 * A look at the items' counts or at whether the batch exists, a resubmission's chunk (a few hundred starts, unpaced),
 * a cancel's sweep (a signal to every running item).
 */
export const batchActivityOptions: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  retry: untilTemporalAnswers,
};
