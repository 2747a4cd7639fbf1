import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxDiscoveryRequest } from '../../src/contract/index.js';
import { v2Request } from '../../testing/fixtures.js';
import type { TestSandbox } from '../../testing/sandbox.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** One HTTP call to a sandbox; `token: null` sends no Authorization header. */
export async function call(
  sandbox: TestSandbox,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** A client bound to one sandbox and one token. */
export function client(sandbox: TestSandbox, token: string) {
  return {
    get: (path: string) => call(sandbox, 'GET', path, { token }),
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      call(sandbox, 'POST', path, { token, body, headers }),
    put: (path: string, body?: unknown) => call(sandbox, 'PUT', path, { token, body }),
    /** `POST /v2/verifications` with a fresh idempotency key unless one is given. */
    verifyV2: (body: unknown, key: string = randomUUID()) =>
      call(sandbox, 'POST', '/v2/verifications', {
        token,
        body,
        headers: { [sandbox.config.idempotencyHeader]: key },
      }),
  };
}

/** A valid v2 body (the shared fixture); overrides may make it invalid on purpose. */
export function v2Body(overrides: Record<string, unknown> = {}) {
  return { ...v2Request(), ...overrides };
}

/** A discovery request; overrides may make it invalid on purpose. */
export function discoveryBody(overrides: Record<string, unknown> = {}): SandboxDiscoveryRequest {
  return {
    firstName: 'Jordan',
    lastName: 'Reyes',
    dateOfBirth: '11/03/2015',
    state: 'TX',
    ...overrides,
  };
}

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created: string; data: Record<string, unknown> };
}

/** A tiny webhook receiver: records every request and answers with the next status of `statuses` (then 200). */
export async function startReceiver(statuses: number[] = []) {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody) as ReceivedRequest['body'] });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
