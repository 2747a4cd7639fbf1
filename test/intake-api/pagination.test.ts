import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { loadConfig } from '../../src/config.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices, type EventServices } from '../../src/events/services.js';
import { createLogger } from '../../src/logging.js';
import { PAGE_SIZE, pageToken } from '../../src/pages.js';
import type { Store } from '../../src/store/database.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { testCodecKeys, testBlindIndex } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { watchAnswers } from '../../testing/documented-answers.js';
import { TEST_INTAKE_KEY } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { unreachableIntakeApi } from '../../testing/unreachable-intake-api.js';

interface Schema {
  $ref?: string;
  type?: string | string[];
  default?: unknown;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
}
interface Operation {
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The lists of the API today; the walk below finds them itself, and this says it found them all. */
const LISTS = [
  'GET /batches',
  'GET /batches/{batchId}/items',
  'GET /coverage-changes',
  'GET /event-endpoints',
  'GET /event-endpoints/{endpointId}/deliveries',
  'GET /verifications',
  'POST /verifications/search',
];

const intakeConfig = () => loadConfig('intake', { LOG_LEVEL: 'silent', INTAKE_API_KEY: TEST_INTAKE_KEY });

/** An API over a Temporal server that cannot be reached: the document, and refusals made before any Temporal call. */
const unreachableApi = () => unreachableIntakeApi({}, { blindIndex: testBlindIndex() });

/**
 * Every list is a GET of a collection (a path that does not end in an id) answering JSON, or the patient search, whose
 * patient values stay out of the URL.
 */
function listsOf(document: Document) {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method, operation]) => {
        const json = operation.responses['200']?.content?.['application/json'];
        const collection = method === 'get' && !path.endsWith('}') && json !== undefined;
        return collection || (method === 'post' && path === '/verifications/search');
      })
      .map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
  );
}

