import { request } from 'undici';
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

/** Where, how and how long: the service's base URL, the transport, one call's timeout (the whole exchange, body included). */
export interface Wire {
  /** Without a trailing slash: a path is joined to it with one. */
  baseUrl: string;
  timeoutMs: number;
  transport: Transport;
}

/**
 * One request on the wire, its body still to be read: undici's `request` (`undiciTransport`), or a fake in tests.
 * Failures reject with the socket's or undici's own error, whose `code` names what went wrong.
 */
export type Transport = (url: string, init: TransportRequest) => Promise<TransportResponse>;

export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal;
}

export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: { text(): Promise<string> };
}

/**
 * undici's `request` on its shared keep-alive pool: a third of `fetch`'s CPU a call or less, and a worker makes two or
 * three calls per verification (decision 65).
 */
export const undiciTransport: Transport = (url, init) => request(url, init);

/**
 * One HTTP exchange. Whatever fails on the wire becomes a `NetworkError` naming the endpoint pattern and the wire
 * error's code; the wire's own errors are not kept as causes, so no header of the request (its token) can travel on.
 */
export async function send(wire: Wire, endpoint: string, opts: SendOptions): Promise<RawResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  const timeout = AbortSignal.timeout(wire.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const url = `${wire.baseUrl}/${opts.path}`;
  const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
  try {
    const response = await wire.transport(url, { method: opts.method, headers, body, signal });
    // Read inside the try: a connection dropped mid-body is a network failure too.
    const text = await response.body.text();
    return { status: response.statusCode, headers: toHeaders(response.headers), body: parseJson(text) };
  } catch (err) {
    // A cancelled activity aborts the signal with Temporal's own reason; that must surface as is, not as a failure.
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (timeout.aborted) throw new NetworkError(endpoint, 'TIMEOUT', 'no response within the timeout');
    throw toNetworkError(endpoint, err);
  }
}

function toHeaders(raw: TransportResponse['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** undici's errors about the call itself, not the wire: a programming error, kept as it is. */
const NOT_WIRE_CODES: ReadonlySet<string> = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

function toNetworkError(endpoint: string, err: unknown): unknown {
  // The socket's errors (`ECONNREFUSED`, `ECONNRESET`) and undici's (`UND_ERR_SOCKET`) carry their code.
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code !== 'string' || NOT_WIRE_CODES.has(code)) return err;
  return new NetworkError(endpoint, code, code);
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
