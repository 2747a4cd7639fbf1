import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  AuthenticationError,
  EligibilityError,
  InvalidRequestError,
  MAX_RETRY_AFTER_MS,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnexpectedResponseError,
  parseRetryAfter,
} from '../../src/client/index.js';

const endpoint = 'POST /v2/verifications';
const none = new Headers();

describe('EligibilityError.generate', () => {
  it('gives each status its error kind', () => {
    const cases: [number, new (...args: never[]) => EligibilityError][] = [
      [400, InvalidRequestError],
      [409, InvalidRequestError],
      [422, InvalidRequestError],
      [401, AuthenticationError],
      [403, AuthenticationError],
      [404, NotFoundError],
      [429, RateLimitError],
      [408, ServerError],
      [500, ServerError],
      [502, ServerError],
      [503, ServerError],
      [302, UnexpectedResponseError],
    ];
    for (const [status, kind] of cases) {
      const err = EligibilityError.generate(status, { error: 'invalid_request_error' }, none, endpoint);
      assert.ok(err instanceof kind, `${status} -> ${kind.name}, got ${err.name}`);
      assert.equal(err.status, status);
    }
  });

  it('recognises a rate limit by its body whatever the status', () => {
    for (const status of [200, 400, 403, 500, 503]) {
      const err = EligibilityError.generate(status, { error: 'Too many requests' }, none, endpoint);
      assert.ok(err instanceof RateLimitError, `${status} with the rate-limit body`);
      assert.equal(err.error, 'Too many requests');
    }
  });

  it('carries status, error, param and id, and says them in the message', () => {
    const body = { error: 'invalid_request_error', param: 'patient.dateOfBirth', id: 'caller-7' };
    const err = EligibilityError.generate(400, body, none, endpoint);
    assert.deepEqual(
      [err.status, err.error, err.param, err.id, err.endpoint],
      [400, body.error, body.param, 'caller-7', endpoint],
    );
    assert.equal(err.message, '400 invalid_request_error (param patient.dateOfBirth)');
    assert.equal(EligibilityError.generate(500, undefined, none, endpoint).message, '500 no error body');
    assert.equal(
      EligibilityError.generate(404, { error: 'invalid_request_error' }, none, endpoint).message,
      '404 invalid_request_error',
    );
  });

  it('keeps nothing of a body but error, param and id', () => {
    const body = { error: 'invalid_request_error', param: 'patient', firstName: 'Avery', dateOfBirth: '04/12/1987' };
    const err = EligibilityError.generate(400, body, none, endpoint);
    assert.doesNotMatch(inspect(err), /Avery|04\/12\/1987/);
    // A malformed param does not lose the kind of error.
    const odd = EligibilityError.generate(429, { error: 'Too many requests', param: 42 }, none, endpoint);
    assert.equal(odd.error, 'Too many requests');
    assert.equal(odd.param, undefined);
  });

  it('reads Retry-After into retryAfterMs', () => {
    const err = EligibilityError.generate(
      429,
      { error: 'Too many requests' },
      new Headers({ 'Retry-After': '3' }),
      endpoint,
    );
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfterMs, 3000);
    const without = EligibilityError.generate(429, undefined, none, endpoint);
    assert.ok(without instanceof RateLimitError);
    assert.equal(without.retryAfterMs, undefined);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delay-seconds', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('1.5', now), 1500);
  });

  it('reads an HTTP-date relative to now', () => {
    assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now), 0, 'a date in the past means now');
  });

  it('bounds what it reports', () => {
    assert.equal(parseRetryAfter('86400', now), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:00 GMT', now), MAX_RETRY_AFTER_MS);
  });

  it('ignores an absent or unreadable header', () => {
    for (const value of [null, undefined, '', 'soon', '-1', '7s'])
      assert.equal(parseRetryAfter(value, now), undefined, String(value));
  });
});
