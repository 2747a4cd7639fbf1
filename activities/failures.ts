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
import { FailureType } from '../workflows/shared/failure-types.js';

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
 * A retryable failure whose next attempt comes after `delayMs`. The delay rides in the details too: a workflow that
 * retries by itself (v1 creation) reads it there, since the failure converter does not carry `nextRetryDelay` back
 * into workflow code.
 */
function retryAfterFailure(type: FailureType, message: string, delayMs: number): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable: false,
    nextRetryDelay: delayMs,
    details: [{ retryDelayMs: delayMs }],
  });
}

/**
 * A call this worker's brake sent back to the task queue without making it (activities/rate-limit-brake.ts): retried
 * after `delayMs` as a 429 is, and for v1 creation a definite refusal, since nothing was sent. Its type is a 429's;
 * the governor never hears of it, as the service said nothing. It starts no activity's retry window, as the service
 * has not failed (one already started rides on in the last heartbeat's details, which the server keeps for the next
 * attempt); v1 creation's own loop counts it as a refusal, against a window of hours.
 */
export function heldBackFailure(delayMs: number): ApplicationFailure {
  return retryAfterFailure(
    FailureType.RateLimited,
    'held back by the worker after a 429 from the service, to be dispatched again at the governed rate',
    delayMs,
  );
}

/**
 * A discovery call's failures: a 404 names the intake's `discoveryId`, the field to fix, as a refused request names its
 * own (decision 71). Everything else as any call's.
 */
export function toDiscoveryFailure(err: unknown): unknown {
  if (!(err instanceof NotFoundError)) return toActivityFailure(err);
  return ApplicationFailure.create({
    type: FailureType.InvalidRequest,
    message: 'discoveryId: unknown discovery',
    nonRetryable: true,
    details: [{ param: 'discoveryId' }],
  });
}

/**
 * The client's typed errors as the failures workflows see (docs/developing/service-calls.md). Types come from the
 * shared `FailureType` list, never a class name; messages are the client's, which carry statuses, error codes and field
 * names, never values. Anything else (a cancellation, a bug) is returned unchanged for Temporal to handle.
 */
export function toActivityFailure(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const fail = (type: FailureType, nonRetryable: boolean, extra: { details?: unknown[] } = {}) =>
    ApplicationFailure.create({ type, message: err.message, nonRetryable, ...extra });
  const retryAfter = (type: FailureType, delayMs: number) => retryAfterFailure(type, err.message, delayMs);

  if (err instanceof InvalidRequestError) {
    return fail(FailureType.InvalidRequest, true, { details: [{ param: err.param, id: err.id }] });
  }
  if (err instanceof NotFoundError) return fail(FailureType.NotFound, true);
  if (err instanceof RateLimitError) {
    // The service's own delay replaces the policy's backoff for the next attempt only; attempts stay counted.
    return retryAfter(FailureType.RateLimited, err.retryAfterMs ?? rateLimitBackoffMs(activityInfo().attempt));
  }
  // Retryable, slowly: credentials can be fixed while Temporal keeps the workflow waiting.
  if (err instanceof AuthenticationError) {
    return retryAfter(FailureType.Unauthorized, UNAUTHORIZED_RETRY_DELAY_MS);
  }
  if (err instanceof ServerError) return fail(FailureType.ServerError, false);
  // A call whose response was lost may have been processed: retrying is safe for reads and for v2 creation, which is
  // idempotent; v1 creation is not, and goes through toV1CreationFailure first.
  if (err instanceof NetworkError) return fail(FailureType.NetworkError, false);
  // The service answered outside its contract: retrying gets the same answer, a person has to look.
  if (err instanceof UnexpectedResponseError) return fail(FailureType.UnexpectedResponse, true);
  return err;
}

/**
 * Whether a failed v1 creation may have created a verification (docs/developing/service-calls.md). The spec gives v1 no
 * idempotency and no lookup, so an outcome the service did not state is ambiguous: no response (a dropped connection
 * after the request was written, the client's timeout, any wire failure but a connection never made), a 5xx (an answer,
 * but the spec does not say the verification was not stored before it failed; the sandbox's injected 500s happen before
 * processing, the real service promises nothing), and a 2xx or other answer outside the contract (something was
 * created, its id unreadable). Definite refusals stay retryable by their usual rules: 400 and other 4xx, 401/403, 404,
 * 408 (the server gave up before our request was complete), 429, and a connection refused or never established.
 */
export function mayHaveCreated(err: unknown): boolean {
  if (err instanceof NetworkError) return !err.notSent;
  if (err instanceof ServerError) return err.status !== 408;
  return err instanceof UnexpectedResponseError;
}

/** `toActivityFailure` for v1 creation: an ambiguous outcome becomes a non-retryable `AmbiguousOutcome`. */
export function toV1CreationFailure(err: unknown): unknown {
  if (!(err instanceof Error) || !mayHaveCreated(err)) return toActivityFailure(err);
  return ApplicationFailure.create({
    type: FailureType.AmbiguousOutcome,
    message: `${err.message} (the verification may have been created)`,
    nonRetryable: true,
  });
}
