import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { testStore } from '../../testing/database.js';
import { v2Intake } from '../../testing/fixtures.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { boundedTeardown } from '../../testing/bounded-teardown.js';

/**
 * Tenants as security boundaries (docs/operating/access-and-audit.md): a client of tenant B tries every route of the
 * intake API on tenant A's verification and batch, and learns nothing: each answer is the one a workflow or batch that
 * does not exist gets.
 */
describe('intake API: tenants, scopes and the audit trail', function () {
  this.timeout(60_000);
  let store: Store;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  let audit: AuditTrail;
  const keys: Record<'a' | 'b' | 'readerA' | 'admin', string> = { a: '', b: '', readerA: '', admin: '' };
  const ids: Record<string, string> = {};
  const ALL = ['verifications:write', 'verifications:read', 'runs:answer', 'batches:write', 'batches:read'] as const;

  before(async () => {
    store = await testStore();
    const clients = new IntakeClients(store);
    audit = new AuditTrail(store);
    const make = async (
      name: keyof typeof keys,
      tenant: string | null,
      scopes: readonly (typeof ALL)[number][] | ['admin'],
    ) => {
      const made = await clients.create({ name, tenant, scopes: [...scopes], by: 'test' });
      keys[name] = made.key;
      ids[name] = made.id;
    };
    await make('a', 'clinic-a', ALL);
    await make('b', 'clinic-b', ALL);
    await make('readerA', 'clinic-a', ['verifications:read']);
    await make('admin', null, ['admin']);
    ({ api, stop } = await startIntakeApiHarness({ access: { clients, audit } }));
  });
  after(async () => {
    await stop?.();
    if (store) await boundedTeardown('the store close', store.close(), 10_000);
  });

  const as = (key: string, options: InjectOptions) =>
    api.inject({ ...options, headers: { 'x-api-key': key, ...(options.headers as Record<string, string>) } });

  it("starts under the credential's tenant; a body naming another tenant is a 403 naming `tenant`", async () => {
    const started = await as(keys.a, { method: 'POST', url: '/verifications', payload: v2Intake() });
    assert.equal(started.statusCode, 202);
    const { workflowId } = started.json<{ workflowId: string }>();
    const described = await testTemporal().client.workflow.getHandle(workflowId).describe();
    assert.equal(described.typedSearchAttributes.get(Tenant), 'clinic-a');
    // History names the intake client (its public id), not the API's process (`pid@host`), for what it started.
    const { events } = await testTemporal().client.workflow.getHandle(workflowId).fetchHistory();
    assert.equal(events?.[0]?.workflowExecutionStartedEventAttributes?.identity, `intake:client:${ids.a}`);
    const other = await as(keys.a, {
      method: 'POST',
      url: '/verifications',
      payload: { ...v2Intake(), tenant: 'clinic-b' },
    });
    assert.equal(other.statusCode, 403);
    assert.equal(other.json<{ param: string }>().param, 'tenant');
    const same = await as(keys.a, {
      method: 'POST',
      url: '/verifications',
      payload: { ...v2Intake(), tenant: 'clinic-a' },
    });
    assert.equal(same.statusCode, 202);
  });

  it("tenant B's client on every route of tenant A's objects: every answer as for one that does not exist", async () => {
    const started = await as(keys.a, { method: 'POST', url: '/verifications', payload: v2Intake() });
    const workflowId = started.json<{ workflowId: string }>().workflowId;
    const batchId = `tenancy-${randomUUID().slice(0, 8)}`;
    const batch = await as(keys.a, { method: 'POST', url: '/batches', payload: { batchId, items: [v2Intake()] } });
    assert.equal(batch.statusCode, 202);
    const absentWorkflow = `verification-${randomUUID()}`;
    const absentBatch = `absent-${randomUUID().slice(0, 8)}`;
    // Each route on A's object and on one that does not exist: the same status and body.
    const routes = (w: string, b: string): (InjectOptions & { url: string })[] => [
      { method: 'GET', url: `/verifications/${w}` },
      { method: 'POST', url: `/verifications/${w}/cancel`, payload: {} },
      { method: 'POST', url: `/verifications/${w}/runs/run-1/input`, payload: { input: { note: 'x' } } },
      { method: 'POST', url: `/verifications/${w}/review`, payload: { action: 'abandon' } },
      { method: 'GET', url: `/batches/${b}` },
      { method: 'GET', url: `/batches/${b}/items` },
      { method: 'GET', url: `/batches/${b}/results` },
      { method: 'POST', url: `/batches/${b}/resubmit`, payload: {} },
      { method: 'POST', url: `/batches/${b}/cancel`, payload: {} },
    ];
    const tried = routes(workflowId, batchId);
    const absent = routes(absentWorkflow, absentBatch);
    const strip = (response: LightMyRequestResponse, w: string, b: string) =>
      `${response.statusCode} ${response.body.replaceAll(w, '<id>').replaceAll(b, '<id>')}`;
    let disclosures = 0;
    for (const [i, attempt] of tried.entries()) {
      const theirs = strip(await as(keys.b, attempt), workflowId, batchId);
      const nobodys = strip(await as(keys.b, absent[i]!), absentWorkflow, absentBatch);
      assert.match(theirs, /^404 /, `${attempt.method} ${attempt.url}`);
      if (theirs !== nobodys) disclosures += 1;
    }
    assert.equal(disclosures, 0, `of ${tried.length} attempts`);
    // Lists hold only the caller's tenant, whatever it asks for.
    await eventually(async () => {
      const mine = await as(keys.a, { method: 'GET', url: '/verifications?limit=100' });
      return mine.body.includes(workflowId) || undefined;
    });
    const listed = await as(keys.b, { method: 'GET', url: '/verifications?limit=100' });
    assert.doesNotMatch(listed.body, new RegExp(workflowId));
    const batches = await as(keys.b, { method: 'GET', url: '/batches' });
    assert.equal(batches.statusCode, 200);
    assert.doesNotMatch(batches.body, new RegExp(batchId));
    // Naming A's tenant in a list's filter is the body rule's 403, not an empty page.
    assert.equal((await as(keys.b, { method: 'GET', url: '/batches?tenant=clinic-a' })).statusCode, 403);
    // Nor can B claim A's tenant for what it starts.
    const claim = await as(keys.b, {
      method: 'POST',
      url: '/batches',
      payload: { items: [v2Intake()], tenant: 'clinic-a' },
    });
    assert.equal(claim.statusCode, 403);
    // A itself, and an administrator, see A's verification.
    assert.equal((await as(keys.a, { method: 'GET', url: `/verifications/${workflowId}` })).statusCode, 200);
    assert.equal((await as(keys.admin, { method: 'GET', url: `/verifications/${workflowId}` })).statusCode, 200);
  });

  it('a client without the scope a route needs gets 403 naming it; a revoked key is refused at once', async () => {
    const refused = await as(keys.readerA, { method: 'POST', url: '/verifications', payload: v2Intake() });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json<{ message: string }>().message, /verifications:write/);
    const clients = new IntakeClients(store);
    const temporary = await clients.create({
      name: 'temp',
      tenant: 'clinic-a',
      scopes: ['verifications:read'],
      by: 'test',
    });
    assert.equal((await as(temporary.key, { method: 'GET', url: '/verifications' })).statusCode, 200);
    await clients.revoke(temporary.id);
    const revokedAt = Date.now();
    assert.equal((await as(temporary.key, { method: 'GET', url: '/verifications' })).statusCode, 401);
    assert.ok(Date.now() - revokedAt < 1000);
  });

  it('records each refused key as a denied intake.sign-in: by its public id when shaped like a key, never its secret', async () => {
    const clients = new IntakeClients(store);
    const revoked = await clients.create({
      name: 'gone',
      tenant: 'clinic-a',
      scopes: ['verifications:read'],
      by: 'test',
    });
    await clients.revoke(revoked.id);
    const secretOf = (key: string) => key.split('_').slice(2).join('_');
    const unknownId = 'abcdef012345';
    const wrongSecret = `eik_${ids.a}_${secretOf(keys.b)}`;
    const presented: [string, string][] = [
      [`eik_${unknownId}_${secretOf(keys.a)}`, `client:${unknownId}`],
      [revoked.key, `client:${revoked.id}`],
      [wrongSecret, `client:${ids.a}`],
      ['not-a-key-at-all', 'client:?'],
    ];
    const before = (await audit.list({ action: 'intake.sign-in', limit: 10_000 })).length;
    for (const [key] of presented) {
      assert.equal((await as(key, { method: 'GET', url: '/verifications' })).statusCode, 401, key);
    }
    // No key at all presents no credential: refused, not recorded.
    assert.equal((await api.inject({ method: 'GET', url: '/verifications' })).statusCode, 401);
    const entries = (await audit.list({ action: 'intake.sign-in', limit: 10_000 })).slice(before);
    assert.deepEqual(
      entries.map((e) => [e.actor, e.outcome, e.source, e.tenant]),
      presented.map(([, actor]) => [actor, 'denied', '127.0.0.1', null]),
    );
    const text = JSON.stringify(entries);
    for (const [key] of presented.slice(0, 3)) assert.ok(!text.includes(secretOf(key)), 'no secret in the trail');
  });

  it('records every read and change of a patient, with the client, the workflow and the field names, never values', async () => {
    const started = await as(keys.a, { method: 'POST', url: '/verifications', payload: v2Intake() });
    const { workflowId } = started.json<{ workflowId: string }>();
    assert.equal((await as(keys.a, { method: 'GET', url: `/verifications/${workflowId}` })).statusCode, 200);
    assert.equal(
      (await as(keys.a, { method: 'POST', url: `/verifications/${workflowId}/cancel`, payload: {} })).statusCode,
      202,
    );
    const entries = await audit.list({ workflowId });
    assert.deepEqual(
      entries.map((e) => [e.action, e.actor, e.tenant, e.outcome]),
      [
        ['verification.start', `client:${ids.a} (a)`, 'clinic-a', 'ok'],
        ['verification.read', `client:${ids.a} (a)`, 'clinic-a', 'ok'],
        ['verification.cancel', `client:${ids.a} (a)`, 'clinic-a', 'ok'],
      ],
    );
    assert.ok(entries[0]!.fields.includes('patient.dateOfBirth'));
    // The whole date, not its year: random ids and hashes in the entries may hold '1985'.
    assert.doesNotMatch(
      JSON.stringify(entries),
      /Lovelace|12\/10\/1985|1985-12-10|M1234567/,
      'names of fields, never their values',
    );
    assert.deepEqual(await audit.verify(), { ok: true, entries: (await audit.list({ limit: 10_000 })).length });
  });
});
