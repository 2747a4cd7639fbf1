import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { FastifyInstance } from 'fastify';
import { mintCodecToken, type CodecPerson } from '../../src/access/codec-tokens.js';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { EncryptionCodec, WORKFLOW_ID_METADATA } from '../../src/codec/encryption-codec.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import type { Store } from '../../src/store/database.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { personFinder } from '../../apps/codec-server/people.js';
import { CODEC_FAILED, createCodecServer } from '../../apps/codec-server/server.js';
import { tenantFinder } from '../../apps/codec-server/tenant-cache.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';

const SECRET = 'a-pass-secret-of-at-least-32-characters';
const UI = 'http://localhost:8233';
const PATIENT = {
  patient: { firstName: 'Phionella', lastName: 'Secretworth', dateOfBirth: '1967-04-05' },
  memberId: 'MBRPHI778899',
};
const VALUES = ['Phionella', 'Secretworth', '1967-04-05', 'MBRPHI778899'];

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

/**
 * The codec server against real parts: workflows started on the run's Temporal server with a tenant each (their input
 * encrypted by the client, as the intake API does), operators in a real database, the trail in it.
 */
describe('codec server: decodes for a person, their tenants only, and records every decode', function () {
  this.timeout(30_000);
  const codec = new EncryptionCodec(testCodecKeys());
  let store: Store;
  let trail: AuditTrail;
  let directory: OperatorDirectory;
  let app: FastifyInstance;
  /** The first payload (the start input, with the patient) of a workflow of each tenant, as Temporal stores it. */
  const inputOf: Record<'a' | 'b', { workflowId: string; payload: JsonPayload }> = {} as never;

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    directory = new OperatorDirectory(store);
    for (const [name, role, tenants] of [
      ['ana', 'operator', ['clinic-a']],
      ['bo', 'operator', ['clinic-b']],
      ['vi', 'viewer', ['clinic-a']],
      ['root', 'admin', null],
      ['gone', 'operator', ['clinic-a']],
    ] as const) {
      await directory.create({
        name,
        role,
        tenants: tenants && [...tenants],
        password: 'a long password here',
        by: 'test',
      });
    }
    const { client } = testTemporal();
    const raw = new Client({ connection: testTemporal().connection, namespace: testTemporal().server.namespace });
    for (const tenant of ['a', 'b'] as const) {
      const workflowId = `verification-codec-${tenant}-${randomUUID()}`;
      // No worker polls this queue: the start alone writes the encrypted input to the history.
      await client.workflow.start('verificationWorkflow', {
        workflowId,
        taskQueue: `codec-${randomUUID()}`,
        args: [PATIENT],
        typedSearchAttributes: [{ key: Tenant, value: `clinic-${tenant}` }],
      });
      const history = await raw.workflow.getHandle(workflowId).fetchHistory();
      const input = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
      inputOf[tenant] = { workflowId, payload: toJson(input) };
    }
    app = createCodecServer({
      codec,
      findPerson: personFinder(SECRET, directory),
      tenantOf: tenantFinder(testTemporal().client),
      audit: async (event) => {
        await trail.append(event);
      },
      origins: [UI],
      namespace: 'default',
      logger: createLogger(loadConfig('codec-server', { LOG_LEVEL: 'silent' })),
    });
  });
  after(async () => {
    await app?.close();
    await store?.close();
  });

  const passFor = async (name: string, person: Partial<CodecPerson> = {}, secret = SECRET, seconds = 600) =>
    mintCodecToken(secret, { name, role: 'operator', tenants: null, source: 'directory', ...person }, seconds);

  const decode = (payloads: JsonPayload[], headers: Record<string, string>, url = '/decode') =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: { payloads },
    });
  const as = async (name: string) => ({ authorization: `Bearer ${await passFor(name)}`, 'x-namespace': 'default' });
  const entriesOf = async (workflowId: string) => trail.list({ workflowId });
  /** The last entry of an operator, as [action, outcome, tenant, workflowId]. */
  const lastOf = async (name: string) => {
    const entry = (await trail.list({ actor: `operator:${name}`, limit: 10_000 })).at(-1);
    return [entry?.action, entry?.outcome, entry?.tenant, entry?.workflowId];
  };
  const disclosed = (body: string) =>
    VALUES.filter((v) => body.includes(v) || body.includes(Buffer.from(v).toString('base64')));

  it("decodes a workflow of the person's tenant, and records who, which workflow and which fields", async () => {
    const { workflowId, payload } = inputOf.a;
    const res = await decode([payload], await as('ana'));
    assert.equal(res.statusCode, 200);
    const data = res.json<{ payloads: JsonPayload[] }>().payloads[0]!.data;
    assert.deepEqual(JSON.parse(Buffer.from(data, 'base64').toString()), PATIENT);
    const [entry] = await entriesOf(workflowId);
    assert.ok(entry);
    assert.deepEqual(
      { actor: entry.actor, action: entry.action, tenant: entry.tenant, outcome: entry.outcome, fields: entry.fields },
      {
        actor: 'operator:ana',
        action: 'codec.decode',
        tenant: 'clinic-a',
        outcome: 'ok',
        fields: ['memberId', 'patient.dateOfBirth', 'patient.firstName', 'patient.lastName'],
      },
    );
    assert.deepEqual(disclosed(JSON.stringify(entry)), []);
  });

  it("refuses another tenant's workflow (403, nothing decoded) and records the refusal", async () => {
    const { workflowId, payload } = inputOf.a;
    const res = await decode([payload], await as('bo'));
    assert.equal(res.statusCode, 403);
    assert.deepEqual(disclosed(res.body), []);
    const refused = (await entriesOf(workflowId)).filter((e) => e.actor === 'operator:bo');
    assert.deepEqual(
      refused.map((e) => [e.outcome, e.tenant]),
      [['denied', 'clinic-a']],
    );
  });

  it('refuses a request mixing a workflow of theirs with another tenant’s', async () => {
    const res = await decode([inputOf.b.payload, inputOf.a.payload], await as('bo'));
    assert.equal(res.statusCode, 403);
    assert.deepEqual(disclosed(res.body), []);
  });

  it('decodes nothing moved under the id of a workflow the person may see (the id is bound to the ciphertext)', async () => {
    const moved = {
      ...inputOf.a.payload,
      metadata: {
        ...inputOf.a.payload.metadata,
        [WORKFLOW_ID_METADATA]: Buffer.from(inputOf.b.workflowId).toString('base64'),
      },
    };
    const res = await decode([moved], await as('bo'));
    assert.equal(res.statusCode, 400);
    assert.deepEqual(disclosed(res.body), []);
    // A payload that fails authentication is a refusal on record, naming the workflow it claims.
    assert.deepEqual(await lastOf('bo'), ['codec.decode', 'denied', 'clinic-b', inputOf.b.workflowId]);
    // The codec's own message (Node's crypto, naming what failed) never reaches the caller.
    assert.deepEqual(res.json(), { error: CODEC_FAILED.decode });
  });

  it('refuses a viewer: Temporal UI cannot mask what it shows', async () => {
    const res = await decode([inputOf.a.payload], await as('vi'));
    assert.equal(res.statusCode, 403);
    assert.deepEqual(disclosed(res.body), []);
    assert.deepEqual(await lastOf('vi'), ['codec.decode', 'denied', 'clinic-a', inputOf.a.workflowId]);
  });

  it('decodes every tenant’s workflows, and payloads that name no workflow, for a person of every tenant only', async () => {
    const [unnamed] = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(JSON.stringify(PATIENT)) },
    ]);
    const payloads = [inputOf.a.payload, inputOf.b.payload, toJson(unnamed!)];
    assert.equal((await decode(payloads, await as('root'))).statusCode, 200);
    assert.equal((await decode([toJson(unnamed!)], await as('ana'))).statusCode, 403);
    // One entry per workflow of the request, each with its tenant.
    const byRoot = async (workflowId: string) => (await entriesOf(workflowId)).find((e) => e.actor === 'operator:root');
    const [a, b] = [await byRoot(inputOf.a.workflowId), await byRoot(inputOf.b.workflowId)];
    assert.deepEqual(
      [a?.actor, a?.tenant, b?.actor, b?.tenant],
      ['operator:root', 'clinic-a', 'operator:root', 'clinic-b'],
    );
  });

  it('refuses a request with no pass, a forged or expired one, or one of an operator since disabled (401)', async () => {
    const gone = await passFor('gone');
    await directory.disable('gone');
    for (const pass of [
      undefined,
      'not-a-pass',
      await passFor('ana', {}, 'another-secret-of-at-least-32-characters'),
      await passFor('ana', {}, SECRET, -60),
      gone,
      // Whatever the pass says of them: a disabled entry refuses a person of the identity provider too.
      await passFor('gone', { source: 'oidc' }),
      // A pass minted from the directory for a name it does not list.
      await passFor('nobody'),
    ]) {
      const res = await decode([inputOf.a.payload], pass ? { authorization: `Bearer ${pass}` } : {});
      assert.equal(res.statusCode, 401, String(pass));
      assert.deepEqual(disclosed(res.body), []);
    }
    assert.ok((await trail.list({ actor: 'operator:?' })).every((e) => e.outcome === 'denied'));
  });

  it('takes the directory’s role and tenants over the pass’s, and the pass’s for a person it does not list', async () => {
    // A pass that claims every tenant for ana, who the directory keeps to clinic-a.
    const claims = await passFor('ana', { tenants: null });
    assert.equal((await decode([inputOf.b.payload], { authorization: `Bearer ${claims}` })).statusCode, 403);
    // CONSOLE_OPERATORS' people and the identity provider's are as their pass says.
    const configured = await passFor('cfg', { tenants: ['clinic-b'], source: 'config' });
    assert.equal((await decode([inputOf.b.payload], { authorization: `Bearer ${configured}` })).statusCode, 200);
    assert.equal((await decode([inputOf.a.payload], { authorization: `Bearer ${configured}` })).statusCode, 403);
  });

  it('takes the pass from the endpoint path, as Temporal UI is configured', async () => {
    const res = await decode([inputOf.a.payload], { origin: UI }, `/p/${await passFor('ana')}/decode`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], UI);
  });

  it('refuses other origins, even with a pass', async () => {
    const res = await decode([inputOf.a.payload], { ...(await as('ana')), origin: 'https://evil.example' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/decode',
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(preflight.statusCode, 403);
  });

  it('answers the browser preflight of the allowed origin', async () => {
    const res = await app.inject({ method: 'OPTIONS', url: '/decode', headers: { origin: UI } });
    assert.equal(res.statusCode, 204);
    assert.match(String(res.headers['access-control-allow-headers']), /X-Namespace/);
  });

  it('honours X-Namespace: another namespace is not decoded here', async () => {
    const res = await decode([inputOf.a.payload], { ...(await as('ana')), 'x-namespace': 'someone-else' });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(await lastOf('ana'), ['codec.decode', 'denied', null, null]);
  });

  it('encodes for a person who may send input (the UI sending a signal), never for a viewer', async () => {
    const plain = {
      metadata: { encoding: Buffer.from('json/plain').toString('base64') },
      data: Buffer.from('1').toString('base64'),
    };
    const encode = async (name: string) =>
      app.inject({ method: 'POST', url: '/encode', headers: await as(name), payload: { payloads: [plain] } });
    const res = await encode('ana');
    assert.equal(res.statusCode, 200);
    const out = res.json<{ payloads: { metadata: Record<string, string> }[] }>();
    assert.equal(Buffer.from(out.payloads[0]!.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
    assert.equal((await encode('vi')).statusCode, 403);
    assert.deepEqual(await lastOf('vi'), ['codec.encode', 'denied', null, null]);
  });
});
