import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';
import { TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';
import { documentedPath, watchAnswers } from '../../testing/documented-answers.js';
import { MAX_RETRY_WINDOW_SECONDS } from '../../apps/intake-api/openapi.js';
import { OPENAPI_PATH } from '../../apps/intake-api/reference.js';
import { RetryWindowSchema } from '../../src/batches/limits.js';
import { unreachableIntakeApi } from '../../testing/unreachable-intake-api.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content: Record<string, { example?: unknown; schema: { $ref?: string; examples?: unknown[] } }> };
  responses: Record<string, unknown>;
}
interface Document {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { examples?: unknown[] }> };
}

/** An API over a Temporal server that cannot be reached: the document and every refusal before a Temporal call. */
const unreachableApi = () => unreachableIntakeApi({ INTAKE_TEMPORAL_TIMEOUT_MS: '300' });

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ path, method, operation })),
  );

describe('intake API OpenAPI document', () => {
  it('is served without an API key and is a valid OpenAPI 3.1 document', async () => {
    // Serving the document touches no Temporal server.
    const { api, close } = unreachableIntakeApi();
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
        '/appointments/uploads',
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
      await close();
    }
  });

  it('documents every route Fastify registers, and nothing else', async () => {
    const { api, close } = unreachableApi();
    const registered: string[] = [];
    api.addHook('onRoute', (route) => {
      const hidden = route.schema?.hide === true;
      for (const method of [route.method].flat()) {
        if (!hidden && method !== 'HEAD') registered.push(`${method} ${documentedPath(route.url)}`);
      }
    });
    try {
      await api.ready();
      const document = api.swagger() as unknown as Document;
      const documented = operationsOf(document).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
      assert.deepEqual(documented.sort(), registered.sort());
      assert.ok(registered.includes('POST /batches') && registered.length >= 22, registered.join(', '));
    } finally {
      await close();
    }
  });

  it('documents each operation: its parameters, the answers every route gives, an example of every body', async () => {
    const { api, close } = unreachableApi();
    try {
      await api.ready();
      const document = api.swagger() as unknown as Document;
      for (const { path, method, operation } of operationsOf(document)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(operation.operationId && operation.summary, `${where}: operationId and summary`);
        const statuses = Object.keys(operation.responses);
        const open = operation.security?.length === 0;
        if (!open)
          for (const status of ['401', '403', '503']) assert.ok(statuses.includes(status), `${where}: ${status}`);
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
          assert.ok(
            operation.parameters?.some((p) => p.in === 'path' && p.name === name),
            `${where}: path parameter ${name}`,
          );
        }
        if (operation.parameters?.length || operation.requestBody) assert.ok(statuses.includes('400'), `${where}: 400`);
        if (['post', 'patch'].includes(method)) {
          for (const status of ['400', '413', '415']) assert.ok(statuses.includes(status), `${where}: ${status}`);
        }
        const media = operation.requestBody?.content['application/json'];
        if (media) {
          const named = media.schema.$ref
            ? document.components.schemas[media.schema.$ref.split('/').pop()!]
            : media.schema;
          assert.ok(media.example !== undefined || named?.examples?.length, `${where}: an example body`);
        }
      }
    } finally {
      await close();
    }
  });

  it('states the rules its bodies check across fields, and names in each 400 the refusals no schema can state', async () => {
    const { api, close } = unreachableApi();
    try {
      await api.ready();
      const document = api.swagger() as unknown as Document & {
        components: { schemas: Record<string, Record<string, unknown>> };
      };
      const schemas = document.components.schemas;
      const payerOrDiscovery = { anyOf: [{ required: ['payerId'] }, { required: ['discoveryId'] }] };
      const [v2, v1] = schemas.VerificationIntakeRequestInput!.anyOf as Record<string, unknown>[];
      assert.deepEqual(v2!.anyOf, payerOrDiscovery.anyOf);
      assert.deepEqual(v1!.allOf, [
        payerOrDiscovery,
        { anyOf: [{ required: ['memberId'] }, { required: ['discoveryId'] }] },
      ]);
      assert.deepEqual(schemas.PatientSearchRequestInput!.anyOf, [
        { required: ['memberId'] },
        { required: ['lastName', 'dateOfBirth'] },
      ]);
      const endpoint = schemas.EndpointCreateRequestInput!.properties as Record<string, Record<string, unknown>>;
      assert.equal(endpoint.events!.uniqueItems, true);
      assert.equal(endpoint.url!.pattern, '^[Hh][Tt][Tt][Pp][Ss]?://');
      // The retry window the document states is the one the batch schema takes.
      assert.equal(RetryWindowSchema.safeParse(MAX_RETRY_WINDOW_SECONDS).success, true);
      assert.equal(RetryWindowSchema.safeParse(MAX_RETRY_WINDOW_SECONDS + 1).success, false);
      for (const { path, method, operation } of operationsOf(document)) {
        const refused = (operation.responses['400'] as { description?: string } | undefined)?.description ?? '';
        const names = (operation.parameters ?? []).map((p) => p.name);
        if (path.includes('{')) assert.match(refused, /path segment over 9000 characters/, `${method} ${path}`);
        if (names.includes('pageToken')) assert.match(refused, /`pageToken` this list did not hand out/, path);
      }
    } finally {
      await close();
    }
  });

  it('reads like the business: tagged by resource, no Temporal words, Prefer declared, one address', async () => {
    const { api, close } = unreachableApi();
    try {
      await api.ready();
      const document = api.swagger() as unknown as Document;
      const declared = (document.tags ?? []).map((tag) => tag.name);
      for (const tag of document.tags ?? []) assert.ok(tag.description, `tag ${tag.name}: a description`);
      const used = new Set<string>();
      // Words of the engine beneath, not of the integrator: a `workflowId` in backticks is a field and passes.
      const temporalWords =
        /\bTemporal\b|\bworkflows?\b|\bsignal(led)?\b|\bmemo\b|\bvisibility\b|search attributes?|`\w+` (update|query)\b|update id/i;
      const waiting: string[] = [];
      for (const { path, method, operation } of operationsOf(document)) {
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(operation.tags?.length, `${where}: tagged`);
        for (const tag of operation.tags ?? []) {
          assert.ok(declared.includes(tag) && tag !== 'default', `${where}: tag ${tag} declared at the top`);
          used.add(tag);
        }
        const texts = [
          operation.summary,
          operation.description,
          ...(operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.description),
          ...Object.values(operation.responses).map((r) => (r as { description?: string }).description),
        ];
        for (const text of texts) assert.doesNotMatch(text ?? '', temporalWords, `${where}: ${text}`);
        if (operation.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'prefer')) {
          waiting.push(where);
          for (const status of ['200', '202']) {
            const headers = (operation.responses[status] as { headers?: Record<string, unknown> }).headers ?? {};
            assert.ok(headers['Preference-Applied'], `${where} ${status}: Preference-Applied`);
          }
        }
      }
      assert.deepEqual([...used].sort(), [...declared].sort(), 'every declared tag has operations');
      // The routes that read `Prefer` (prefer-wait.ts), each declaring it.
      assert.deepEqual(waiting, ['POST /verifications']);

      const served = await api.inject({ method: 'GET', url: OPENAPI_PATH });
      assert.equal(served.statusCode, 200);
      assert.deepEqual(served.json(), JSON.parse(JSON.stringify(document)));
      // The reference page reads and links that address; the package's own ones lead to it.
      const initializer = await api.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
      assert.ok(initializer.body.includes(`"urls":[{"url":"${OPENAPI_PATH}"`), 'the page reads the one address');
      for (const url of ['/docs/json', '/docs/yaml']) {
        const moved = await api.inject({ method: 'GET', url });
        assert.equal(moved.statusCode, 301, url);
        assert.equal(moved.headers.location, OPENAPI_PATH, url);
      }
    } finally {
      await close();
    }
  });

  it('names every answer its routes give before and without Temporal: 400, 401, 415, 503', async () => {
    const { api, close } = unreachableApi();
    const answers = watchAnswers(api);
    const statuses = new Set<number>();
    try {
      await api.ready();
      const document = api.swagger() as unknown as Document;
      // Every operation at once: each waits out the Temporal timeout of the unreachable server.
      const perOperation = operationsOf(document).map(async ({ path, method }) => {
        const url = path.replace(/\{[^}]+\}/g, (name) => (name === '{batchId}' ? 'b-1' : 'x-1'));
        const upper = method.toUpperCase() as 'GET' | 'POST' | 'PATCH' | 'DELETE';
        const key = { 'x-api-key': TEST_INTAKE_KEY };
        const requests = [
          api.inject({ method: upper, url }),
          api.inject({ method: upper, url: `${url}?unknownParameter=1`, headers: key }),
          api.inject({ method: upper, url, headers: key, ...(upper === 'GET' ? {} : { payload: { input: {} } }) }),
          ...(upper === 'GET' || upper === 'DELETE'
            ? []
            : [
                api.inject({ method: upper, url, headers: { ...key, 'content-type': 'text/plain' }, payload: '{}' }),
                api.inject({
                  method: upper,
                  url,
                  headers: { ...key, 'content-type': 'application/json' },
                  payload: '{',
                }),
              ]),
          ...(path === '/verifications' && upper === 'POST'
            ? [api.inject({ method: upper, url, headers: key, payload: v2Intake() })]
            : []),
        ];
        for (const response of await Promise.all(requests)) statuses.add(response.statusCode);
      });
      await Promise.all(perOperation);
      assert.deepEqual(answers.undocumented(), []);
      for (const status of [400, 401, 415, 503]) assert.ok(statuses.has(status), `answered ${status}`);
    } finally {
      await close();
    }
  });
});
