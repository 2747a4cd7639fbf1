import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { MAX_RECORDED_ID, recordableId } from '../../src/access/refusals.js';
import { SCOPES, isScope } from '../../src/access/scopes.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices } from '../../src/events/services.js';
import type { Store } from '../../src/store/database.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { OWNED } from '../../apps/intake-api/route-rules.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { FAST, callerId, v2Intake } from '../../testing/fixtures.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { unreachableIntakeApi } from '../../testing/unreachable-intake-api.js';
import { hex, probeObjectRoutes, sameApartFromIds, sharedKinds, walkRoutes } from '../access/route-walk.js';

/**
 * Every route of the intake API declares its scope, the object it owns and its audit action (decision 75): a route
 * added without them cannot slip past its tenant check or its audit entry.
 */
describe('intake API: every route declares its access, what it owns and what it audits', () => {
  it('walks every registered route and finds each declared', async () => {
    const { api, close } = unreachableIntakeApi();
    try {
      await api.ready();
      walkRoutes(api, {
        knows: (access) => 'scope' in access && isScope(access.scope),
        owned: OWNED,
        ownerOf: {
          workflowId: 'workflow',
          batchId: 'batch',
          patientId: 'patient',
          appointmentId: 'appointment',
          changeId: 'coverage-change',
          endpointId: 'endpoint',
        },
        open: [
          'GET /healthz',
          'GET /readyz',
          'GET /metrics',
          'GET /docs/openapi.json',
          'GET /docs',
          'GET /docs/static/index.html',
          'GET /docs/static/swagger-initializer.js',
          'GET /docs/json',
          'GET /docs/yaml',
          'GET /docs/static/*',
        ],
      });
    } finally {
      await close();
    }
  });

  it('refuses to start with a route that declares none of them, naming it', async () => {
    const { api, close } = unreachableIntakeApi();
    try {
      assert.throws(
        () => api.get('/undeclared', (_request, reply) => reply.send({})),
        /route GET \/undeclared declares no access/,
      );
    } finally {
      await close();
    }
  });
});

/**
 * Every refusal on record (issue 61, decision 84): tenant B's client tries tenant A's ids on every route that names an
 * object, and ids that exist nowhere; an all-tenant client's reads record the object's tenant.
 */