const resolve = (document: Document, schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema;

/** `limit` and `pageToken` of a list: query parameters of a GET, fields of the search's body. */
function pageInputs(document: Document, operation: Operation): Record<string, Schema | undefined> {
  const body = resolve(document, operation.requestBody?.content['application/json']?.schema);
  const inQuery = (name: string) => operation.parameters?.find((p) => p.in === 'query' && p.name === name);
  const of = (name: string) => (body ? body.properties?.[name] : inQuery(name)?.schema);
  for (const name of ['limit', 'pageToken']) {
    assert.ok(!body?.required?.includes(name) && !inQuery(name)?.required, `${name} is optional`);
  }
  return { limit: of('limit'), pageToken: of('pageToken') };
}

describe('intake API: one pagination contract for every list', function () {
  this.timeout(60_000);

  it('declares `limit` and `pageToken` on every list and answers `nextPageToken`, in the OpenAPI document', async () => {
    const { api, close } = unreachableApi();
    try {
      await api.ready();
      const document = api.swagger() as unknown as Document;
      const lists = listsOf(document);
      assert.deepEqual(lists.map((l) => l.where).sort(), LISTS);
      for (const { where, operation } of lists) {
        const { limit, pageToken: token } = pageInputs(document, operation);
        assert.deepEqual(
          [limit?.type, limit?.default, limit?.maximum],
          ['integer', PAGE_SIZE.default, PAGE_SIZE.max],
          `${where}: limit`,
        );
        assert.equal(token?.type, 'string', `${where}: pageToken`);
        const answer = resolve(document, operation.responses['200']?.content?.['application/json']?.schema);
        const arrays = Object.entries(answer?.properties ?? {}).filter(([, p]) => p.type === 'array');
        assert.equal(arrays.length, 1, `${where}: one list of items`);
        assert.equal(answer?.properties?.nextPageToken?.type, 'string', `${where}: nextPageToken`);
        assert.ok(!answer?.required?.includes('nextPageToken'), `${where}: nextPageToken absent on the last page`);
        assert.ok(operation.responses['400'], `${where}: a 400 for a bad token`);
      }
    } finally {
      await close();
    }
  });

  it('refuses a token that is none, or another list’s, with a 400 naming `pageToken`, before asking Temporal', async () => {
    const { api, close } = unreachableApi();
    const answers = watchAnswers(api);
    const others = pageToken('deliveries', { at: 0, id: '1' });
    const headers = { 'x-api-key': TEST_INTAKE_KEY };
    try {
      for (const token of ['not a token', 'e30', others]) {
        const gets = ['/verifications', '/batches', '/coverage-changes'].map((url) =>
          api.inject({ method: 'GET', url, query: { pageToken: token }, headers }),
        );
        const search = api.inject({
          method: 'POST',
          url: '/verifications/search',
          headers,
          payload: { memberId: 'M1', pageToken: token },
        });
        for (const answer of await Promise.all([...gets, search])) {
          assert.equal(answer.statusCode, 400, `${answer.body} for ${token}`);
          assert.equal(answer.json<{ error: string }>().error, 'invalid_request_error');
          assert.equal(answer.json<{ param: string }>().param, 'pageToken');
        }
      }
      assert.deepEqual(answers.undocumented(), []);
    } finally {
      await close();
    }
  });

  describe('paging through three items with limit 2', () => {
    const tenant = `pages-${randomUUID().slice(0, 8)}`;
    const started: string[] = [];
    let store: Store;
    let events: EventServices;
    let api: FastifyInstance;
    let key = '';
    let answers: ReturnType<typeof watchAnswers>;
    const urls = ['one', 'two', 'three'].map((name) => `https://pages.example/${name}`);
    const endpointIds: string[] = [];
    const makeEndpoint = async (url: string) => {
      // Made a moment apart: endpoints list in the order they were made.
      await sleep(5);
      return (await events.endpoints.create({ tenant, url, events: ['verification.completed'] })).endpoint.id;
    };

    before(async () => {
      store = await testStore();
      const clients = new IntakeClients(store);
      const scopes = ['verifications:read', 'events:manage'] as const;
      key = (await clients.create({ name: 'pager', tenant, scopes: [...scopes], by: 'test' })).key;
      const config = intakeConfig();
      const { client } = testTemporal();
      events = eventServices(store, new SecretBox(testCodecKeys()));
      api = createIntakeApi({
        config,
        client,
        taskQueue: 'pages',
        logger: createLogger(config),
        access: { clients },
        events,
      });
      answers = watchAnswers(api);
      for (const url of urls) endpointIds.push(await makeEndpoint(url));
    });
    after(async () => {
      const { client } = testTemporal();
      await Promise.all(
        started.map((id) =>
          client.workflow
            .getHandle(id)
            .terminate('test over')
            .catch(() => {}),
        ),
      );
      await api?.close();
      await store?.close();
      assert.deepEqual(answers.undocumented(), []);
    });

    const get = async <T>(url: string, query: Record<string, string> = {}) => {
      const answer = await api.inject({ method: 'GET', url, query, headers: { 'x-api-key': key } } as InjectOptions);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json<T & { nextPageToken?: string }>();
    };

    /** Walks a list two at a time: the items of each page, and whether each page said there is more. */
    async function walk<T>(url: string, items: (page: T) => unknown[]) {
      const first = await get<T>(url, { limit: '2' });
      assert.ok(first.nextPageToken, `${url}: a next page after the first`);
      const second = await get<T>(url, { limit: '2', pageToken: first.nextPageToken });
      assert.equal(second.nextPageToken, undefined, `${url}: the second page is the last`);
      return [items(first), items(second)];
    }

    it('GET /verifications (Temporal visibility): two and a token, then one and none', async () => {
      const { client } = testTemporal();
      // Verifications of this tenant that no worker runs: visibility lists them as they are started.
      for (let i = 0; i < 3; i += 1) {
        const handle = await client.workflow.start(WorkflowType.verification, {
          taskQueue: `pages-nobody-${tenant}`,
          workflowId: `verification-${tenant}-${i}`,
          typedSearchAttributes: [{ key: Tenant, value: tenant }],
        });
        started.push(handle.workflowId);
      }
      type Verifications = { verifications: { workflowId: string }[] };
      for (let tries = 0; (await get<Verifications>('/verifications')).verifications.length < 3; tries += 1) {
        assert.ok(tries < 100, 'visibility shows the three verifications');
        await sleep(100);
      }
      const [first, second] = await walk<Verifications>('/verifications', (p) =>
        p.verifications.map((v) => v.workflowId),
      );
      assert.equal(first!.length, 2);
      assert.equal(second!.length, 1);
      assert.deepEqual([...first!, ...second!].sort(), [...started].sort());
    });

    it('GET /event-endpoints/:id/deliveries: attempts of one millisecond, none skipped or repeated', async () => {
      const endpointId = endpointIds[0]!;
      const attemptedAt = new Date();
      const ids = ['evt_a1', 'evt_a2', 'evt_a3'].map((id) => `${id}${randomUUID().slice(0, 8).replace(/-/g, '')}`);
      for (const id of ids) {
        await events.log.keep({
          id,
          type: 'verification.completed',
          timestamp: attemptedAt.toISOString(),
          tenant,
          data: { workflowId: `verification-${id}`, stage: 'completed' },
          links: { self: `/verifications/verification-${id}` },
        });
      }
      for (const eventId of ids) await events.log.recordAttempt({ eventId, endpointId, status: 'failed', attemptedAt });
      type Deliveries = { deliveries: { eventId: string }[] };
      const url = `/event-endpoints/${endpointId}/deliveries`;
      const [first, second] = await walk<Deliveries>(url, (p) => p.deliveries.map((d) => d.eventId));
      assert.deepEqual([first!.length, second!.length], [2, 1]);
      assert.deepEqual([...first!, ...second!].sort(), [...ids].sort());
      // A token of another list is refused by name.
      const endpointsToken = pageToken('event-endpoints', ['2026-01-01T00:00:00.000Z', 'ep_1']);
      const refused = await api.inject({
        method: 'GET',
        url,
        query: { pageToken: endpointsToken },
        headers: { 'x-api-key': key },
      });
      assert.deepEqual([refused.statusCode, refused.json<{ param: string }>().param], [400, 'pageToken']);
    });

    it('GET /event-endpoints: in the order they were made, one made between pages coming last', async () => {
      type Endpoints = { endpoints: { url: string }[] };
      const first = await get<Endpoints>('/event-endpoints', { limit: '2' });
      const fourth = 'https://pages.example/four';
      await makeEndpoint(fourth);
      const second = await get<Endpoints>('/event-endpoints', { limit: '2', pageToken: first.nextPageToken! });
      assert.deepEqual(
        [first.endpoints.map((e) => e.url), second.endpoints.map((e) => e.url), second.nextPageToken],
        [urls.slice(0, 2), [urls[2], fourth], undefined],
      );
    });
  });
});
