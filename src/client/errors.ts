import { ErrorBody, TOO_MANY_REQUESTS } from '../contract/index.js';
import { parseRetryAfter } from './retry-after.js';

/** What every error of the client may carry. Never a token, a secret, a request body or a response value. */
export interface EligibilityErrorFields {
  /** HTTP status; undefined when no response arrived or the request was refused before sending. */
  status?: number | undefined;
  /** The service's `error` value, e.g. `invalid_request_error` or `Too many requests`. */
  error?: string | undefined;
  /** The service's `param`: the dotted path of the offending field. */
  param?: string | undefined;
  /** The caller identifier the service echoes on v2 verification errors. */
  id?: string | undefined;
  /** Method and route pattern, e.g. `GET /v1/payers/{payerId}`: never the ids in the path (they can be PHI-adjacent). */
  endpoint?: string | undefined;
}

/** `"<status> <error>[ (param <param>)]"`, the shape of every message of an HTTP error. */
function formatMessage(fields: EligibilityErrorFields): string {
  const head = [fields.status, fields.error ?? 'no error body'].filter((p) => p !== undefined).join(' ');
  return fields.param === undefined ? head : `${head} (param ${fields.param})`;
}

/** The base of every error the client throws. Subclasses differ only in what kind of failure they name. */
export class EligibilityError extends Error {
  override name = 'EligibilityError';
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly param: string | undefined;
  readonly id: string | undefined;
  readonly endpoint: string | undefined;

  constructor(fields: EligibilityErrorFields, message: string = formatMessage(fields)) {
    super(message);
    this.status = fields.status;
    this.error = fields.error;
    this.param = fields.param;
    this.id = fields.id;
    this.endpoint = fields.endpoint;
  }

  /**
   * The one place a failed response becomes a typed error (as openai-node's `APIError.generate`). `body` is the parsed
   * JSON or undefined; only its `error`, `param` and `id` strings are kept, never other values (they may be PHI).
   */
  static generate(status: number, body: unknown, headers: Headers, endpoint: string): EligibilityError {
    const fields: EligibilityErrorFields = { status, ...errorFields(body), endpoint };
    // The spec shows the rate-limit body but not its status: a body saying so is a rate limit whatever the status.
    if (status === 429 || fields.error === TOO_MANY_REQUESTS) {
      return new RateLimitError(fields, parseRetryAfter(headers.get('retry-after')));
    }
    // The spec answers "unauthorized" with 403 on the webhook event call; both mean the token was not accepted.
    if (status === 401 || status === 403) return new AuthenticationError(fields);
    if (status === 404) return new NotFoundError(fields);
    // 408: the server gave up waiting for our request, which says nothing about the request being wrong.
    if (status >= 500 || status === 408) return new ServerError(fields);
    // Any other 4xx (400, 409, 413, 422, ...) rejects the request itself: sending it again cannot help.
    if (status >= 400) return new InvalidRequestError(fields);
    return new UnexpectedResponseError(fields, `${status} unexpected status of ${endpoint}`);
  }
}

function errorFields(body: unknown): Pick<EligibilityErrorFields, 'error' | 'param' | 'id'> {
  const full = ErrorBody.safeParse(body);
  if (full.success) return full.data;
  // A body with a usable `error` but a malformed `param` or `id` still says what kind of failure it is.
  const bare = ErrorBody.pick({ error: true }).safeParse(body);
  return bare.success ? bare.data : {};
}

/** 400 (or another 4xx that rejects the request), or a request refused by the contract before sending. */
export class InvalidRequestError extends EligibilityError {
  override name = 'InvalidRequestError';
}

/** 401/403 that persisted through the one token refresh, or a token request that was refused. */
export class AuthenticationError extends EligibilityError {
  override name = 'AuthenticationError';
}

export class NotFoundError extends EligibilityError {
  override name = 'NotFoundError';
}

/** 429, or a body `{error: "Too many requests"}` with any status. */
export class RateLimitError extends EligibilityError {
  override name = 'RateLimitError';
  /** From `Retry-After` (seconds or HTTP-date), bounded; undefined when the service did not say. */
  readonly retryAfterMs: number | undefined;

  constructor(fields: EligibilityErrorFields, retryAfterMs: number | undefined, message?: string) {
    super(fields, message);
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx (and 408). */
export class ServerError extends EligibilityError {
  override name = 'ServerError';
}

/**
 * Wire failures that happen while connecting, before a byte of the request is written: the service cannot have
 * received it. Any other code (a reset or closed socket, `UND_ERR_SOCKET`, a client `TIMEOUT`, an unknown failure)
 * may come after the request was sent and processed. Kept short on purpose: a code missing here only makes a v1
 * creation wait for a person instead of retrying, while a wrong entry could create a duplicate.
 */
const CONNECT_PHASE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', // nothing listens on the port
  'ENOTFOUND', // the host name does not resolve
  'EAI_AGAIN', // name resolution failed for now
  'UND_ERR_CONNECT_TIMEOUT', // the TCP (or TLS) connection was never established
]);

/** No response: a timeout, a refused or reset connection, a response dropped mid-body. */
export class NetworkError extends EligibilityError {
  override name = 'NetworkError';
  /** What went wrong on the wire: `TIMEOUT`, `ECONNREFUSED`, `UND_ERR_SOCKET`, ... */
  readonly code: string;
  /** true when the request cannot have reached the service (the connection was never made); see CONNECT_PHASE_CODES. */
  readonly notSent: boolean;

  constructor(endpoint: string, code: string, detail: string) {
    super({ endpoint }, `network error on ${endpoint}: ${detail}`);
    this.code = code;
    this.notSent = CONNECT_PHASE_CODES.has(code);
  }
}

/** A response the contract does not allow: a 2xx body that fails its schema, a body that is not JSON. */
export class UnexpectedResponseError extends EligibilityError {
  override name = 'UnexpectedResponseError';
  /** The dotted path of the first field that failed the schema (`body` for the whole body). */
  readonly path: string | undefined;

  constructor(fields: EligibilityErrorFields & { path?: string }, message?: string) {
    super(fields, message);
    this.path = fields.path;
  }
}
