import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createActivities, type Activities, type ActivityDeps } from '../../activities/index.js';
import { rateLimitBackoffMs, UNAUTHORIZED_RETRY_DELAY_MS } from '../../activities/failures.js';
import { CallOutcomes } from '../../activities/outcomes.js';
import { HELD_BACK_RETRY_MS, RateLimitBrake } from '../../activities/rate-limit-brake.js';
import { EligibilityClient } from '../../src/client/index.js';
import { FailureType } from '../../workflows/shared/failure-types.js';
import { serviceConfig } from '../client/local-server.js';
import { rejection } from '../client/requests.js';
import { v2Request } from '../../testing/fixtures.js';

const token = { access_token: 'activity-test-token', token_type: 'Bearer', expires_in: 3600 };

/** What the fake service answers to every call except the token request. */
type Answer =
  { status: number; body?: unknown; headers?: Record<string, string> } | 'network' | { network: string } | 'hang';

/** Activities over a real client whose `fetch` is a fake service answering `answer`; counts the calls. */
function activitiesAnswering(answer: Answer, deps?: ActivityDeps): { activities: Activities; calls: () => number } {
  let calls = 0;
  const fakeFetch: typeof fetch = async (input) => {
    const request = input as Request;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(body === undefined ? null : JSON.stringify(body), { status, headers });
    if (new URL(request.url).pathname === '/oauth/token') return reply(200, token);
    calls += 1;
    // As fetch fails: a TypeError whose cause, the socket's error, has a code naming what went wrong.
    const wireError = (code: string) =>
      new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code }) });
    if (answer === 'network') throw wireError('ECONNRESET');
    if (typeof answer === 'object' && 'network' in answer) throw wireError(answer.network);
    if (answer === 'hang') {
      return new Promise((_resolve, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason as Error)),
      );
    }
    return reply(answer.status, answer.body, answer.headers);
  };
  const client = new EligibilityClient(serviceConfig('http://service.invalid'), { fetch: fakeFetch });
  return { activities: createActivities(client, deps), calls: () => calls };
}

/** A mock environment that keeps the expected `Activity failed` warnings out of the test output. */
function mockEnv(attempt = 1): MockActivityEnvironment {
  return new MockActivityEnvironment({ attempt }, { logger: new DefaultLogger('ERROR') });
}

async function failureOf(answer: Answer, attempt = 1): Promise<ApplicationFailure> {
  const { activities } = activitiesAnswering(answer);
  const err = await rejection(mockEnv(attempt).run(activities.lookupPayer, '60054'));
  assert.ok(err instanceof ApplicationFailure, `expected an ApplicationFailure, got ${String(err)}`);
  return err;
}

