import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from '../../src/config.js';
import { freePort } from '../../src/free-port.js';
import { SIGNATURE_HEADER } from '../../src/contract/index.js';
import { signWebhook } from '../../src/contract/webhook-signature.js';
import { createLogger } from '../../src/logging.js';
import { createWebhookReceiver, RECEIVER_IDENTITY } from '../../apps/receiver/index.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { cancelSignal } from '../../workflows/verification/verification.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { deliver, delivery, SECRET } from './deliveries.js';
import { captureLogs } from '../../testing/log-capture.js';

const quiet = { LOG_LEVEL: 'silent' };

describe('webhook receiver: authentication and refusals', function () {
  this.timeout(20_000);
  // A Temporal client that cannot reach any server (nothing listens on a port freePort gives, and for a minute the
  // kernel hands it to no one else): a request that got as far as Temporal would be answered 503.
  let unreachable: Connection;
  let offline: Client;
  before(async () => {
    unreachable = Connection.lazy({ address: `127.0.0.1:${await freePort()}`, connectTimeout: 300 });
    offline = new Client({ connection: unreachable });
  });
  after(async () => unreachable?.close());

  function receiver(env: Record<string, string>): FastifyInstance {
    const config = loadConfig('receiver', { WEBHOOK_TEMPORAL_TIMEOUT_MS: '500', ...quiet, ...env });
    return createWebhookReceiver({ config, client: offline, taskQueue: 'unused', logger: createLogger(config) });
  }
  const signed = () => receiver({ WEBHOOK_SIGNING_SECRET: SECRET, WEBHOOK_MAX_BODY_BYTES: '1024' });
  const unknownEvent = () => delivery('sandbox.something.else', { discoveryId: 'disc-1' });

  it('accepts a good signature (an unknown event type is acknowledged and ignored without Temporal)', async () => {
    const response = await deliver(signed(), unknownEvent());
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { received: true, ignored: true });
  });

  it('refuses a wrong, missing or stale signature with 401', async () => {
    const app = signed();
    const body = unknownEvent();
    const wrong = await deliver(app, body, { secret: 'another-secret' });
    const missing = await deliver(app, body, { secret: '' });
    // Beyond the 300 s tolerance by a margin: the header carries whole seconds (rounded down), and a busy machine's
    // delay before the check must not bring a timestamp just past the tolerance back within it.
    const stale = await deliver(app, body, { timestampSeconds: Date.now() / 1000 - 305 });
    const future = await deliver(app, body, { timestampSeconds: Date.now() / 1000 + 305 });
    for (const response of [wrong, missing, stale, future]) {
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: 'unauthorized' });
    }
  });

  it('refuses a signature over other bytes than those received', async () => {
    const body = unknownEvent();
    const header = signWebhook(SECRET, Date.now() / 1000, body);
    const tampered = body.replace('disc-1', 'disc-2');
    const response = await deliver(signed(), tampered, { secret: '', headers: { [SIGNATURE_HEADER]: header } });
    assert.equal(response.statusCode, 401);
  });

  it('checks HTTP basic auth when configured, alone or with the signature', async () => {
    const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });
    const app = receiver({ WEBHOOK_BASIC_AUTH: 'hook:s3cret' });
    assert.equal((await deliver(app, unknownEvent(), { secret: '', headers: basic('hook:s3cret') })).statusCode, 200);
    const bad = await deliver(app, unknownEvent(), { secret: '', headers: basic('hook:wrong') });
    assert.equal(bad.statusCode, 401);
    assert.match(String(bad.headers['www-authenticate']), /^Basic /);
    assert.equal((await deliver(app, unknownEvent(), { secret: '' })).statusCode, 401);

    const both = receiver({ WEBHOOK_BASIC_AUTH: 'hook:s3cret', WEBHOOK_SIGNING_SECRET: SECRET });
    assert.equal((await deliver(both, unknownEvent(), { headers: basic('hook:s3cret') })).statusCode, 200);
    assert.equal((await deliver(both, unknownEvent(), { secret: '', headers: basic('hook:s3cret') })).statusCode, 401);
    assert.equal((await deliver(both, unknownEvent())).statusCode, 401);
  });

  it('refuses to start without authentication unless WEBHOOK_AUTH_DISABLED=true says so', async () => {
    assert.throws(
      () => receiver({}),
      (err: unknown) =>
        err instanceof ConfigError &&
        ['WEBHOOK_SIGNING_SECRET', 'WEBHOOK_BASIC_AUTH', 'WEBHOOK_AUTH_DISABLED'].every((v) => err.message.includes(v)),
    );
    assert.throws(
      () => receiver({ WEBHOOK_AUTH_DISABLED: 'true', WEBHOOK_SIGNING_SECRET: SECRET }),
      (err: unknown) => err instanceof ConfigError && /WEBHOOK_AUTH_DISABLED/.test(err.message),
    );
    const open = receiver({ WEBHOOK_AUTH_DISABLED: 'true' });
    assert.equal((await deliver(open, unknownEvent(), { secret: '' })).statusCode, 200);
  });

  it('answers 400 to malformed JSON and to an event without a usable id, 413 to an oversized body', async () => {
    const app = signed();
    const malformed = await deliver(app, '{"type": "sandbox.discovery.updated", "data": {');
    assert.equal(malformed.statusCode, 400);
    assert.deepEqual(malformed.json(), { error: 'invalid_request_error', param: 'body' });
    const noId = await deliver(app, delivery('sandbox.discovery.updated', {}));
    assert.deepEqual([noId.statusCode, noId.json<{ param: string }>().param], [400, 'data.discoveryId']);
    const tooBig = await deliver(
      app,
      delivery('sandbox.discovery.updated', { discoveryId: 'd', pad: 'x'.repeat(2000) }),
    );
    assert.equal(tooBig.statusCode, 413);
    assert.deepEqual(tooBig.json(), { error: 'payload_too_large' });
  });

  it('logs one line per delivery, its outcome, naming fields and never values', async () => {
    const logs = captureLogs();
    const config = loadConfig('receiver', { WEBHOOK_SIGNING_SECRET: SECRET, LOG_LEVEL: 'info' });
    const app = createWebhookReceiver({
      config,
      client: offline,
      taskQueue: 'unused',
      logger: createLogger(config, 'test', logs.sink),
    });
    await deliver(app, unknownEvent());
    await deliver(app, delivery('sandbox.discovery.updated', { discoveryId: '', memberId: 'M-SECRET-1' }));
    await app.inject({ method: 'POST', url: '/webhooks/M-SECRET-2' });
    const lines = logs.records<{ msg: string; param?: string; method?: string }>();
    assert.deepEqual(
      lines.map(({ msg, param, method }) => ({ msg, ...(param ? { param } : {}), ...(method ? { method } : {}) })),
      [
        { msg: 'webhook event ignored: no action for its type' },
        { msg: 'webhook delivery refused: invalid', param: 'data.discoveryId' },
        { msg: 'webhook request refused: no such route', method: 'POST' },
      ],
    );
    assert.doesNotMatch(JSON.stringify(lines), /M-SECRET/);
  });

  it('answers 503 when Temporal is unreachable, and does not remember the event', async () => {
    const app = signed();
    const body = delivery('sandbox.discovery.updated', { discoveryId: 'disc-503' });
    const started = Date.now();
    const first = await deliver(app, body);
    assert.equal(first.statusCode, 503);
    assert.deepEqual(first.json(), { error: 'temporal_unavailable' });
    assert.ok(Date.now() - started < 5000, `answered after ${Date.now() - started} ms`);
    assert.equal((await deliver(app, body)).statusCode, 503, 'the retry is handled again, not acknowledged');
  });
});

