import { activityInfo } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  AuthenticationError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedResponseError,
} from '../src/client/index.js';
import { FailureType } from '../workflows/failure-types.js';

/** Backoff for a 429 without `Retry-After`: 1 s doubling per attempt, at most one minute, before jitter. */
const RATE_LIMIT_BASE_MS = 1000;
const RATE_LIMIT_CAP_MS = 60_000;
/**
 * Delay after an authentication failure. The client already tried a fresh token, so what is wrong needs a person (a
 * rotated secret) or the service to recover; trying every few seconds would only hammer the token endpoint.
 */
export const UNAUTHORIZED_RETRY_DELAY_MS = 60_000;

/**
 * Delay before retrying a rate-limited call the service gave no `Retry-After` for. Jittered between half and all of
 * the exponential value, so workers rate-limited together do not all come back in the same instant.
 */
export function rateLimitBackoffMs(attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(RATE_LIMIT_CAP_MS, RATE_LIMIT_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * The client's typed errors as the failures workflows see (DESIGN §4). Types come from the shared `FailureType` list,
 * never a class name; messages are the client's, which carry statuses, error codes and field names, never values.
 * Anything else (a cancellation, a bug) is returned unchanged for Temporal to handle.
 */
export function toActivityFailure(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const fail = (
    type: FailureType,
    nonRetryable: boolean,
    extra: { details?: unknown[]; nextRetryDelay?: number } = {},
  ) => ApplicationFailure.create({ type, message: err.message, nonRetryable, ...extra });

  if (err instanceof InvalidRequestError) {
    return fail(FailureType.InvalidRequest, true, { details: [{ param: err.param, id: err.id }] });
  }
  if (err instanceof NotFoundError) return fail(FailureType.NotFound, true);
  if (err instanceof RateLimitError) {
    // The service's own delay replaces the policy's backoff for the next attempt only; attempts stay counted.
    return fail(FailureType.RateLimited, false, {
      nextRetryDelay: err.retryAfterMs ?? rateLimitBackoffMs(activityInfo().attempt),
    });
  }
  // Retryable, slowly: credentials can be fixed while Temporal keeps the workflow waiting.
  if (err instanceof AuthenticationError) {
    return fail(FailureType.Unauthorized, false, { nextRetryDelay: UNAUTHORIZED_RETRY_DELAY_MS });
  }
  if (err instanceof ServerError) return fail(FailureType.ServerError, false);
  // A call whose response was lost may have been processed; retrying is safe because creation is idempotent.
  if (err instanceof NetworkError) return fail(FailureType.NetworkError, false);
  // The service answered outside its contract: retrying gets the same answer, a person has to look.
  if (err instanceof UnexpectedResponseError) return fail(FailureType.UnexpectedResponse, true);
  return err;
}
