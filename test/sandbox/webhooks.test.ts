import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DISCOVERY_UPDATED_EVENT,
  RUN_PENDING_EVENT,
  SIGNATURE_HEADER,
  VerificationResponseV2,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../src/contract/index.js';
import { verifyWebhookSignature } from '../../src/contract/webhook-signature.js';
import { RUN_REQUESTED_INPUT } from '../../sandbox/verifications.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { client, discoveryBody, eventually, startReceiver, v2Body } from './helpers.js';

const SECRET = 'whsec_test_secret';

describe('sandbox: webhooks', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    sandbox = await startTestSandbox({
      webhookSecret: SECRET,
      webhookBackoffMs: 20,
      webhookMaxAttempts: 3,
      webhookTimeoutMs: 500,
      rateBurst: 1000,
      ratePerSecond: 1000,
    });
  });
  after(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset();
    api = client(sandbox, await sandbox.token());
  });
  afterEach(() => receiver?.close());

  async function register(url: string, events: string[]): Promise<WebhookEndpoint> {
    const res = await api.post('/v1/webhooks', { url });
    let endpoint = WebhookEndpoint.strict().parse(res.body);
    for (const event of events) {
      endpoint = WebhookEndpoint.parse((await api.post(`/v1/webhooks/${endpoint.endpointId}/events`, { event })).body);
    }
    return endpoint;
  }

  describe('endpoints and subscriptions', () => {
    it('registers an endpoint with 201, an ep_ id and no events', async () => {
      const res = await api.post('/v1/webhooks', { url: 'https://example.test/hooks' });
      assert.equal(res.status, 201);
      const endpoint = WebhookEndpoint.strict().parse(res.body);
      assert.match(endpoint.endpointId, /^ep_/);
      assert.deepEqual(endpoint.events, []);
    });

    it('rejects a bad url naming url', async () => {
      for (const url of ['not a url', 'ftp://example.test/x', 42]) {
        const res = await api.post('/v1/webhooks', { url });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'url' });
      }
    });

    it('subscribes an event with 201, and a second subscription changes nothing', async () => {
      const endpoint = await register('https://example.test/hooks', []);
      const path = `/v1/webhooks/${endpoint.endpointId}/events`;
      const first = await api.post(path, { event: DISCOVERY_UPDATED_EVENT });
      const second = await api.post(path, { event: DISCOVERY_UPDATED_EVENT });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.deepEqual(WebhookEndpoint.strict().parse(second.body).events, [DISCOVERY_UPDATED_EVENT]);
    });

    it('rejects an unknown or missing event naming event', async () => {
      const endpoint = await register('https://example.test/hooks', []);
      for (const body of [{ event: 'sandbox.nothing' }, {}]) {
        const res = await api.post(`/v1/webhooks/${endpoint.endpointId}/events`, body);
        assert.deepEqual(res.body, { error: 'invalid_request_error', param: 'event' });
      }
    });

    it('answers 404 for an unknown endpoint and 403 without a token', async () => {
      const res = await api.post('/v1/webhooks/ep_missing/events', { event: DISCOVERY_UPDATED_EVENT });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { error: 'invalid_request_error' });
      const anonymous = client(sandbox, '');
      assert.equal((await anonymous.post('/v1/webhooks', { url: 'https://example.test' })).status, 403);
    });
  });

  describe('deliveries', () => {
    it('delivers a signed sandbox.discovery.updated with ids only when a discovery completes', async () => {
      receiver = await startReceiver();
      await register(receiver.url, [DISCOVERY_UPDATED_EVENT]);
      const discovery = await sandbox.createDiscovery(discoveryBody({ delayMs: 0 }));
      await eventually(() => receiver.received.length === 1);
      const [got] = receiver.received;
      assert.ok(got);
      const delivery = WebhookDelivery.parse(got.body);
      assert.equal(delivery.type, DISCOVERY_UPDATED_EVENT);
      assert.deepEqual(delivery.data, { discoveryId: discovery.discoveryId, status: 'complete' });
      assert.ok(verifyWebhookSignature(SECRET, String(got.headers[SIGNATURE_HEADER]), got.rawBody));
      assert.ok(!verifyWebhookSignature('other', String(got.headers[SIGNATURE_HEADER]), got.rawBody));
      assert.doesNotMatch(got.rawBody, /Jordan|Reyes|11\/03\/2015/);
    });

    it('delivers sandbox.run.pending with flowRunId, verificationId, the caller id and what the run asks for', async () => {
      receiver = await startReceiver();
      await register(receiver.url, [RUN_PENDING_EVENT]);
      const res = await api.verifyV2(v2Body({ specialtyCode: 'ABA', id: 'caller-7' }));
      const { verificationId } = VerificationResponseV2.parse(res.body);
      await eventually(() => receiver.received.length === 1);
      const [run] = await sandbox.runs(verificationId);
      assert.deepEqual(receiver.received[0]?.body.data, {
        flowRunId: run?.flowRunId,
        verificationId,
        id: 'caller-7',
        requestedInput: RUN_REQUESTED_INPUT,
      });
    });

    it('sends only to endpoints subscribed to the event', async () => {
      receiver = await startReceiver();
      await register(receiver.url, [RUN_PENDING_EVENT]);
      await sandbox.createDiscovery(discoveryBody({ delayMs: 0 }));
      await sleep(150);
      assert.equal(receiver.received.length, 0);
    });

    it('retries a failed delivery with backoff until the receiver answers 2xx', async () => {
      receiver = await startReceiver([500, 503]);
      await register(receiver.url, [DISCOVERY_UPDATED_EVENT]);
      await sandbox.createDiscovery(discoveryBody({ delayMs: 0 }));
      await eventually(() => receiver.received.length === 3);
      const ids = new Set(receiver.received.map((r) => r.body.id));
      assert.equal(ids.size, 1, 'every attempt carries the same event id');
      assert.deepEqual((await sandbox.stats()).webhookDeliveries, {
        attempted: 3,
        succeeded: 1,
        failed: 2,
        abandoned: 0,
        dropped: 0,
      });
    });

    it('gives up after the configured number of attempts', async () => {
      receiver = await startReceiver([500, 500, 500, 500]);
      await register(receiver.url, [DISCOVERY_UPDATED_EVENT]);
      await sandbox.createDiscovery(discoveryBody({ delayMs: 0 }));
      await eventually(async () => (await sandbox.stats()).webhookDeliveries.abandoned === 1);
      await sleep(100);
      assert.equal(receiver.received.length, 3);
    });

    it('duplicates, drops and reorders deliveries when those faults are set', async () => {
      receiver = await startReceiver();
      await register(receiver.url, [DISCOVERY_UPDATED_EVENT]);

      await sandbox.setFaults({ webhookDuplicateRate: 1 });
      await sandbox.createDiscovery(discoveryBody({ delayMs: 0 }));
      await eventually(() => receiver.received.length === 2);
      assert.equal(receiver.received[0]?.body.id, receiver.received[1]?.body.id);

      await sandbox.setFaults({ webhookDuplicateRate: 0, webhookDropRate: 1 });
      await sandbox.createDiscovery(discoveryBody({ delayMs: 0 }));
      await eventually(async () => (await sandbox.stats()).webhookDeliveries.dropped === 1);

      await sandbox.setFaults({ webhookDropRate: 0, webhookReorder: true });
      receiver.received.length = 0;
      const first = await sandbox.createDiscovery(discoveryBody({ delayMs: -1 }));
      const second = await sandbox.createDiscovery(discoveryBody({ delayMs: -1 }));
      await sandbox.completeDiscovery(first.discoveryId);
      await sandbox.completeDiscovery(second.discoveryId);
      await eventually(() => receiver.received.length === 2);
      assert.deepEqual(
        receiver.received.map((r) => r.body.data.discoveryId),
        [second.discoveryId, first.discoveryId],
      );
    });
  });
});