describe('activities: client errors become Temporal failures', () => {
  it('returns the contract value on success', async () => {
    const payer = { payerId: '60054', payerName: 'Evergreen', aliasPayerIds: ['EVG01'], aliasPayerNames: [] };
    const { activities } = activitiesAnswering({ status: 200, body: payer });
    assert.deepEqual(await mockEnv().run(activities.lookupPayer, '60054'), payer);
  });

  it('makes a 400 a non-retryable InvalidRequest with details {param, id}', async () => {
    const f = await failureOf({ status: 400, body: { error: 'invalid_request_error', param: 'payerId', id: 'c-1' } });
    assert.equal(f.type, FailureType.InvalidRequest);
    assert.equal(f.nonRetryable, true);
    assert.deepEqual(f.details, [{ param: 'payerId', id: 'c-1' }]);
    assert.match(f.message, /\(param payerId\)/);
  });

  it('makes a request the contract refuses an InvalidRequest before any call', async () => {
    const { activities, calls } = activitiesAnswering({ status: 200, body: {} });
    const bad = v2Request({ id: 'c-2', patient: { ...v2Request().patient, dateOfBirth: '1987-04-12' } });
    const err = await rejection(mockEnv().run(activities.createVerificationV2, bad, randomUUID()));
    assert.ok(err instanceof ApplicationFailure);
    assert.equal(err.type, FailureType.InvalidRequest);
    assert.equal(err.nonRetryable, true);
    assert.deepEqual(err.details, [{ param: 'patient.dateOfBirth', id: 'c-2' }]);
    assert.match(err.message, /patient\.dateOfBirth/);
    assert.doesNotMatch(err.message, /1987/, 'no patient value in the message');
    assert.equal(calls(), 0);
  });

  it('makes a 404 a non-retryable NotFound', async () => {
    const f = await failureOf({ status: 404, body: { error: 'invalid_request_error' } });
    assert.deepEqual([f.type, f.nonRetryable], [FailureType.NotFound, true]);
  });

  it("makes a 429 a retryable RateLimited carrying the server's Retry-After as nextRetryDelay", async () => {
    const f = await failureOf({ status: 429, body: { error: 'Too many requests' }, headers: { 'Retry-After': '3' } });
    assert.deepEqual([f.type, f.nonRetryable], [FailureType.RateLimited, false]);
    assert.equal(f.nextRetryDelay, 3000); // milliseconds: the same Duration as '3s'
  });

  it('recognises a rate limit by the body alone, whatever the status', async () => {
    const f = await failureOf({ status: 503, body: { error: 'Too many requests' } });
    assert.deepEqual([f.type, f.nonRetryable], [FailureType.RateLimited, false]);
  });

  it('backs off exponentially with jitter from the attempt when the service gives no Retry-After', async () => {
    const f = await failureOf({ status: 429, body: { error: 'Too many requests' } }, 3);
    assert.equal(f.type, FailureType.RateLimited);
    const delay = f.nextRetryDelay as number;
    assert.ok(delay >= 2000 && delay <= 4000, `attempt 3: between 2 s and 4 s, got ${delay}`);
    assert.equal(
      rateLimitBackoffMs(1, () => 0),
      500,
    );
    assert.equal(
      rateLimitBackoffMs(1, () => 1),
      1000,
    );
    assert.equal(
      rateLimitBackoffMs(30, () => 1),
      60_000,
      'capped at a minute',
    );
  });

  it('makes a persistent 401/403 a retryable Unauthorized, retried slowly', async () => {
    for (const status of [401, 403]) {
      const f = await failureOf({ status, body: { error: 'invalid_request_error' } });
      assert.deepEqual([f.type, f.nonRetryable], [FailureType.Unauthorized, false], String(status));
      assert.equal(f.nextRetryDelay, UNAUTHORIZED_RETRY_DELAY_MS);
    }
  });

  it('makes a 5xx a retryable ServerError', async () => {
    const f = await failureOf({ status: 500 });
    assert.deepEqual([f.type, f.nonRetryable], [FailureType.ServerError, false]);
    assert.equal(f.message, '500 no error body');
  });

  it('makes a connection failure a retryable NetworkError', async () => {
    const f = await failureOf('network');
    assert.deepEqual([f.type, f.nonRetryable], [FailureType.NetworkError, false]);
  });

  it('makes a response outside the contract a non-retryable UnexpectedResponse', async () => {
    const f = await failureOf({ status: 200, body: { payerId: '60054' } });
    assert.deepEqual([f.type, f.nonRetryable], [FailureType.UnexpectedResponse, true]);
  });

  it('aborts the HTTP call when the activity is cancelled', async () => {
    const { activities, calls } = activitiesAnswering('hang');
    const env = mockEnv();
    const pending = env.run(activities.lookupPayer, '60054');
    setTimeout(() => env.cancel(), 50);
    const err = await rejection(pending);
    assert.ok(err instanceof CancelledFailure, `got ${String(err)}`);
    assert.equal(calls(), 1);
  });
});

