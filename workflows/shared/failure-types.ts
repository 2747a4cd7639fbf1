/**
 * The `type` of every ApplicationFailure an activity throws, in one list shared by activities (which throw them) and
 * workflows (which read them). Explicit strings, so a class rename or bundling never changes what a failure is.
 */
export const FailureType = {
  InvalidRequest: 'InvalidRequest',
  NotFound: 'NotFound',
  RateLimited: 'RateLimited',
  Unauthorized: 'Unauthorized',
  ServerError: 'ServerError',
  NetworkError: 'NetworkError',
  UnexpectedResponse: 'UnexpectedResponse',
  /**
   * A v1 creation that may have created a verification without telling us: never retried blindly
   * (docs/developing/service-calls.md).
   */
  AmbiguousOutcome: 'AmbiguousOutcome',
  /** Thrown by the workflow, not an activity: a review decision for a verification that is not in `needs-review`. */
  NotAwaitingReview: 'NotAwaitingReview',
  /** Thrown by a batch, not an activity: a resubmission or a second cancel of a batch that is cancelled. */
  BatchCancelled: 'BatchCancelled',
  /** Thrown by a batch: a resubmission of outcomes no item has, which would open an empty round. */
  NothingToResubmit: 'NothingToResubmit',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/**
 * Failures that no retry can fix: the request itself is wrong, or names something that does not exist; or one that a
 * retry could make worse (a v1 creation whose outcome is unknown may have created a verification already).
 */
export const NON_RETRYABLE_FAILURE_TYPES: readonly FailureType[] = [
  FailureType.InvalidRequest,
  FailureType.NotFound,
  FailureType.UnexpectedResponse,
  FailureType.AmbiguousOutcome,
];
