import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type ServiceConfig } from '../../src/config.js';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export type Handler = (req: Received, res: http.ServerResponse) => void;

export interface LocalServer {
  url: string;
  received: Received[];
  /** Requests other than the token request. */
  calls(): Received[];
  tokenRequests(): Received[];
  close(): Promise<void>;
}

export const TEST_TOKEN = 'local-token-0123456789';

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const defaultToken: Handler = (_req, res) =>
  json(res, 200, { access_token: TEST_TOKEN, token_type: 'Bearer', expires_in: 3600 });

/**
 * A throwaway HTTP server on an ephemeral port that records every request: `/oauth/token` goes to `token` (by default
 * a one-hour token), everything else to `handler`.
 */
export async function startLocalServer(handler: Handler, token: Handler = defaultToken): Promise<LocalServer> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      received.push(r);
      (r.url === '/oauth/token' ? token : handler)(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    calls: () => received.filter((r) => r.url !== '/oauth/token'),
    tokenRequests: () => received.filter((r) => r.url === '/oauth/token'),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The service settings of the local defaults, pointed at `baseUrl`. */
export function serviceConfig(baseUrl: string, overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return { ...loadConfig('worker', {}).service, baseUrl, ...overrides };
}