describe('intake API: every refused access is one audit entry, with the object’s tenant', function () {
  this.timeout(60_000);
  let store: Store;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  let trail: AuditTrail;
  const keys: Record<string, string> = {};
  const actors: Record<string, string> = {};
  const theirs = { workflowId: '', batchId: '', patientId: '', appointmentId: '', endpointId: '' };

  before(async () => {
    store = await testStore();
    const clients = new IntakeClients(store);
    trail = new AuditTrail(store);
    const events = eventServices(store, new SecretBox(testCodecKeys()));
    for (const [name, tenant, scopes] of [
      ['a', 'clinic-a', SCOPES.filter((s) => s !== 'admin')],
      ['b', 'clinic-b', SCOPES.filter((s) => s !== 'admin')],
      ['readerB', 'clinic-b', ['verifications:read']],
      ['all', null, ['admin']],
    ] as const) {
      const made = await clients.create({ name, tenant, scopes: [...scopes], by: 'test' });
      keys[name] = made.key;
      actors[name] = `client:${made.id} (${name})`;
    }
    ({ api, stop } = await startIntakeApiHarness({
      access: { clients, audit: trail },
      events: () => events,
      patients: { idKey: randomBytes(32), verificationTiming: FAST, policy: { offsets: [] } },
    }));
    const started = await as('a', { method: 'POST', url: '/verifications', payload: v2Intake() });
    theirs.workflowId = started.json<{ workflowId: string }>().workflowId;
    theirs.batchId = `probe-${randomUUID().slice(0, 8)}`;
    const batch = await as('a', {
      method: 'POST',
      url: '/batches',
      payload: { batchId: theirs.batchId, items: [v2Intake()] },
    });
    assert.equal(batch.statusCode, 202, batch.body);
    const booked = await as('a', {
      method: 'POST',
      url: '/appointments',
      payload: {
        patientRef: callerId('MRN'),
        patient: { firstName: 'Ada', lastName: 'Probe', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M7654321' },
        payerId: '60054',
        dateOfService: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        timeZone: 'UTC',
        specialtyCode: 'PRC',
        placeOfServiceCode: '11',
      },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const held = booked.json<{ patientId: string; appointment: { appointmentId: string } }>();
    theirs.patientId = held.patientId;
    theirs.appointmentId = held.appointment.appointmentId;
    const endpoint = await events.endpoints.create({
      tenant: 'clinic-a',
      url: 'https://a.example/hooks',
      events: ['verification.completed'],
    });
    theirs.endpointId = endpoint.endpoint.id;
  });
  after(async () => {
    await stop?.();
    await store?.close();
  });

  const as = (who: string, options: InjectOptions) =>
    api.inject({ ...options, headers: { 'x-api-key': keys[who]!, ...(options.headers as Record<string, string>) } });
  const entriesOf = (who: string) => trail.list({ actor: actors[who]!, limit: 10_000 });
  const latest = async (who: string) => (await entriesOf(who)).at(-1);

  it("tries tenant A's ids on every route that names an object: each a missing object's 404, each one entry", async () => {
    const probed = await probeObjectRoutes(api, {
      tenant: 'clinic-a',
      kinds: {
        ...sharedKinds(theirs),
        appointment: {
          theirs: { appointmentId: theirs.appointmentId },
          missing: { appointmentId: `apt_${hex(16)}_${hex(8)}` },
          recorded: (p) => ({ workflowId: patientWorkflowId(`pt_${p.appointmentId!.split('_')[1]!}`) }),
        },
        endpoint: {
          theirs: { endpointId: theirs.endpointId },
          missing: { endpointId: `ep_${hex(8)}` },
          recorded: (p) => ({ actionEnds: p.endpointId! }),
        },
      },
      otherParams: { flowRunId: 'run-1' },
      bodies: {
        'POST /verifications/:workflowId/runs/:flowRunId/input': { input: { note: 'x' } },
        'POST /verifications/:workflowId/review': { action: 'abandon' },
        'POST /verifications/:workflowId/cancel': {},
        'PUT /appointments/:appointmentId': {
          dateOfService: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        },
        'POST /coverage-changes/:changeId/seen': {},
        'POST /batches/:batchId/resubmit': {},
        'POST /batches/:batchId/cancel': {},
        'PATCH /event-endpoints/:endpointId': { description: 'x' },
        'POST /event-endpoints/:endpointId/rotate-secret': {},
        'POST /event-endpoints/:endpointId/redeliver': { failedSince: '2026-01-05T08:00:00Z' },
      },
      send: (method, url, body) =>
        as('b', { method, url, ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }) }),
      entries: () => entriesOf('b'),
      sameAnswer: sameApartFromIds(),
    });
    // Every route of the document that names an object was tried.
    assert.equal(probed.length, 19, probed.join('\n'));
  });

  it('records no id it cannot vouch for: an odd one is left out, an over-long one cut', async () => {
    const odd = await as('b', { method: 'GET', url: `/verifications/${encodeURIComponent('Ada Probe/1985')}` });
    assert.equal(odd.statusCode, 404);
    const entry = await latest('b');
    assert.deepEqual([entry?.action, entry?.outcome, entry?.workflowId], ['verification.read', 'not-found', null]);
    assert.equal(recordableId('x'.repeat(MAX_RECORDED_ID + 50)), `${'x'.repeat(MAX_RECORDED_ID)}…`);
    assert.equal(recordableId('verification-p-1'), 'verification-p-1');
  });

  it('refuses `GET /batches?tenant=<another>` with 403 naming `tenant`, on record with that tenant', async () => {
    const refused = await as('b', { method: 'GET', url: '/batches?tenant=clinic-a' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json<{ param: string }>().param, 'tenant');
    const entry = await latest('b');
    assert.deepEqual([entry?.action, entry?.outcome, entry?.tenant], ['GET /batches', 'denied', 'clinic-a']);
    assert.equal((await as('b', { method: 'GET', url: '/batches?tenant=clinic-b' })).statusCode, 200);
    assert.equal((await as('all', { method: 'GET', url: '/batches?tenant=clinic-a' })).statusCode, 200);
  });

  it("records a scope's refusal with the caller's tenant and the id it named", async () => {
    const url = `/verifications/${theirs.workflowId}/cancel`;
    assert.equal((await as('readerB', { method: 'POST', url, payload: {} })).statusCode, 403);
    const entry = await latest('readerB');
    assert.deepEqual(
      [entry?.action, entry?.outcome, entry?.tenant, entry?.workflowId],
      ['verification.cancel', 'denied', 'clinic-b', theirs.workflowId],
    );
  });

  it("records the object's tenant for a client of every tenant (reads and changes)", async () => {
    const read = await as('all', { method: 'GET', url: `/verifications/${theirs.workflowId}` });
    assert.equal(read.statusCode, 200);
    assert.deepEqual([(await latest('all'))?.action, (await latest('all'))?.tenant], ['verification.read', 'clinic-a']);
    assert.equal((await as('all', { method: 'GET', url: `/patients/${theirs.patientId}` })).statusCode, 200);
    assert.deepEqual([(await latest('all'))?.action, (await latest('all'))?.tenant], ['patient.read', 'clinic-a']);
    const cancel = await as('all', { method: 'DELETE', url: `/appointments/${theirs.appointmentId}` });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.deepEqual(
      [(await latest('all'))?.action, (await latest('all'))?.tenant],
      ['appointment.cancel', 'clinic-a'],
    );
    const missing = await as('all', { method: 'GET', url: `/verifications/verification-${randomUUID()}` });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual([(await latest('all'))?.outcome, (await latest('all'))?.tenant], ['not-found', null]);
  });
});
