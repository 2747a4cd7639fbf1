import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import {
  AuthenticationError,
  EligibilityClient,
  InvalidRequestError,
  NetworkError,
  RateLimitError,
  UnexpectedResponseError,
} from '../../src/client/index.js';
import { freePort } from '../../src/free-port.js';
import { json, serviceConfig, startLocalServer, TEST_TOKEN, type Handler, type LocalServer } from './local-server.js';
import { rejection } from './requests.js';
import { v1Request, v2Request } from '../../testing/fixtures.js';

const SECRET = 'local-secret-do-not-print';
const payer = { payerId: '60054', payerName: 'Evergreen', aliasPayerIds: [], aliasPayerNames: [] };
const verification = { verificationId: randomUUID() };

describe('EligibilityClient against a local HTTP server', () => {
  let server: LocalServer | undefined;
  const errors: unknown[] = [];

  async function clientFor(handler: Handler, token?: Handler, overrides = {}) {
    server = await startLocalServer(handler, token);
    return new EligibilityClient(serviceConfig(server.url, { clientSecret: SECRET, ...overrides }));
  }

  /** Every error a test saw, checked at the end for secrets. */
  async function failure(promise: Promise<unknown>): Promise<unknown> {
    const err = await rejection(promise);
    errors.push(err);
    return err;
  }

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends the bearer token, the idempotency key in the configured header and the contract body', async () => {
    const client = await clientFor((_req, res) => json(res, 200, verification), undefined, {
      idempotencyHeader: 'X-Request-Key',
    });
    const key = randomUUID();
    const result = await client.createVerificationV2(v2Request({ id: 'caller-1' }), { idempotencyKey: key });
    assert.deepEqual(result, verification);
    const [call] = server!.calls();
    assert.equal(call?.headers.authorization, `Bearer ${TEST_TOKEN}`);
    assert.equal(call?.headers['x-request-key'], key);
    assert.deepEqual(call?.body, v2Request({ id: 'caller-1' }));
    assert.deepEqual(server!.tokenRequests()[0]?.body, { client_id: 'sandbox-client', client_secret: SECRET });
  });

  it('sends v1 requests with the configured NPI and taxonomy field names', async () => {
    const client = await clientFor(
      (_req, res) => json(res, 200, { patientId: '1000001', ...verification }),
      undefined,
      {
        v1NpiField: 'providerNpi',
        v1TaxonomyField: 'taxonomy',
      },
    );
    await client.createVerificationV1(v1Request());
    const { npi, taxonomyCode, ...rest } = v1Request();
    assert.deepEqual(server!.calls()[0]?.body, { ...rest, providerNpi: npi, taxonomy: taxonomyCode });
    // A bad NPI is named by the field name the service knows.
    const err = await failure(client.createVerificationV1(v1Request({ npi: '12' })));
    assert.ok(err instanceof InvalidRequestError);
    assert.equal(err.param, 'providerNpi');
    assert.equal(server!.calls().length, 1, 'the bad request was not sent');
  });

  it('percent-encodes path parameters and refuses dot segments', async () => {
    const client = await clientFor((_req, res) => json(res, 200, payer));
    await client.getPayer('a/b?c#d e');
    assert.equal(server!.calls()[0]?.url, '/v1/payers/a%2Fb%3Fc%23d%20e');
    for (const bad of ['', '.', '..']) {
      const err = await failure(client.getPayer(bad));
      assert.ok(err instanceof InvalidRequestError);
      assert.equal(err.param, 'payerId');
    }
    assert.equal(server!.calls().length, 1);
  });

  it('refuses an idempotency key that is not a UUID v4, naming the header', async () => {
    const client = await clientFor((_req, res) => json(res, 200, verification));
    const err = await failure(client.createVerificationV2(v2Request({ id: 'c-9' }), { idempotencyKey: 'not-a-uuid' }));
    assert.ok(err instanceof InvalidRequestError);
    assert.deepEqual([err.param, err.id], ['Idempotency-Key', 'c-9']);
    assert.equal(server!.received.length, 0, 'not even a token was fetched');
  });

  for (const status of [400, 503]) {
    it(`recognises a rate limit by the body alone (status ${status})`, async () => {
      const client = await clientFor((_req, res) => json(res, status, { error: 'Too many requests' }));
      const err = await failure(client.getPayer('60054'));
      assert.ok(err instanceof RateLimitError, `got ${String(err)}`);
      assert.equal(err.status, status);
      assert.equal(err.retryAfterMs, undefined);
    });
  }

  const failing: [string, Handler][] = [
    ['a 503', (_req, res) => json(res, 503, { error: 'server_error' })],
    ['a 429 with Retry-After', (_req, res) => json(res, 429, { error: 'Too many requests' }, { 'Retry-After': '1' })],
    ['a dropped connection', (_req, res) => res.socket?.destroy()],
  ];
  for (const [what, handler] of failing) {
    it(`sends a GET met by ${what} once: Temporal, not the client, retries`, async () => {
      const client = await clientFor(handler);
      await failure(client.getPayer('60054'));
      assert.equal(server!.calls().length, 1);
    });
  }

  it('reads an HTTP-date Retry-After', async () => {
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 4000).toUTCString();
    const client = await clientFor((_req, res) =>
      json(res, 429, { error: 'Too many requests' }, { 'Retry-After': at }),
    );
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof RateLimitError);
    assert.ok(
      err.retryAfterMs !== undefined && err.retryAfterMs > 2000 && err.retryAfterMs <= 5000,
      `${err.retryAfterMs}`,
    );
  });

  it('refreshes the token once on a 401 and then gives up with AuthenticationError', async () => {
    const client = await clientFor((_req, res) => json(res, 401, { error: 'invalid_request_error' }));
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof AuthenticationError);
    assert.equal(err.message, '401 invalid_request_error');
    assert.equal(server!.tokenRequests().length, 2);
    assert.equal(server!.calls().length, 2);
  });

  it('repeats a call rejected with 403 once with a fresh token', async () => {
    let rejected = false;
    const client = await clientFor((_req, res) => {
      if (!rejected) {
        rejected = true;
        return json(res, 403, { error: 'invalid_request_error' });
      }
      json(res, 200, payer);
    });
    assert.deepEqual(await client.getPayer('60054'), payer);
    assert.equal(server!.tokenRequests().length, 2);
  });

  it('reports refused credentials as AuthenticationError without the secret', async () => {
    const client = await clientFor(
      (_req, res) => json(res, 200, payer),
      (_req, res) => json(res, 400, { error: 'invalid_request_error' }),
    );
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof AuthenticationError);
    assert.match(err.message, /^400 invalid_request_error .*ELIGIBILITY_CLIENT_SECRET/);
    assert.equal(server!.calls().length, 0);
  });

  it('rejects a 2xx body that breaks the contract, naming the path but not the value', async () => {
    const client = await clientFor((_req, res) => json(res, 200, { ...payer, payerName: 12345678 }));
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof UnexpectedResponseError);
    assert.equal(err.path, 'payerName');
    assert.equal(
      err.message,
      '200 response of GET /v1/payers/{payerId} does not match the contract at payerName (invalid_type)',
    );
    assert.doesNotMatch(inspect(err), /12345678/);
  });

  it('rejects a body that is not JSON', async () => {
    const client = await clientFor((_req, res) => res.writeHead(200).end('<html>'));
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof UnexpectedResponseError);
    assert.equal(err.path, 'body');
  });

  it('turns a closed port into NetworkError', async () => {
    const port = await freePort();
    const client = new EligibilityClient(serviceConfig(`http://127.0.0.1:${port}`, { clientSecret: SECRET }));
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof NetworkError);
    assert.equal(err.code, 'ECONNREFUSED');
    assert.equal(err.notSent, true, 'a connection never made sent nothing');
    assert.equal(err.message, 'network error on POST /oauth/token: ECONNREFUSED');
  });

  it('turns a timeout into NetworkError', async () => {
    const client = await clientFor(() => undefined /* never answers */, undefined, { timeoutMs: 200 });
    const err = await failure(client.getPayer('60054'));
    assert.ok(err instanceof NetworkError);
    assert.equal(err.code, 'TIMEOUT');
    assert.equal(err.notSent, false);
  });

  it('turns a dropped connection into NetworkError', async () => {
    const client = await clientFor((_req, res) => res.socket?.destroy());
    const err = await failure(client.createVerificationV2(v2Request(), { idempotencyKey: randomUUID() }));
    assert.ok(err instanceof NetworkError, `got ${String(err)}`);
    assert.equal(err.endpoint, 'POST /v2/verifications');
    assert.equal(err.notSent, false, `the request was written before the drop (${err.code})`);
  });

  it('rejects with the reason of an aborted signal', async () => {
    const client = await clientFor(() => undefined);
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    const pending = client.getPayer('60054', { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    assert.equal(await rejection(pending), reason);
  });

  it('never shows the secret or a token in any error', () => {
    assert.ok(errors.length >= 10, `${errors.length} errors collected`);
    for (const err of errors) {
      const shown = [inspect(err, { depth: 10, showHidden: true }), JSON.stringify(err), String(err)].join('\n');
      assert.doesNotMatch(shown, new RegExp(`${SECRET}|${TEST_TOKEN}`));
    }
  });
});
