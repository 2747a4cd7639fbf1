import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { MAX_PATH_SEGMENT, RETRY_AFTER_SECONDS } from '../../apps/intake-api/errors.js';
import { jsonDepth } from '../../apps/intake-api/json-depth.js';
import { createLogger } from '../../src/logging.js';
import { testTemporal } from '../../testing/temporal.js';
import { TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';

const config = loadConfig('intake', {
  INTAKE_API_KEY: TEST_INTAKE_KEY,
  LOG_LEVEL: 'silent',
  INTAKE_TEMPORAL_TIMEOUT_MS: '1500',
});

function intakeApi(client: Client, taskQueue = 'edge-errors-never-polled'): FastifyInstance {
  return createIntakeApi({ config, client, taskQueue, logger: createLogger(config) });
}

const start = (api: FastifyInstance, payload: string | object) =>
  api.inject({
    method: 'POST',
    url: '/verifications',
    headers: { 'x-api-key': TEST_INTAKE_KEY, 'content-type': 'application/json' },
    payload,
  });

async function workflowsWithId(workflowId: string): Promise<number> {
  return (await testTemporal().client.workflow.count(`WorkflowId = "${workflowId}"`)).count;
}

describe('intake API: permanent errors are 400s, an unavailable Temporal is a 503', function () {
  this.timeout(20_000);

  it('refuses a payerId or discoveryId over 2 KB with 400 naming it, and starts nothing', async () => {
    const api = intakeApi(testTemporal().client);
    try {
      for (const field of ['payerId', 'discoveryId']) {
        const request = v2Intake({ [field]: 'x'.repeat(2049) });
        const response = await start(api, request);
        assert.equal(response.statusCode, 400, response.body);
        assert.deepEqual(response.json<{ error: string; param: string }>().param, field);
        assert.equal(await workflowsWithId(`verification-${request.id}`), 0);
      }
    } finally {
      await api.close();
    }
  });

  it('refuses a lone surrogate (not valid UTF-8) with 400 naming the field, never 503', async () => {
    const api = intakeApi(testTemporal().client);
    try {
      // JSON.stringify writes a lone surrogate as the escape `\ud800`, which JSON.parse turns back into one.
      const badId = await start(api, JSON.stringify(v2Intake({ id: 'caller-\ud800' })));
      assert.deepEqual([badId.statusCode, badId.json<{ param: string }>().param], [400, 'id']);
      const request = v2Intake({ patient: { ...v2Intake().patient, lastName: 'Love\udc00lace' } });
      const badName = await start(api, JSON.stringify(request));
      assert.deepEqual([badName.statusCode, badName.json<{ param: string }>().param], [400, 'patient.lastName']);
      assert.doesNotMatch(badName.body, /Love/);
      assert.equal(await workflowsWithId(`verification-${request.id}`), 0);
    } finally {
      await api.close();
    }
  });

  it('answers 400, not 503, when Temporal itself refuses the request as invalid (INVALID_ARGUMENT)', async () => {
    // A task queue name over Temporal's 1,000-byte limit: the start is refused by the server, whatever the body.
    const api = intakeApi(testTemporal().client, 'q'.repeat(1001));
    try {
      const response = await start(api, v2Intake());
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json(), {
        error: 'invalid_request_error',
        message: 'Temporal refused the request as invalid (INVALID_ARGUMENT)',
      });
      assert.equal(response.headers['retry-after'], undefined);
    } finally {
      await api.close();
    }
  });

  it('refuses run input nested deeper than its bound with 400 naming input (Temporal’s converter would overflow)', async () => {
    const api = intakeApi(testTemporal().client);
    try {
      const depth = 10_000;
      const input = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const response = await api.inject({
        method: 'POST',
        url: '/verifications/verification-any/runs/any-run/input',
        headers: { 'x-api-key': TEST_INTAKE_KEY, 'content-type': 'application/json' },
        payload: `{"input":${input}}`,
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json<{ param: string }>().param, 'input');
      assert.equal(jsonDepth({ a: [1, { b: {} }] }), 4);
      assert.equal(jsonDepth(JSON.parse(`{"input":${input}}`)), depth + 1);
    } finally {
      await api.close();
    }
  });

  it('refuses an over-long id in the path with 400 in the API’s shape, naming it, never quoting it', async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const api = intakeApi(new Client({ connection }));
    const get = (url: string) => api.inject({ url, headers: { 'x-api-key': TEST_INTAKE_KEY } });
    try {
      // Longer than the schema takes: routed, and refused by the route's schema by name.
      const long = await get(`/verifications/${'w'.repeat(1001)}`);
      assert.equal(long.statusCode, 400, long.body);
      assert.equal(long.json<{ param: string }>().param, 'workflowId');
      const run = await get(`/verifications/v-1/runs/${'r'.repeat(201)}/input`);
      assert.equal(run.statusCode, 405, 'a known path, another method');
      // Longer than any route takes even percent-encoded: refused before routing, in the same shape.
      const huge = await get(`/verifications/${'w'.repeat(MAX_PATH_SEGMENT + 1)}`);
      const badEncoding = await get('/verifications/verification-%E0%A4%A');
      for (const response of [long, huge, badEncoding]) {
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json<{ error: string }>().error, 'invalid_request_error');
        assert.doesNotMatch(response.body, /www|%E0|verification-/);
      }
      assert.deepEqual(
        [huge.json<{ param: string }>().param, badEncoding.json<{ param: string }>().param],
        ['path', 'path'],
      );
    } finally {
      await api.close();
      await connection.close();
    }
  });

  it('answers 405 with Allow for a method a known path does not take, 404 for an unknown path', async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const api = intakeApi(new Client({ connection }));
    const key = { 'x-api-key': TEST_INTAKE_KEY };
    try {
      for (const [method, url, allow] of [
        ['TRACE', '/verifications/verification-x', 'GET, HEAD'],
        ['QUERY', '/batches/b-1', 'GET, HEAD'],
        ['PUT', '/verifications', 'GET, HEAD, POST'],
        ['PATCH', '/batches', 'GET, HEAD, POST'],
        // A static path is not the id of the parametric route beside it.
        ['GET', '/patients/lookup', 'POST'],
        ['PUT', '/appointments/uploads', 'POST'],
        ['OPTIONS', '/event-endpoints/ep_1', 'DELETE, GET, HEAD, PATCH'],
      ] as const) {
        const response = await api.inject({ method, url, headers: { ...key, 'content-type': 'application/json' } });
        assert.deepEqual([method, url, response.statusCode, response.headers.allow], [method, url, 405, allow]);
        assert.equal(response.json<{ error: string }>().error, 'method_not_allowed');
      }
      const unknown = await api.inject({ method: 'TRACE', url: '/verification', headers: key });
      assert.equal(unknown.statusCode, 404);
      const anonymous = await api.inject({ method: 'TRACE', url: '/verifications' });
      assert.equal(anonymous.statusCode, 401, 'the key is checked first');
    } finally {
      await api.close();
      await connection.close();
    }
  });

  it('answers a missing batch 404 without repeating its id', async () => {
    const api = intakeApi(testTemporal().client);
    try {
      const batchId = 'edge-missing-batch-7731';
      for (const url of [`/batches/${batchId}`, `/batches/${batchId}/items`]) {
        const response = await api.inject({ url, headers: { 'x-api-key': TEST_INTAKE_KEY } });
        assert.equal(response.statusCode, 404, response.body);
        assert.deepEqual(response.json(), { error: 'not_found', message: 'no such batch' });
      }
    } finally {
      await api.close();
    }
  });

  it('answers 503 with Retry-After when Temporal cannot be reached', async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const api = intakeApi(new Client({ connection }));
    try {
      const response = await start(api, v2Intake());
      assert.equal(response.statusCode, 503, response.body);
      assert.equal(response.headers['retry-after'], String(RETRY_AFTER_SECONDS));
      assert.equal(response.json<{ error: string }>().error, 'temporal_unavailable');
      const status = await api.inject({
        method: 'GET',
        url: '/verifications/verification-x',
        headers: { 'x-api-key': TEST_INTAKE_KEY },
      });
      assert.equal(status.statusCode, 503);
    } finally {
      await api.close();
      await connection.close();
    }
  });
});
