import ky, { TimeoutError, type KyInstance } from 'ky';
import type { z } from 'zod';
import { INVALID_REQUEST, TOO_MANY_REQUESTS, firstInvalidParam } from '../contract/index.js';
import { EligibilityError, InvalidRequestError, NetworkError, UnexpectedResponseError } from './errors.js';

/** A response read to the end: status, headers and the body parsed as JSON (`NOT_JSON` when it is not). */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export const NOT_JSON = Symbol('not JSON');

export interface SendOptions {
  method: 'GET' | 'POST' | 'PUT';
  /** Relative to the base URL, parameters already encoded (`encodePathParam`). */
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
  token?: string;
  signal?: AbortSignal | undefined;
}

export interface HttpOptions {
  baseUrl: string;
  /** How long a call waits for the service's response. */
  timeoutMs: number;
  /** What sends the request: the global `fetch` unless a test injects a fake or a spy. */
  fetch?: typeof fetch | undefined;
}

/**
 * The client's ky instance. No retries: Temporal is the one retry layer (decision 4). Every status comes back as a
 * response rather than ky's `HTTPError`, so `readResponse` classifies it into the client's typed errors.
 */
export function createHttp(o: HttpOptions): KyInstance {
  return ky.create({
    prefixUrl: o.baseUrl,
    timeout: o.timeoutMs,
    retry: 0,
    throwHttpErrors: false,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
}

/**
 * One HTTP exchange. Whatever fails on the wire becomes a `NetworkError` naming the endpoint pattern and the wire
 * error's code; ky's and fetch's errors are not kept as causes, so no header of the request (its token) can travel on.
 */
export async function send(http: KyInstance, endpoint: string, opts: SendOptions): Promise<RawResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  try {
    const response = await http(opts.path, {
      method: opts.method,
      json: opts.json,
      headers,
      signal: opts.signal ?? null,
    });
    // Read inside the try: a connection dropped mid-body is a network failure too.
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseJson(text) };
  } catch (err) {
    // A cancelled activity aborts the signal with Temporal's own reason; that must surface as is, not as a failure.
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (err instanceof TimeoutError) throw new NetworkError(endpoint, 'TIMEOUT', 'no response within the timeout');
    throw toNetworkError(endpoint, err);
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** Errors about the call itself, not the wire: a programming error, kept as it is. */
const NOT_WIRE_CODES: ReadonlySet<string> = new Set([
  'ERR_INVALID_URL',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
]);

function toNetworkError(endpoint: string, err: unknown): unknown {
  // fetch rejects with a TypeError whose cause is the socket's error (`ECONNREFUSED`, `ECONNRESET`) or undici's
  // (`UND_ERR_SOCKET`), each carrying its code.
  const code = codeOf(err) ?? codeOf(err instanceof Error ? err.cause : undefined);
  if (code === undefined || NOT_WIRE_CODES.has(code)) return err;
  return new NetworkError(endpoint, code, code);
}

function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

export function saysTooManyRequests(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { error?: unknown }).error === TOO_MANY_REQUESTS;
}

/** A 2xx body checked against its contract schema; anything else classified by `EligibilityError.generate`. */
export function readResponse<T>(raw: RawResponse, schema: z.ZodType<T>, endpoint: string): T {
  const { status, body } = raw;
  if (status < 200 || status >= 300 || saysTooManyRequests(body)) {
    throw EligibilityError.generate(status, body === NOT_JSON ? undefined : body, raw.headers, endpoint);
  }
  if (body === NOT_JSON) {
    throw new UnexpectedResponseError(
      { status, endpoint, path: 'body' },
      `${status} response of ${endpoint} is not JSON`,
    );
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  // The path and the kind of mismatch only: the value itself may be patient data.
  const path = firstInvalidParam(parsed.error);
  const code = parsed.error.issues[0]?.code ?? 'invalid';
  throw new UnexpectedResponseError(
    { status, endpoint, path },
    `${status} response of ${endpoint} does not match the contract at ${path} (${code})`,
  );
}

/**
 * Checks a request against its contract schema before anything is sent. The error names the same dotted `param` the
 * service would, and the caller's `id` when the request has one (the service echoes it on v2 errors).
 */
export function validateRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const param = firstInvalidParam(parsed.error);
  throw new InvalidRequestError(
    { error: INVALID_REQUEST, param, id: callerId(value) },
    `${INVALID_REQUEST} (param ${param}): ${parsed.error.issues[0]?.message ?? 'invalid'}; not sent`,
  );
}

export function callerId(value: unknown): string | undefined {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}