describe('webhook receiver: deduplication against Temporal', function () {
  this.timeout(30_000);
  let h: WorkflowHarness;
  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => h?.stop());

  it('signals once for the same event delivered three times, concurrently and again later', async () => {
    const config = loadConfig('receiver', { WEBHOOK_SIGNING_SECRET: SECRET, ...quiet });
    const { client } = testTemporal();
    const app = createWebhookReceiver({ config, client, taskQueue: h.taskQueue, logger: createLogger(config) });
    const discovery = await h.sandbox.createDiscovery({
      firstName: 'Alan',
      lastName: 'Turing',
      dateOfBirth: '06/23/1954',
      state: 'CA',
      delayMs: -1,
    });
    const body = delivery('sandbox.discovery.updated', { discoveryId: discovery.discoveryId, status: 'pending' });
    const concurrent = await Promise.all([deliver(app, body), deliver(app, body)]);
    const later = await deliver(app, body);
    const answers = [...concurrent, later];
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      [200, 200, 200],
    );
    const duplicates = answers.filter((r) => r.json<{ duplicate?: boolean }>().duplicate === true);
    assert.equal(duplicates.length, 2, 'two of the three are answered as duplicates');
    const history = await client.workflow.getHandle(discoveryWorkflowId(discovery.discoveryId)).fetchHistory();
    const signals = history.events?.filter((e) => e.workflowExecutionSignaledEventAttributes) ?? [];
    assert.equal(signals.length, 1);
    // History names the receiver as the signal's sender, not a process id.
    assert.equal(signals[0]!.workflowExecutionSignaledEventAttributes!.identity, RECEIVER_IDENTITY);
    assert.equal(RECEIVER_IDENTITY, 'webhook:eligibility');
    await client.workflow
      .getHandle(discoveryWorkflowId(discovery.discoveryId))
      .signal(cancelSignal, { reason: 'test' });
  });
});
