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
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/** Failures that no retry can fix: the request itself is wrong, or names something that does not exist. */
export const NON_RETRYABLE_FAILURE_TYPES: readonly FailureType[] = [
  FailureType.InvalidRequest,
  FailureType.NotFound,
  FailureType.UnexpectedResponse,
];
