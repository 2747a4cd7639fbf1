import type { ActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from './failure-types.js';

/**
 * Options of every activity that calls the eligibility service. Temporal is the only retry layer (the HTTP client
 * runs with `retry: 0`), so these numbers are the whole retry behaviour.
 */
export const serviceCallOptions: ActivityOptions = {
  // One attempt is one HTTP call with a 10 s client timeout; 30 s lets the server notice a lost worker quickly.
  startToCloseTimeout: '30 seconds',
  // Bounds all attempts including time queued behind the task-queue rate limit; the workflow's own deadlines are
  // the business limit, this only stops a call from retrying for ever against a service that is down.
  scheduleToCloseTimeout: '1 hour',
  retry: {
    // 429s carry their own `nextRetryDelay` (from Retry-After); this backoff covers 5xx and network errors.
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    // A few minutes at most between attempts, so a recovered service is used again soon.
    maximumInterval: '3 minutes',
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
};
