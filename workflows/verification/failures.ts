import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { failureDetails } from '../shared/failure-details.js';
import { FailureType } from '../shared/failure-types.js';
import type { LastError } from './verification.js';

/** The ApplicationFailure an activity threw, if `err` is an activity's failure. */
function activityCause(err: unknown): ApplicationFailure | undefined {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause;
  return undefined;
}

export function isActivityFailureOfType(err: unknown, type: FailureType): boolean {
  return activityCause(err)?.type === type;
}

/** Type, message and `param` of a failure, for `status().lastError` and results; never patient values. */
export function describeFailure(err: unknown): LastError {
  const cause = activityCause(err) ?? (err instanceof ApplicationFailure ? err : undefined);
  if (!cause) return { type: 'Error', message: err instanceof Error ? err.message : String(err) };
  const { param } = failureDetails(cause);
  return { type: cause.type ?? 'Error', message: cause.message, ...(param ? { param } : {}) };
}

/** A non-retryable failure naming the offending field, as the service would (`param`). */
export function invalidRequest(param: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({
    type: FailureType.InvalidRequest,
    message: `${param}: ${message}`,
    nonRetryable: true,
    details: [{ param }],
  });
}

/** Turns an activity's failure into one a caller (update, workflow result) can read, keeping type and param. */
export function toCallerFailure(err: unknown): ApplicationFailure {
  return fromLastError(describeFailure(err));
}

/** A failure reported by another workflow (`discovery-<id>`'s handout), made this workflow's own again. */
export function fromLastError({ type, message, param }: LastError): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true, details: [param ? { param } : {}] });
}
