import type { LocalActivityOptions } from '@temporalio/workflow';

/**
 * The refresh's calls to Temporal (visibility lists and counts, signals to patients), as local activities: they are
 * not service calls, so they do not wait behind the task queue's governed rate. Every one is idempotent (a patient
 * refuses a repeated ask), so a retry repeats nothing.
 */
export const refreshActivityOptions: LocalActivityOptions = {
  startToCloseTimeout: '2 minutes',
  // Temporal unreachable: retried until it is back.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
