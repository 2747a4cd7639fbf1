import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { attemptDelivery } from '../../src/events/delivery/attempt.js';
import { newEndpointSecret } from '../../src/events/secret-box.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { verify, type Received } from './receivers.js';

const event = {
  id: 'evt_0123456789abcdef0123456789abcdef',
  type: 'verification.completed',
  timestamp: new Date().toISOString(),
  tenant: 'clinic-a',
  data: { workflowId: 'verification-1', stage: 'completed' },
  links: { self: '/v1/verifications/verification-1' },
} as unknown as OutboundEvent;

/** A receiver on port 0 that answers every request as `answer` does, and counts them. */
async function receiver(answer: (res: http.ServerResponse) => void) {
  const requests: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      requests.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, requests, close };
}

describe('events: one delivery attempt', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  it('posts the event signed, and a 2xx answer is delivered', async () => {
    const r = await receiver((res) => res.writeHead(204).end());
    closers.push(r.close);
    const secret = newEndpointSecret();
    const a = await attemptDelivery({ url: r.url, status: 'active', secrets: [secret] }, event, 5_000);
    assert.equal(a.outcome, 'delivered');
    assert.equal(a.statusCode, 204);
    assert.equal(r.requests.length, 1);
    const [request] = r.requests;
    const received = { ...request!, event: JSON.parse(request!.body) as Received['event'], at: Date.now() };
    verify(received, secret);
    assert.equal(received.headers['content-type'], 'application/json');
  });

  it('follows no redirect: the receiver is the address its tenant registered', async () => {
    const elsewhere = await receiver((res) => res.writeHead(200).end());
    const r = await receiver((res) => res.writeHead(302, { location: elsewhere.url }).end('moved'));
    closers.push(r.close, elsewhere.close);
    const a = await attemptDelivery({ url: r.url, status: 'active', secrets: [newEndpointSecret()] }, event, 5_000);
    assert.equal(a.outcome, 'failed');
    assert.equal(a.errorType, 'http_302');
    assert.equal(elsewhere.requests.length, 0);
  });

  it('names a receiver that does not answer in time a timeout, and 410 gone', async () => {
    const silent = await receiver(() => undefined);
    const gone = await receiver((res) => res.writeHead(410).end());
    closers.push(silent.close, gone.close);
    const endpoint = (url: string) => ({ url, status: 'active' as const, secrets: [newEndpointSecret()] });
    const late = await attemptDelivery(endpoint(silent.url), event, 200);
    assert.equal(late.outcome, 'failed');
    assert.equal(late.errorType, 'timeout');
    assert.equal((await attemptDelivery(endpoint(gone.url), event, 5_000)).outcome, 'gone');
  });
});
