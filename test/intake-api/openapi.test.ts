import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { Validator } from '@seriousme/openapi-schema-validator';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';

describe('intake API OpenAPI document', () => {
  it('is served without an API key and is a valid OpenAPI 3.1 document', async () => {
    const config = loadConfig({ LOG_LEVEL: 'silent', INTAKE_API_KEY: 'k'.repeat(32) });
    // Serving the document touches no Temporal server: a lazy connection is never used.
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const api = createIntakeApi({
      config,
      client: new Client({ connection }),
      taskQueue: 'q',
      logger: createLogger(config),
    });
    try {
      const response = await api.inject({ method: 'GET', url: '/docs/openapi.json' });
      assert.equal(response.statusCode, 200);
      const document = response.json<{
        openapi: string;
        paths: Record<string, unknown>;
        components: { schemas: Record<string, { anyOf?: unknown[] }> };
      }>();
      assert.equal(document.openapi, '3.1.0');
      const result = await new Validator().validate(document);
      assert.deepEqual(result.errors, undefined);
      assert.equal(result.valid, true);
      assert.deepEqual(Object.keys(document.paths).sort(), [
        '/appointments',
        '/appointments/{appointmentId}',
        '/batches',
        '/batches/{batchId}',
        '/batches/{batchId}/cancel',
        '/batches/{batchId}/items',
        '/batches/{batchId}/resubmit',
        '/batches/{batchId}/results',
        '/coverage-changes',
        '/coverage-changes/{changeId}/seen',
        '/docs/openapi.json',
        '/event-endpoints',
        '/event-endpoints/{endpointId}',
        '/event-endpoints/{endpointId}/deliveries',
        '/event-endpoints/{endpointId}/redeliver',
        '/event-endpoints/{endpointId}/rotate-secret',
        '/patients/lookup',
        '/patients/{patientId}',
        '/verifications',
        '/verifications/search',
        '/verifications/{workflowId}',
        '/verifications/{workflowId}/cancel',
        '/verifications/{workflowId}/review',
        '/verifications/{workflowId}/runs/{flowRunId}/input',
      ]);
      const schemas = (document as { components: { schemas: Record<string, { anyOf?: unknown[] }> } }).components
        .schemas;
      assert.equal(schemas.VerificationIntakeRequest?.anyOf?.length, 2, 'v2 and v1 requests, from the contract');
      const webhooks = (document as { webhooks?: Record<string, unknown> }).webhooks ?? {};
      assert.deepEqual(Object.keys(webhooks), [...EVENT_TYPES], 'every event of the catalogue, in its order');
    } finally {
      await api.close();
      await connection.close();
    }
  });
});
