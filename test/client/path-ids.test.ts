import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EligibilityClient, InvalidRequestError } from '../../src/client/index.js';
import { json, serviceConfig, startLocalServer, type LocalServer } from './local-server.js';
import { rejection } from './requests.js';

describe('EligibilityClient: path ids the spec gives a form', () => {
  let server: LocalServer;
  let client: EligibilityClient;

  before(async () => {
    server = await startLocalServer((req, res) =>
      req.url.startsWith('/v1/runs/')
        ? json(res, 200, { flowRunId: req.url.slice('/v1/runs/'.length), status: 'CREATED' })
        : json(res, 201, { url: 'http://h/x', endpointId: 'ep_1', events: ['e'] }),
    );
    client = new EligibilityClient(serviceConfig(server.url));
  });
  after(() => server.close());

  it('refuses a flowRunId not in UUID form and an endpointId without ep_, naming the param, before any call', async () => {
    const cases: [Promise<unknown>, string][] = [
      [client.updateRun('run-1', { a: 1 }), 'flowRunId'],
      [client.updateRun(`${randomUUID()}x`, { a: 1 }), 'flowRunId'],
      [client.subscribeWebhookEvent('1234', 'e'), 'endpointId'],
      [client.subscribeWebhookEvent('ep_', 'e'), 'endpointId'],
    ];
    for (const [promise, param] of cases) {
      const err = await rejection(promise);
      assert.ok(err instanceof InvalidRequestError, String(err));
      assert.equal(err.param, param);
      assert.equal(err.status, undefined, 'refused locally');
      assert.match(err.message, /not sent$/);
    }
    assert.equal(server.received.length, 0, 'not even a token was fetched');
  });

  it('sends well-formed ids', async () => {
    const flowRunId = randomUUID();
    assert.deepEqual(await client.updateRun(flowRunId, { a: 1 }), { flowRunId, status: 'CREATED' });
    assert.equal((await client.subscribeWebhookEvent('ep_1', 'e')).endpointId, 'ep_1');
    assert.deepEqual(
      server.calls().map((c) => c.url),
      [`/v1/runs/${flowRunId}`, '/v1/webhooks/ep_1/events'],
    );
  });
});
