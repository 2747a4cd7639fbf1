import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('config', () => {
  it('parses an empty environment into local defaults', () => {
    const config = loadConfig('worker', {});
    assert.equal(config.temporal.address, '127.0.0.1:7233');
    assert.equal(config.temporal.taskQueue, 'eligibility');
    assert.equal(config.service.baseUrl, 'http://127.0.0.1:4010');
    assert.equal(config.service.idempotencyHeader, 'Idempotency-Key');
  });

  it('parses a valid environment', () => {
    const config = loadConfig('worker', {
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_NAMESPACE: 'eligibility-prod',
      ELIGIBILITY_BASE_URL: 'https://api.example.test',
      ELIGIBILITY_MAX_RPS: '7.5',
      LOG_LEVEL: 'warn',
    });
    assert.equal(config.temporal.address, 'temporal.internal:7233');
    assert.equal(config.temporal.namespace, 'eligibility-prod');
    assert.equal(config.service.baseUrl, 'https://api.example.test');
    assert.equal(config.service.maxRps, 7.5);
    assert.equal(config.log.level, 'warn');
  });

  it('rejects an invalid environment naming every bad variable, without echoing values', () => {
    assert.throws(
      () =>
        loadConfig('worker', {
          ELIGIBILITY_BASE_URL: 'not a url',
          WORKER_HTTP_PORT: '70000',
          ELIGIBILITY_CLIENT_SECRET: '',
        }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.deepEqual(
          err.problems.map((p) => p.variable),
          ['WORKER_HTTP_PORT', 'ELIGIBILITY_BASE_URL'],
        );
        assert.match(err.message, /ELIGIBILITY_BASE_URL/);
        assert.doesNotMatch(err.message, /not a url/);
        return true;
      },
    );
  });

  it('reads tenant weights as JSON and refuses weights Temporal would not take, naming the variable', () => {
    const config = loadConfig('worker', { ELIGIBILITY_TENANT_WEIGHTS: '{"clinic-7":2,"clinic-8":0.5}' });
    assert.deepEqual(config.tenants.weights, { 'clinic-7': 2, 'clinic-8': 0.5 });
    assert.deepEqual(loadConfig('worker', {}).tenants.weights, {});
    for (const bad of ['{"clinic-7":0}', '{"clinic-7":"heavy"}', '[2]', 'clinic-7=2']) {
      assert.throws(
        () => loadConfig('worker', { ELIGIBILITY_TENANT_WEIGHTS: bad }),
        (err: unknown) => err instanceof ConfigError && err.problems[0]?.variable === 'ELIGIBILITY_TENANT_WEIGHTS',
        bad,
      );
    }
  });

  it("passes the operating system's PATH through as the search path, outside the table", () => {
    assert.equal(loadConfig('dev', { PATH: '/opt/bin:/usr/bin' }).temporal.searchPath, '/opt/bin:/usr/bin');
  });
});
