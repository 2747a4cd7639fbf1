import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccessToken, InvalidRequestBody, TooManyRequestsBody } from '../../src/contract/index.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { call } from './helpers.js';

describe('sandbox: tokens and authentication', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox({ tokenTtlSeconds: 3600 });
  });
  after(() => sandbox.close());
  beforeEach(() => sandbox.reset());

  it('issues a JWT-shaped bearer token for the configured credentials', async () => {
    const res = await call(sandbox, 'POST', '/oauth/token', {
      body: { client_id: sandbox.config.clientId, client_secret: sandbox.config.clientSecret },
    });
    assert.equal(res.status, 200);
    const token = AccessToken.parse(res.body);
    assert.equal(token.expires_in, 3600);
    assert.match(token.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.equal((await sandbox.stats()).tokensIssued, 1);
  });

  it('refuses bad credentials and bad bodies with 400 invalid_request_error', async () => {
    for (const body of [
      { client_id: sandbox.config.clientId, client_secret: 'wrong' },
      { client_id: 'someone-else', client_secret: sandbox.config.clientSecret },
      { client_id: sandbox.config.clientId },
      'not an object',
    ]) {
      const res = await call(sandbox, 'POST', '/oauth/token', { body });
      assert.equal(res.status, 400);
      assert.deepEqual(InvalidRequestBody.strict().parse(res.body), { error: 'invalid_request_error' });
    }
  });

  it('refuses a missing, malformed or unknown token with 403', async () => {
    const unknown = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer not-a-jwt' },
      { authorization: `Bearer ${unknown}` },
    ];
    for (const headers of variants) {
      const res = await call(sandbox, 'GET', '/v1/payers/60054', { headers });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: 'invalid_request_error' });
    }
  });

  it('refuses every token issued before a revocation, and accepts a new one', async () => {
    const token = await sandbox.token();
    assert.equal((await call(sandbox, 'GET', '/v1/payers/60054', { token })).status, 200);
    await sandbox.revokeTokens();
    assert.equal((await call(sandbox, 'GET', '/v1/payers/60054', { token })).status, 403);
    assert.equal((await call(sandbox, 'GET', '/v1/payers/60054', { token: await sandbox.token() })).status, 200);
  });

  it('refuses tokens issued before a reset', async () => {
    const token = await sandbox.token();
    await sandbox.reset();
    assert.equal((await call(sandbox, 'GET', '/v1/payers/60054', { token })).status, 403);
  });

  describe('with a tiny token lifetime', () => {
    let shortLived: TestSandbox;
    before(async () => {
      shortLived = await startTestSandbox({ tokenTtlSeconds: 0.3 });
    });
    after(() => shortLived.close());

    it('refuses an expired token with 403', async () => {
      const token = await shortLived.token();
      assert.equal((await call(shortLived, 'GET', '/v1/payers/60054', { token })).status, 200);
      await sleep(400);
      const res = await call(shortLived, 'GET', '/v1/payers/60054', { token });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: 'invalid_request_error' });
    });
  });

  describe('with a small rate limit', () => {
    let limited: TestSandbox;
    before(async () => {
      limited = await startTestSandbox({ rateBurst: 3, ratePerSecond: 0.5 });
    });
    after(() => limited.close());
    beforeEach(() => limited.reset());

    it('answers 429 Too many requests with a whole-second Retry-After once the bucket is empty', async () => {
      const token = await limited.token();
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 5; i++) {
        last = await call(limited, 'GET', '/v1/payers/60054', { token });
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.ok(last);
      assert.deepEqual(TooManyRequestsBody.parse(last.body), { error: 'Too many requests' });
      const retryAfter = Number(last.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
      const stats = await limited.stats();
      assert.equal(stats.tooManyRequestsSent, 2);
      assert.deepEqual(stats.calls['GET /v1/payers/:payerId'], { '200': 3, '429': 2 });
    });

    it('does not rate-limit the token endpoint', async () => {
      const body = { client_id: limited.config.clientId, client_secret: limited.config.clientSecret };
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await call(limited, 'POST', '/oauth/token', { body })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200], 'twice the limit of 3, all answered');
      const stats = await limited.stats();
      assert.equal(stats.tooManyRequestsSent, 0);
      assert.equal(stats.tokensIssued, 6);
    });
  });
});
