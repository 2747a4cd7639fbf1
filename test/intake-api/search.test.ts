import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { IntakeClients } from '../../src/access/intake-clients.js';
import type { Scope } from '../../src/access/scopes.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { PatientIndex } from '../../workflows/shared/search-attributes.js';
import { testStore } from '../../testing/database.js';
import { v2Intake } from '../../testing/fixtures.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';

interface Match {
  workflowId: string;
  stage: string;
  batchId: string | null;
  supersededBy?: string;
}

/** `POST /verifications/search`: a patient found by keyed hashes, within the caller's tenant, every search recorded. */
describe('intake API: finding a patient (POST /verifications/search)', function () {
  this.timeout(60_000);
  let store: Store;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  let audit: AuditTrail;
  const keys = { a: '', b: '', all: '' };
  // A patient of this run only, so that no other suite's verifications match.
  const lastName = `Quorrel${randomUUID().slice(0, 6).replace(/\d/g, 'x')}`;
  const patient = {
    firstName: 'Zyphrine',
    lastName,
    dateOfBirth: '03/09/1971',
    state: 'WA',
    memberId: `ZQ-${randomUUID().slice(0, 8)}`,
  };

  before(async () => {
    store = await testStore();
    const clients = new IntakeClients(store);
    audit = new AuditTrail(store);
    const scopes: Scope[] = ['verifications:write', 'verifications:read', 'batches:write', 'batches:read'];
    keys.a = (await clients.create({ name: 'a', tenant: 'search-a', scopes, by: 'test' })).key;
    keys.b = (await clients.create({ name: 'b', tenant: 'search-b', scopes, by: 'test' })).key;
    keys.all = (await clients.create({ name: 'all', tenant: null, scopes, by: 'test' })).key;
    ({ api, stop } = await startIntakeApiHarness({ access: { clients, audit } }));
  });
  after(async () => {
    await stop?.();
    await store?.close();
  });

  const as = (key: string, options: InjectOptions) =>
    api.inject({ ...options, headers: { 'x-api-key': key, ...(options.headers as Record<string, string>) } });
  const search = (key: string, payload: Record<string, unknown>) =>
    as(key, { method: 'POST', url: '/verifications/search', payload });
  const found = async (key: string, payload: Record<string, unknown>, count: number) =>
    eventually(async () => {
      const answer = await search(key, payload);
      assert.equal(answer.statusCode, 200, answer.body);
      const { matches } = answer.json<{ matches: Match[] }>();
      return matches.length === count ? { matches, body: answer.body } : undefined;
    });

  it('finds a verification by last name + date of birth, spelled otherwise, and by member id; answers no patient value', async () => {
    const started = await as(keys.a, { method: 'POST', url: '/verifications', payload: v2Intake({ patient }) });
    assert.equal(started.statusCode, 202);
    const { workflowId } = started.json<{ workflowId: string }>();
    const indexed = (await testTemporal().client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(
      PatientIndex,
    );
    assert.equal(indexed?.length, 2, 'two keyed hashes: name + date of birth, member id');

    const byName = await found(keys.a, { lastName: ` ${lastName.toLowerCase()} `, dateOfBirth: '1971-03-09' }, 1);
    assert.equal(byName.matches[0]!.workflowId, workflowId);
    assert.equal(byName.matches[0]!.batchId, null);
    const byMember = await found(keys.a, { memberId: patient.memberId.toLowerCase().replace('-', ' ') }, 1);
    assert.equal(byMember.matches[0]!.workflowId, workflowId);
    for (const value of [lastName, patient.firstName, patient.dateOfBirth, patient.memberId, '1971']) {
      assert.ok(!byName.body.includes(value) && !byMember.body.includes(value), 'the answer holds no patient value');
    }
    const wrongDate = await search(keys.a, { lastName, dateOfBirth: '03/10/1971' });
    assert.deepEqual(wrongDate.json(), { matches: [] });
  });

  it("searches the caller's tenant only: another clinic finds nothing and may not name this one", async () => {
    await found(keys.a, { memberId: patient.memberId }, 1);
    assert.deepEqual((await search(keys.b, { memberId: patient.memberId })).json(), { matches: [] });
    const named = await search(keys.b, { memberId: patient.memberId, tenant: 'search-a' });
    assert.equal(named.statusCode, 403);
    assert.equal(named.json<{ param: string }>().param, 'tenant');
    // A client of every tenant names the one it searches; without it, the verifications of no tenant.
    await found(keys.all, { memberId: patient.memberId, tenant: 'search-a' }, 1);
    assert.deepEqual((await search(keys.all, { memberId: patient.memberId })).json(), { matches: [] });
  });

  it('refuses a search it cannot run or does not understand with a 400 naming the field, never its value', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'lastName'],
      [{ lastName }, 'dateOfBirth'],
      [{ lastName, dateOfBirth: '31/31/1971x' }, 'dateOfBirth'],
      [{ memberID: patient.memberId }, 'memberID'],
      [{ memberId: patient.memberId, ssn: '123-45-6789' }, 'ssn'],
      [{ lastName: '-- ', dateOfBirth: '1971-03-09' }, 'lastName'],
      [{ memberId: patient.memberId, limit: 1001 }, 'limit'],
      [{ memberId: patient.memberId, limit: '2' }, 'limit'],
      [{ memberId: patient.memberId, pageToken: 'not a token' }, 'pageToken'],
      [
        { memberId: patient.memberId, pageToken: Buffer.from('{"l":"batches","c":{}}').toString('base64url') },
        'pageToken',
      ],
    ];
    for (const [payload, param] of cases) {
      const answer = await search(keys.a, payload);
      assert.equal(answer.statusCode, 400, JSON.stringify(payload));
      assert.equal(answer.json<{ param: string }>().param, param);
      for (const value of [lastName, patient.memberId, '123-45-6789', '31/31/1971x'])
        assert.ok(!answer.body.includes(value));
    }
    const text = await as(keys.a, {
      method: 'POST',
      url: '/verifications/search',
      payload: JSON.stringify({ memberId: patient.memberId }),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.statusCode, 415);
  });

  it('records every search: who, the tenant, the names of the fields searched by, never their values', async () => {
    const before = (await audit.list({ action: 'verification.search', limit: 10_000 })).length;
    await search(keys.a, { lastName, dateOfBirth: '03/09/1971' });
    await search(keys.b, { memberId: 'NOBODY-1' });
    const entries = (await audit.list({ action: 'verification.search', limit: 10_000 })).slice(before);
    const mine = entries.filter((e) => e.tenant === 'search-a' || e.tenant === 'search-b');
    assert.deepEqual(mine.map((e) => [e.tenant, e.fields.join(','), e.outcome]).sort(), [
      ['search-a', 'lastName,dateOfBirth', 'ok'],
      ['search-b', 'memberId', 'not-found'],
    ]);
    assert.ok(!JSON.stringify(entries).includes(lastName));
  });

  it('pages the matches: three with limit 2 are two and a nextPageToken, then one and none', async () => {
    const thrice = { ...patient, memberId: `ZP-${randomUUID().slice(0, 8)}` };
    for (const _ of [1, 2, 3]) {
      const started = await as(keys.a, {
        method: 'POST',
        url: '/verifications',
        payload: v2Intake({ patient: thrice }),
      });
      assert.equal(started.statusCode, 202, started.body);
    }
    const all = await found(keys.a, { memberId: thrice.memberId }, 3);
    type Page = { matches: Match[]; nextPageToken?: string };
    const first = (await search(keys.a, { memberId: thrice.memberId, limit: 2 })).json<Page>();
    assert.equal(first.matches.length, 2);
    assert.ok(first.nextPageToken);
    const second = await search(keys.a, { memberId: thrice.memberId, limit: 2, pageToken: first.nextPageToken });
    assert.equal(second.statusCode, 200, second.body);
    const last = second.json<Page>();
    assert.deepEqual([last.matches.length, last.nextPageToken], [1, undefined]);
    assert.deepEqual(
      [...first.matches, ...last.matches].map((m) => m.workflowId).sort(),
      all.matches.map((m) => m.workflowId).sort(),
    );
    // The token travels in logs and URLs: Temporal's sort position inside it, never a patient value.
    const outer = Buffer.from(first.nextPageToken, 'base64url').toString();
    const inner = Buffer.from((JSON.parse(outer) as { c: string }).c, 'base64url').toString();
    for (const value of [thrice.memberId, lastName]) assert.ok(!`${outer}${inner}`.includes(value), value);
  });

  it("indexes a batch's items: a row is found with its batch", async () => {
    const batchId = `search-${randomUUID().slice(0, 8)}`;
    const rowPatient = { ...patient, memberId: `ZB-${randomUUID().slice(0, 8)}` };
    const submitted = await as(keys.a, {
      method: 'POST',
      url: '/batches',
      payload: { batchId, items: [v2Intake({ patient: rowPatient })] },
    });
    assert.equal(submitted.statusCode, 202, submitted.body);
    const { matches } = await found(keys.a, { memberId: rowPatient.memberId }, 1);
    assert.equal(matches[0]!.batchId, batchId);
  });
});