describe('activities: v1 creation, which has no idempotency, reports an unknown outcome as AmbiguousOutcome', () => {
  const v1 = { patientId: '1000001', memberId: 'M7654321', payerId: '60054', npi: '1234567893' };

  async function v1FailureOf(answer: Answer): Promise<ApplicationFailure> {
    const { activities } = activitiesAnswering(answer);
    const err = await rejection(mockEnv().run(activities.createVerificationV1, v1));
    assert.ok(err instanceof ApplicationFailure, `expected an ApplicationFailure, got ${String(err)}`);
    return err;
  }

  it('makes a call that may have been processed a non-retryable AmbiguousOutcome', async () => {
    const ambiguous: [string, Answer][] = [
      ['a connection dropped after sending', { network: 'UND_ERR_SOCKET' }],
      ['a reset connection', 'network'],
      ['the client timeout', { network: 'TIMEOUT' }],
      ['a 500', { status: 500 }],
      ['a 503', { status: 503, body: { error: 'unavailable' } }],
      ['a 2xx outside the contract', { status: 201, body: { verificationId: 'not-a-uuid' } }],
    ];
    for (const [what, answer] of ambiguous) {
      const f = await v1FailureOf(answer);
      assert.deepEqual([f.type, f.nonRetryable], [FailureType.AmbiguousOutcome, true], what);
      assert.match(f.message, /\(the verification may have been created\)$/, what);
    }
  });

  it('keeps definite refusals as they are for every call', async () => {
    const refused: [string, Answer, string, boolean][] = [
      ['a refused connection', { network: 'ECONNREFUSED' }, FailureType.NetworkError, false],
      ['an unresolved host', { network: 'ENOTFOUND' }, FailureType.NetworkError, false],
      ['a 408', { status: 408 }, FailureType.ServerError, false],
      ['a 429', { status: 429, body: { error: 'Too many requests' } }, FailureType.RateLimited, false],
      ['a 403', { status: 403, body: { error: 'invalid_request_error' } }, FailureType.Unauthorized, false],
      [
        'a 400',
        { status: 400, body: { error: 'invalid_request_error', param: 'npi' } },
        FailureType.InvalidRequest,
        true,
      ],
    ];
    for (const [what, answer, type, nonRetryable] of refused) {
      const f = await v1FailureOf(answer);
      assert.deepEqual([f.type, f.nonRetryable], [type, nonRetryable], what);
    }
  });

  it('puts the delay a 429 asks for into the details, where a workflow retrying by itself reads it', async () => {
    const f = await v1FailureOf({ status: 429, body: { error: 'Too many requests' }, headers: { 'Retry-After': '4' } });
    assert.deepEqual(f.details, [{ retryDelayMs: 4000 }]);
  });
});

describe('activities: a call the worker’s brake sends back to the task queue', () => {
  /** A brake after four 429s and no answer: its next turn is 1.6 s away, past what it holds. */
  function fullBrake(): RateLimitBrake {
    const brake = new RateLimitBrake(() => 0);
    for (let i = 0; i < 4; i += 1) brake.rateLimited();
    return brake;
  }

  it('fails the attempt as a 429 does, without calling the service or telling the governor', async () => {
    const outcomes = new CallOutcomes();
    const { activities, calls } = activitiesAnswering({ status: 200 }, { brake: fullBrake(), outcomes });
    const err = await rejection(mockEnv().run(activities.lookupPayer, '60054'));
    assert.ok(err instanceof ApplicationFailure);
    assert.deepEqual(
      [err.type, err.nonRetryable, err.nextRetryDelay],
      [FailureType.RateLimited, false, HELD_BACK_RETRY_MS],
    );
    assert.equal(calls(), 0);
    assert.deepEqual(outcomes.pending, { answered: 0, failed: 0, rateLimited: 0, retryAfterMs: 0 });
  });

  it('is a definite refusal for v1 creation, with its delay where the workflow reads it', async () => {
    const { activities, calls } = activitiesAnswering({ status: 200 }, { brake: fullBrake() });
    const v1 = { patientId: '1000001', memberId: 'M7654321', payerId: '60054', npi: '1234567893' };
    const err = await rejection(mockEnv().run(activities.createVerificationV1, v1));
    assert.ok(err instanceof ApplicationFailure);
    assert.deepEqual([err.type, err.nonRetryable], [FailureType.RateLimited, false]);
    assert.deepEqual(err.details, [{ retryDelayMs: HELD_BACK_RETRY_MS }]);
    assert.equal(calls(), 0);
  });
});
