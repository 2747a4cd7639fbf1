import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { OperatorDirectory, type OperatorRole } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices, type EventServices } from '../../src/events/services.js';
import { signedHeaders } from '../../src/events/signing.js';
import type { Store } from '../../src/store/database.js';
import { EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import {
  csrfFrom,
  getPage,
  postForm,
  signInAs,
  startTestConsole,
  type TestConsole,
} from '../../testing/console-app.js';

const SECRET = /whsec_[A-Za-z0-9+/=]+/g;

interface Person {
  name: string;
  password: string;
}

// The console's Event endpoints page (docs/integrating/events.md) against a database of the suite's own: no worker
// delivers here, so what is queued in the outbox stays there to be looked at.
describe('operator console: event endpoints', function () {
  this.timeout(60_000);
  const run = randomUUID().slice(0, 8);
  const A = `clinic-a-${run}`;
  const B = `clinic-b-${run}`;
  let store: Store;
  let trail: AuditTrail;
  let directory: OperatorDirectory;
  let events: EventServices;
  let console: TestConsole;

  const person = (name: string): Person => ({ name, password: `${name}-${randomUUID()}` });
  const ada = person('ada');
  const opa = person('opa');
  const vee = person('vee');
  const make = (who: Person, role: OperatorRole, tenants: string[] | null) =>
    directory.create({ ...who, role, tenants, by: 'test' });
  const get = (url: string, cookie: string) => getPage(console, url, cookie);
  const post = (url: string, cookie: string, form: Record<string, string | readonly string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return console.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: body.toString(),
    });
  };
  const lastSeq = async () => (await trail.list({ newestFirst: true, limit: 1 }))[0]?.seq ?? 0;
  /** What the outbox holds for an endpoint, and its undelivered lines in the deliveries log. */
  const outboxOf = async (endpointId: string) => {
    const rows = await store.db
      .selectFrom('event_outbox')
      .select('event_id')
      .where('endpoint_id', '=', endpointId)
      .execute();
    const undelivered = await store.db
      .selectFrom('event_deliveries')
      .select('event_id')
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'undelivered')
      .execute();
    return { rows: rows.length, undelivered: undelivered.length };
  };

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    directory = new OperatorDirectory(store);
    events = eventServices(store, new SecretBox(testCodecKeys()));
    await make(ada, 'admin', [A]);
    await make(opa, 'operator', [A]);
    await make(vee, 'viewer', [A]);
    console = await startTestConsole(testTemporal().client, { audit: trail, directory, events });
  });
  after(async () => {
    await console?.close();
    await store?.close();
  });

  it('adds an endpoint whose secret is shown once and signs; disables, enables, rotates, deletes it; each change audited', async () => {
    const from = await lastSeq();
    const cookie = await signInAs(console, ada);
    const form = await get('/event-endpoints/new', cookie);
    assert.equal(form.statusCode, 200);
    for (const type of EVENT_TYPES) assert.match(form.body, new RegExp(`name="events"\\s+value="${type}"`));
    assert.doesNotMatch(form.body, /name="tenant"/, 'an administrator of one tenant chooses none');
    const csrf = csrfFrom(form.body);
    const url = `https://receiver-${run}.example/hooks`;
    const valid = { _csrf: csrf, url, events: ['verification.completed', 'verification.failed'], description: 'PMS' };

    // Refusals name the field and add nothing.
    for (const [change, field] of [
      [{ url: 'ftp://receiver.example/hooks' }, 'url'],
      [{ url: 'https://user:pw@receiver.example/' }, 'url'],
      [{ events: [] }, 'events'],
      [{ events: ['verification.started'] }, 'events'],
      [{ tenant: B }, 'tenant'],
    ] as const) {
      const refused = await post('/event-endpoints', cookie, { ...valid, ...change });
      assert.equal(refused.statusCode, 400, JSON.stringify(change));
      assert.match(refused.body, new RegExp(`Not added \\(field ${field}\\)`));
      assert.doesNotMatch(refused.body, SECRET);
    }
    assert.deepEqual(await events.endpoints.list(B), []);
    assert.deepEqual(await events.endpoints.list(A), []);

    const made = await post('/event-endpoints', cookie, valid);
    assert.equal(made.statusCode, 200);
    const secrets = made.body.match(SECRET) ?? [];
    assert.equal(secrets.length, 1, 'the secret, exactly once');
    assert.match(made.body, /shown only this once/);
    const secret = secrets[0];
    const [endpoint] = await events.endpoints.list(A);
    assert.equal(endpoint?.url, url);
    assert.deepEqual(endpoint.events, valid.events);
    const id = endpoint.id;
    assert.deepEqual((await events.endpoints.signing(id))?.secrets, [secret], 'the stored secret opens to it');
    const body = JSON.stringify({ id: 'evt_1', type: 'verification.completed' });
    const headers = signedHeaders('evt_1', body, [secret], new Date());
    assert.doesNotThrow(() => new Webhook(secret).verify(body, headers), 'a delivery it signs verifies');
    // Something queued for it, as a workflow emits: set aside as undelivered when it is disabled.
    const emitted = {
      id: `evt_${run}0000`,
      type: 'verification.completed' as const,
      timestamp: new Date().toISOString(),
      tenant: A,
      data: { workflowId: `wf-${run}-0`, stage: 'completed' as const },
      links: { self: `/verifications/wf-${run}-0` },
    };
    assert.equal(await events.outbox.enqueue(emitted), 1);

    const list = await get('/event-endpoints', cookie);
    assert.match(list.body, new RegExp(`<code>${url}</code>`));
    assert.match(list.body, new RegExp(`href="/event-endpoints/${id}"`));
    assert.ok(!list.body.includes(secret) && !(await get(`/event-endpoints/${id}`, cookie)).body.includes(secret));

    const disabled = await post(`/event-endpoints/${id}/disable`, cookie, { _csrf: csrf });
    assert.equal(disabled.statusCode, 303);
    assert.equal(disabled.headers.location, `/event-endpoints/${id}`);
    assert.equal((await events.endpoints.get(id, A))?.disabledReason, 'disabled');
    assert.deepEqual(await outboxOf(id), { rows: 0, undelivered: 1 });
    const shown = await get('/event-endpoints', cookie);
    assert.match(shown.body, /1 endpoint is disabled/);
    assert.match(shown.body, /disabled by a person/);
    await post(`/event-endpoints/${id}/enable`, cookie, { _csrf: csrf });
    assert.equal((await events.endpoints.get(id, A))?.status, 'active');
    assert.doesNotMatch((await get('/event-endpoints', cookie)).body, /endpoints? (is|are) disabled/);

    const confirm = await get(`/event-endpoints/${id}/rotate`, cookie);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /keeps signing beside it/);
    const skipped = await post(`/event-endpoints/${id}/rotate`, cookie, { _csrf: csrf });
    assert.equal(skipped.statusCode, 303);
    assert.equal(skipped.headers.location, `/event-endpoints/${id}/rotate`);
    const tooLong = await post(`/event-endpoints/${id}/rotate`, cookie, {
      _csrf: csrf,
      confirm: 'yes',
      graceHours: '999',
    });
    assert.equal(tooLong.statusCode, 400);
    assert.match(tooLong.body, /\(field graceHours\)/);
    const rotated = await post(`/event-endpoints/${id}/rotate`, cookie, {
      _csrf: csrf,
      confirm: 'yes',
      graceHours: '24',
    });
    assert.equal(rotated.statusCode, 200);
    const fresh = rotated.body.match(SECRET) ?? [];
    assert.equal(fresh.length, 1);
    assert.notEqual(fresh[0], secret);
    assert.deepEqual((await events.endpoints.signing(id))?.secrets, [fresh[0], secret], 'the old one signs beside it');

    const remove = await get(`/event-endpoints/${id}/delete`, cookie);
    assert.match(remove.body, /cannot be undone/);
    const unconfirmed = await post(`/event-endpoints/${id}/delete`, cookie, { _csrf: csrf });
    assert.equal(unconfirmed.statusCode, 303);
    assert.ok(await events.endpoints.get(id, A), 'not deleted without the confirmation');
    const deleted = await post(`/event-endpoints/${id}/delete`, cookie, { _csrf: csrf, confirm: 'yes' });
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, '/event-endpoints');
    assert.equal(await events.endpoints.get(id, A), undefined);
    assert.equal((await get(`/event-endpoints/${id}`, cookie)).statusCode, 404);

    // The changes; the read of the deleted endpoint is its own `not-found` entry (every refusal is on record).
    const entries = (await trail.list({ afterSeq: from, limit: 10_000 })).filter(
      (e) => e.action.startsWith('event-endpoint.') && e.outcome !== 'not-found',
    );
    assert.deepEqual(
      entries.map((e) => [e.actor, e.action, e.tenant, e.outcome]),
      ['create', 'disable', 'enable', 'rotate', 'delete'].map((act) => [
        `operator:${ada.name}`,
        `event-endpoint.${act}:${id}`,
        A,
        'ok',
      ]),
    );
    const text = JSON.stringify(await trail.list({ afterSeq: from, limit: 10_000 })) + console.logs.join('');
    for (const s of [secret, fresh[0]]) assert.ok(!text.includes(s.slice(-20)), 'no secret in the trail or the logs');
  });

  it("shows an endpoint's last attempts and redelivers the failed ones since a time", async () => {
    const cookie = await signInAs(console, ada);
    const { endpoint } = await events.endpoints.create({
      tenant: A,
      url: 'https://a.example/',
      events: [...EVENT_TYPES],
    });
    const event = {
      id: `evt_${run}0001`,
      type: 'verification.completed' as const,
      timestamp: new Date().toISOString(),
      tenant: A,
      data: { workflowId: `wf-${run}`, stage: 'completed' as const },
      links: { self: `/verifications/wf-${run}` },
    };
    await events.log.keep(event);
    const attemptedAt = new Date();
    await events.log.recordAttempt({
      eventId: event.id,
      endpointId: endpoint.id,
      status: 'failed',
      statusCode: 503,
      latencyMs: 42,
      attemptedAt,
      nextRetryAt: new Date(attemptedAt.getTime() + 60_000),
    });
    const page = await get(`/event-endpoints/${endpoint.id}`, cookie);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /verification\.completed/);
    assert.match(page.body, /<td>503<\/td>/);
    assert.match(page.body, /42 ms/);
    const csrf = csrfFrom(page.body);

    const future = await post(`/event-endpoints/${endpoint.id}/redeliver`, cookie, {
      _csrf: csrf,
      failedSince: '2999-01-01T00:00',
    });
    assert.equal(future.statusCode, 400);
    assert.match(future.body, /Not redelivered \(field failedSince\)/);

    const from = await lastSeq();
    const since = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
    const queued = await post(`/event-endpoints/${endpoint.id}/redeliver`, cookie, { _csrf: csrf, failedSince: since });
    assert.equal(queued.statusCode, 303);
    assert.match((await get(`/event-endpoints/${endpoint.id}`, cookie)).body, /1 event\(s\) queued again/);
    assert.equal((await outboxOf(endpoint.id)).rows, 1, 'queued in the outbox for the workers to deliver');
    const entries = await trail.list({ afterSeq: from, limit: 100 });
    assert.deepEqual(
      entries.map((e) => [e.action, e.tenant]),
      [[`event-endpoint.redeliver:${endpoint.id}`, A]],
    );

    await events.endpoints.update(endpoint.id, A, { disabled: true });
    const refused = await post(`/event-endpoints/${endpoint.id}/redeliver`, cookie, {
      _csrf: csrf,
      failedSince: since,
    });
    assert.equal(refused.statusCode, 409);
    assert.match(refused.body, /enable the endpoint before redelivering/);
    await events.endpoints.delete(endpoint.id, A);
  });

  it("shows a viewer and an operator the list and a disabled endpoint's reason, and answers every action with the plain 404", async () => {
    const { endpoint } = await events.endpoints.create({
      tenant: A,
      url: 'https://failing.example/',
      events: ['batch.settled'],
    });
    await events.endpoints.disable(endpoint.id, 'failing');
    for (const who of [opa, vee]) {
      const cookie = await signInAs(console, who);
      const list = await get('/event-endpoints', cookie);
      assert.equal(list.statusCode, 200);
      assert.match(list.body, /href="\/event-endpoints"\s+aria-current="page"/, 'in the navigation');
      assert.match(list.body, /https:\/\/failing\.example\//);
      assert.match(list.body, /endpoints? (is|are) disabled/);
      assert.match(list.body, /every delivery failed for the whole retry window/);
      assert.doesNotMatch(list.body, /Add an endpoint/);
      const page = await get(`/event-endpoints/${endpoint.id}`, cookie);
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /\/(enable|disable|rotate|delete|redeliver)"/, 'no action offered');
      const csrf = csrfFrom(page.body);
      const nothing = await get('/no-such-page', cookie);
      const path = `/event-endpoints/${endpoint.id}`;
      const attempts = [
        get('/event-endpoints/new', cookie),
        get(`${path}/rotate`, cookie),
        get(`${path}/delete`, cookie),
        post('/event-endpoints', cookie, { _csrf: csrf, url: 'https://x.example/', events: 'batch.settled' }),
        post(`${path}/enable`, cookie, { _csrf: csrf }),
        post(`${path}/disable`, cookie, { _csrf: csrf }),
        post(`${path}/rotate`, cookie, { _csrf: csrf, confirm: 'yes' }),
        post(`${path}/delete`, cookie, { _csrf: csrf, confirm: 'yes' }),
        post(`${path}/redeliver`, cookie, { _csrf: csrf, failedSince: '2020-01-01T00:00' }),
      ];
      for (const res of await Promise.all(attempts)) {
        assert.equal(res.statusCode, 404);
        assert.equal(res.body, nothing.body);
      }
    }
    const after = await events.endpoints.get(endpoint.id, A);
    assert.equal(after?.disabledReason, 'failing', 'nothing was done');
    assert.equal(after.previousSecretExpiresAt, undefined);
    assert.equal((await events.endpoints.list(A)).filter((e) => e.url === 'https://x.example/').length, 0);
    await events.endpoints.delete(endpoint.id, A);
  });

  it("keeps an administrator of clinic-a from clinic-b's endpoints; one of every tenant names the tenant", async () => {
    const { endpoint: theirs } = await events.endpoints.create({
      tenant: B,
      url: 'https://b.example/',
      events: ['batch.finished'],
    });
    const cookie = await signInAs(console, ada);
    const list = await get('/event-endpoints', cookie);
    assert.doesNotMatch(list.body, /b\.example/);
    assert.doesNotMatch(list.body, new RegExp(theirs.id));
    const csrf = csrfFrom(list.body);
    const path = `/event-endpoints/${theirs.id}`;
    for (const res of [
      await get(path, cookie),
      await get(`${path}/delete`, cookie),
      await post(`${path}/disable`, cookie, { _csrf: csrf }),
      await post(`${path}/rotate`, cookie, { _csrf: csrf, confirm: 'yes' }),
      await post(`${path}/delete`, cookie, { _csrf: csrf, confirm: 'yes' }),
    ]) {
      assert.equal(res.statusCode, 404);
      assert.match(res.body, /There is no event endpoint with this id/);
    }
    assert.equal((await events.endpoints.get(theirs.id, B))?.status, 'active', 'nothing was done');

    const from = await lastSeq();
    const root = await signInAs(console, console.operator);
    const all = await get('/event-endpoints', root);
    assert.match(all.body, /b\.example/, 'an administrator of every tenant sees every tenant’s');
    const form = await get('/event-endpoints/new', root);
    assert.match(form.body, /name="tenant"/);
    const made = await post('/event-endpoints', root, {
      _csrf: csrfFrom(form.body),
      url: 'https://b2.example/',
      events: 'batch.finished',
      tenant: B,
    });
    assert.equal(made.statusCode, 200);
    const created = (await events.endpoints.list(B)).find((e) => e.url === 'https://b2.example/');
    assert.ok(created);
    assert.deepEqual(
      (await trail.list({ afterSeq: from, limit: 100 }))
        .filter((e) => e.action.startsWith('event-endpoint.'))
        .map((e) => [e.action, e.tenant]),
      [[`event-endpoint.create:${created.id}`, B]],
    );
  });

  it('says event endpoints need the database when the console runs without one', async () => {
    const bare = await startTestConsole(testTemporal().client);
    try {
      const cookie = await signInAs(bare, bare.operator);
      const page = await getPage(bare, '/event-endpoints', cookie);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Event endpoints live in the project's database/);
      const csrf = csrfFrom(page.body);
      const res = await postForm(bare, '/event-endpoints', cookie, { _csrf: csrf, url: 'https://x.example/' });
      assert.match(res.body, /DATABASE_URL is not set/);
    } finally {
      await bare.close();
    }
  });
});
