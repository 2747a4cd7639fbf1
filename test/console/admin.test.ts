import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { OperatorDirectory, type OperatorRole } from '../../src/access/operators.js';
import type { AuditEntry } from '../../src/audit/audit-entry.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import { csrfFrom, getPage, signIn, signInAs, startTestConsole, type TestConsole } from '../../testing/console-app.js';

const A = 'clinic-a';
const B = 'clinic-b';
const KEY = /eik_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/g;

interface Person {
  name: string;
  password: string;
}

// The administrators' pages (docs/operating/console.md) against a database of the suite's own: intake clients,
// operators and the audit trail, as `eligibility clients|operators|audit` manage them, limited to an administrator's
// tenants.
describe('operator console: administrators’ pages', function () {
  this.timeout(60_000);
  let store: Store;
  let trail: AuditTrail;
  let clients: IntakeClients;
  let directory: OperatorDirectory;
  let console: TestConsole;

  const person = (name: string): Person => ({ name, password: `${name}-${randomUUID()}` });
  /** An administrator of every tenant in the directory, an administrator of A, an operator and a viewer of A. */
  const root = person('root');
  const ada = person('ada');
  const opa = person('opa');
  const vee = person('vee');

  const get = (url: string, cookie: string) => getPage(console, url, cookie);
  /** A form post whose fields may repeat (checkboxes). */
  const postMulti = (url: string, cookie: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return console.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      payload: body.toString(),
    });
  };
  const csrfOf = async (cookie: string) => csrfFrom((await get('/verifications', cookie)).body);
  const make = (who: Person, role: OperatorRole, tenants: string[] | null) =>
    directory.create({ ...who, role, tenants, by: 'test' });
  const entriesSince = async (seq: number) => trail.list({ afterSeq: seq, limit: 10_000 });
  const lastSeq = async () => (await trail.list({ newestFirst: true, limit: 1 }))[0]?.seq ?? 0;

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    clients = new IntakeClients(store);
    directory = new OperatorDirectory(store);
    await make(root, 'admin', null);
    await make(ada, 'admin', [A]);
    await make(opa, 'operator', [A]);
    await make(vee, 'viewer', [A]);
    console = await startTestConsole(testTemporal().client, { audit: trail, directory, clients });
  });
  after(async () => {
    await console?.close();
    await store?.close();
  });

  it('answers an operator and a viewer with the plain 404 on every administrators’ path, and shows them no link', async () => {
    const admin = await get('/awaiting-input', await signIn(console));
    for (const path of ['/admin/clients', '/admin/operators', '/admin/audit']) {
      assert.match(admin.body, new RegExp(`href="${path}"`), `an administrator sees ${path}`);
    }
    const client = await clients.create({ name: 'x', tenant: A, scopes: ['verifications:read'], by: 'test' });
    for (const who of [opa, vee]) {
      const cookie = await signInAs(console, who);
      const page = await get('/awaiting-input', cookie);
      assert.doesNotMatch(page.body, /href="\/admin\//, `${who.name} sees no administrators' link`);
      const csrf = csrfFrom(page.body);
      const nothing = await get('/no-such-page', cookie);
      const attempts = [
        get('/admin/clients', cookie),
        get('/admin/operators', cookie),
        get('/admin/audit', cookie),
        get('/admin/audit.jsonl', cookie),
        get(`/admin/clients/${client.id}/revoke`, cookie),
        get(`/admin/operators/${opa.name}`, cookie),
        postMulti('/admin/clients', cookie, { _csrf: csrf, name: 'x', tenant: A, scopes: 'admin' }),
        postMulti(`/admin/clients/${client.id}/revoke`, cookie, { _csrf: csrf, confirm: 'yes' }),
        postMulti(`/admin/operators/${vee.name}/disable`, cookie, { _csrf: csrf, confirm: 'yes' }),
        postMulti('/admin/audit/verify', cookie, { _csrf: csrf }),
      ];
      for (const res of await Promise.all(attempts)) {
        assert.equal(res.statusCode, 404);
        assert.equal(res.body, nothing.body);
      }
    }
    assert.equal((await clients.list()).find((c) => c.id === client.id)?.revokedAt, undefined, 'nothing was done');
    assert.ok(await directory.find(vee.name), 'nothing was done');
  });

  it('makes a client whose key is shown once and works; rotates and revokes it after a confirmation; each change audited', async () => {
    const from = await lastSeq();
    const cookie = await signIn(console);
    const form = await get('/admin/clients', cookie);
    assert.equal(form.statusCode, 200);
    const csrf = csrfFrom(form.body);

    // Refusals name the field.
    const none = await postMulti('/admin/clients', cookie, { _csrf: csrf, name: 'PMS', tenant: A });
    assert.equal(none.statusCode, 400);
    assert.match(none.body, /Not made \(field scopes\)/);
    const both = await postMulti('/admin/clients', cookie, {
      _csrf: csrf,
      name: 'PMS',
      tenant: A,
      allTenants: 'yes',
      scopes: 'admin',
    });
    assert.match(both.body, /Not made \(field tenant\)/);

    const made = await postMulti('/admin/clients', cookie, {
      _csrf: csrf,
      name: 'Clinic A PMS',
      tenant: A,
      scopes: ['verifications:write', 'verifications:read'],
    });
    assert.equal(made.statusCode, 200);
    const keys = made.body.match(KEY) ?? [];
    assert.equal(keys.length, 1, 'the key, exactly once');
    assert.match(made.body, /shown only this once/);
    const key = keys[0];
    const id = key.split('_')[1]!;
    const secret = key.slice(`eik_${id}_`.length);
    const principal = await clients.authenticate(key);
    assert.equal(principal?.tenant, A, 'the key works, bound to its tenant');
    assert.deepEqual([...principal.scopes].sort(), ['verifications:read', 'verifications:write']);

    const listed = await get('/admin/clients', cookie);
    assert.match(listed.body, new RegExp(`eik_${id}_…`));
    assert.match(listed.body, /Clinic A PMS/);
    assert.ok(!listed.body.includes(secret), 'the list never shows a key');

    // Rotation: a confirmation page first; a post without it is taken there.
    const confirm = await get(`/admin/clients/${id}/rotate`, cookie);
    assert.equal(confirm.statusCode, 200);
    assert.match(confirm.body, /stops working at once/);
    const skipped = await postMulti(`/admin/clients/${id}/rotate`, cookie, { _csrf: csrfFrom(confirm.body) });
    assert.equal(skipped.statusCode, 303);
    assert.equal(skipped.headers.location, `/admin/clients/${id}/rotate`);
    const rotated = await postMulti(`/admin/clients/${id}/rotate`, cookie, {
      _csrf: csrfFrom(confirm.body),
      confirm: 'yes',
    });
    const newKeys = rotated.body.match(KEY) ?? [];
    assert.equal(newKeys.length, 1);
    assert.notEqual(newKeys[0], key);
    assert.equal(await clients.authenticate(key), undefined, 'the old key stops at once');
    assert.equal((await clients.authenticate(newKeys[0]))?.tenant, A);

    const revoke = await get(`/admin/clients/${id}/revoke`, cookie);
    assert.match(revoke.body, /cannot be undone/);
    const revoked = await postMulti(`/admin/clients/${id}/revoke`, cookie, {
      _csrf: csrfFrom(revoke.body),
      confirm: 'yes',
    });
    assert.equal(revoked.statusCode, 303);
    assert.equal(await clients.authenticate(newKeys[0]), undefined);
    assert.equal((await get(`/admin/clients/${id}/revoke`, cookie)).statusCode, 404, 'revoked is no longer active');

    const entries = await entriesSince(from);
    const changes = entries.filter((e) => e.action.startsWith('client.'));
    assert.deepEqual(
      changes.map((e) => [e.actor, e.action, e.tenant, e.source, e.outcome]),
      ['create', 'rotate', 'revoke'].map((act) => [
        `operator:${console.operator.name}`,
        `client.${act}:${id}`,
        A,
        '127.0.0.1',
        'ok',
      ]),
    );
    const text = JSON.stringify(entries) + console.logs.join('');
    for (const k of [key, newKeys[0]]) assert.ok(!text.includes(k.slice(-20)), 'no key in the trail or the logs');
  });

  it('limits an administrator of some tenants to their clients: never one of all tenants, another’s not found', async () => {
    const theirs = await clients.create({ name: 'B PMS', tenant: B, scopes: ['verifications:read'], by: 'test' });
    const everyone = await clients.create({ name: 'Billing', tenant: null, scopes: ['admin'], by: 'test' });
    const cookie = await signInAs(console, ada);
    const page = await get('/admin/clients', cookie);
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, new RegExp(theirs.id), "another tenant's client is not listed");
    assert.doesNotMatch(page.body, new RegExp(everyone.id), 'nor a client of every tenant');
    assert.doesNotMatch(page.body, /name="allTenants"/, 'no choice of every tenant');
    const csrf = csrfFrom(page.body);
    for (const form of [{ tenant: B }, { tenant: A, allTenants: 'yes' }, { allTenants: 'yes' }] as Record<
      string,
      string
    >[]) {
      const res = await postMulti('/admin/clients', cookie, { _csrf: csrf, name: 'x', scopes: 'admin', ...form });
      assert.equal(res.statusCode, 400, JSON.stringify(form));
      assert.match(res.body, /Not made \(field tenant\)/);
      assert.doesNotMatch(res.body, KEY);
    }
    for (const id of [theirs.id, everyone.id]) {
      assert.equal((await get(`/admin/clients/${id}/revoke`, cookie)).statusCode, 404);
      const res = await postMulti(`/admin/clients/${id}/revoke`, cookie, { _csrf: csrf, confirm: 'yes' });
      assert.equal(res.statusCode, 404);
      assert.equal((await clients.list()).find((c) => c.id === id)?.revokedAt, undefined);
    }
    const made = await postMulti('/admin/clients', cookie, { _csrf: csrf, name: 'A2', tenant: A, scopes: 'admin' });
    assert.equal(made.statusCode, 200);
    assert.equal(made.body.match(KEY)?.length, 1);
  });

  it('adds an operator (password twice), changes their role and disables them; each change audited per tenant', async () => {
    const from = await lastSeq();
    const cookie = await signIn(console);
    const csrf = csrfFrom((await get('/admin/operators', cookie)).body);
    const newcomer = person('nia');
    const form = { _csrf: csrf, name: newcomer.name, role: 'operator', tenants: `${A}, ${B}` };
    const differ = await postMulti('/admin/operators', cookie, {
      ...form,
      password: newcomer.password,
      passwordAgain: 'something else entirely',
    });
    assert.equal(differ.statusCode, 400);
    assert.match(differ.body, /Not added \(field passwordAgain\)/);
    assert.ok(!differ.body.includes(newcomer.password), 'a password is never said back');
    const short = await postMulti('/admin/operators', cookie, { ...form, password: 'short', passwordAgain: 'short' });
    assert.match(short.body, /Not added \(field password\): the password must be at least 12 characters/);
    const added = await postMulti('/admin/operators', cookie, {
      ...form,
      password: newcomer.password,
      passwordAgain: newcomer.password,
    });
    assert.equal(added.statusCode, 303);
    await signInAs(console, newcomer);

    const changed = await postMulti(`/admin/operators/${newcomer.name}`, cookie, {
      _csrf: csrf,
      role: 'viewer',
      tenants: A,
    });
    assert.equal(changed.statusCode, 303);
    assert.deepEqual(await directory.find(newcomer.name), { name: newcomer.name, role: 'viewer', tenants: [A] });
    const page = await get(`/admin/operators/${newcomer.name}`, cookie);
    assert.match(page.body, /<dd>viewer<\/dd>/);
    const unconfirmed = await postMulti(`/admin/operators/${newcomer.name}/disable`, cookie, { _csrf: csrf });
    assert.equal(unconfirmed.statusCode, 303);
    assert.ok(await directory.find(newcomer.name), 'not disabled without the box ticked');
    await postMulti(`/admin/operators/${newcomer.name}/disable`, cookie, { _csrf: csrf, confirm: 'yes' });
    assert.equal(await directory.find(newcomer.name), undefined);
    await assert.rejects(signInAs(console, newcomer), /sign-in answered 401/);

    const changes = (await entriesSince(from)).filter(
      (e) => e.action.startsWith('operator.') && e.action.includes(':'),
    );
    const actor = `operator:${console.operator.name}`;
    assert.deepEqual(
      changes.map((e) => [e.actor, e.action, e.tenant]),
      [
        [actor, `operator.create:${newcomer.name}`, A],
        [actor, `operator.create:${newcomer.name}`, B],
        [actor, `operator.set:${newcomer.name}`, A],
        [actor, `operator.set:${newcomer.name}`, B],
        [actor, `operator.disable:${newcomer.name}`, A],
      ],
    );
  });

  it('refuses an administrator disabling themselves or taking away their own admin role, saying so', async () => {
    const cookie = await signInAs(console, root);
    const page = await get(`/admin/operators/${root.name}`, cookie);
    assert.match(page.body, /This is you/);
    assert.doesNotMatch(page.body, /\/disable"/, 'no disable form for oneself');
    const csrf = csrfFrom(page.body);
    const demoted = await postMulti(`/admin/operators/${root.name}`, cookie, {
      _csrf: csrf,
      role: 'operator',
      allTenants: 'yes',
    });
    assert.equal(demoted.statusCode, 400);
    assert.match(demoted.body, /Not changed \(field role\): you cannot take away your own admin role/);
    const disabled = await postMulti(`/admin/operators/${root.name}/disable`, cookie, { _csrf: csrf, confirm: 'yes' });
    assert.equal(disabled.statusCode, 303);
    assert.match((await get(`/admin/operators/${root.name}`, cookie)).body, /you cannot disable yourself/);
    assert.deepEqual(await directory.find(root.name), { name: root.name, role: 'admin', tenants: null });
  });

  it('limits an administrator of some tenants to operators all of whose tenants are theirs', async () => {
    const other = person('bob');
    await make(other, 'operator', [A, B]);
    const cookie = await signInAs(console, ada);
    const page = await get('/admin/operators', cookie);
    assert.match(page.body, />opa</);
    assert.doesNotMatch(page.body, />bob<|>root</, 'not an operator of another tenant, nor of every tenant');
    const csrf = csrfFrom(page.body);
    assert.equal((await get(`/admin/operators/${other.name}`, cookie)).statusCode, 404);
    const res = await postMulti(`/admin/operators/${other.name}/disable`, cookie, { _csrf: csrf, confirm: 'yes' });
    assert.equal(res.statusCode, 404);
    assert.ok(await directory.find(other.name));
    const newcomer = person('ned');
    for (const tenants of [{ tenants: B }, { allTenants: 'yes' }] as Record<string, string>[]) {
      const refused = await postMulti('/admin/operators', cookie, {
        _csrf: csrf,
        name: newcomer.name,
        role: 'operator',
        password: newcomer.password,
        passwordAgain: newcomer.password,
        ...tenants,
      });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /Not added \(field tenants\)/);
    }
    const widened = await postMulti(`/admin/operators/${opa.name}`, cookie, {
      _csrf: csrf,
      role: 'operator',
      tenants: [A, B],
    });
    assert.equal(widened.statusCode, 400);
    assert.deepEqual((await directory.find(opa.name))?.tenants, [A]);
  });

  it('searches the trail newest first, a hundred a page, by each filter; a tenant’s administrator sees theirs only', async () => {
    const run = randomUUID().slice(0, 8);
    const actor = `client:search-${run}`;
    const at = (iso: string) => new Date(iso);
    await trail.append(
      { actor, tenant: A, action: 'verification.read', workflowId: `wf-${run}`, fields: ['memberId'], outcome: 'ok' },
      at('2030-01-01T10:00:00Z'),
    );
    await trail.append(
      { actor, tenant: B, action: 'batch.results', batchId: `b-${run}`, outcome: 'ok' },
      at('2030-01-02T10:00:00Z'),
    );
    for (let i = 0; i < 105; i += 1) {
      await trail.append({ actor, tenant: A, action: 'verification.start', outcome: 'ok' }, at('2030-01-03T10:00:00Z'));
    }
    const cookie = await signIn(console);
    const csrf = await csrfOf(cookie);
    const search = async (who: string, filter: Record<string, string>) => {
      const res = await postMulti('/admin/audit', who, { _csrf: csrf, ...filter });
      const seqs = [...res.body.matchAll(/<tr>\s*<td>(\d+)<\/td>/g)].map((m) => Number(m[1]));
      return { res, seqs };
    };
    const all = await search(cookie, { actor });
    assert.equal(all.res.statusCode, 200);
    assert.equal(all.seqs.length, 100, 'a hundred a page');
    assert.deepEqual(
      all.seqs,
      [...all.seqs].sort((x, y) => y - x),
      'newest first',
    );
    const before = /name="before" value="(\d+)"/.exec(all.res.body)?.[1];
    assert.ok(before, 'an "older" button');
    const older = await search(cookie, { actor, before });
    assert.equal(older.seqs.length, 7);
    assert.doesNotMatch(older.res.body, /name="before"/);

    const one = async (filter: Record<string, string>) => (await search(cookie, { actor, ...filter })).seqs.length;
    assert.equal(await one({ action: 'batch.results' }), 1);
    assert.equal(await one({ workflowId: `wf-${run}` }), 1);
    assert.equal(await one({ batchId: `b-${run}` }), 1);
    assert.equal(await one({ tenant: B }), 1);
    assert.equal(await one({ since: '2030-01-02', until: '2030-01-03' }), 1);
    assert.equal(await one({ until: '2030-01-01T11:00' }), 1);
    const bad = await search(cookie, { actor, since: 'last tuesday' });
    assert.equal(bad.res.statusCode, 400);
    assert.match(bad.res.body, /Not searched \(field since\)/);
    const { res } = await search(cookie, { workflowId: `wf-${run}` });
    assert.match(res.body, /memberId/, 'field names are shown');

    const scoped = await signInAs(console, ada);
    const theirs = await postMulti('/admin/audit', scoped, {
      _csrf: csrfFrom((await get('/admin/audit', scoped)).body),
      actor,
      tenant: B,
    });
    assert.equal(theirs.statusCode, 200);
    assert.match(theirs.body, /No entry matches/, "another tenant's entries are not theirs");
    const page = await get('/admin/audit', scoped);
    assert.doesNotMatch(page.body, new RegExp(`b-${run}`), "another tenant's entry");
    const mine = await postMulti('/admin/audit', scoped, { _csrf: csrfFrom(page.body), workflowId: `wf-${run}` });
    assert.match(mine.body, new RegExp(`wf-${run}`), "their tenant's entry");
    assert.doesNotMatch(page.body, /operator\.sign-in/, 'nor entries of no tenant');

    const reads = await trail.list({ actor: `operator:${console.operator.name}`, action: 'audit.read', limit: 10_000 });
    assert.equal(reads.length, 9, 'each view of the trail is itself an entry (not the refused search)');
  });

  it('exports a search as JSON Lines and records the export', async () => {
    await trail.append({
      actor: 'client:export',
      tenant: A,
      action: 'verification.read',
      fields: ['patient.dateOfBirth'],
      outcome: 'ok',
    });
    await trail.append({ actor: 'client:export', tenant: B, action: 'verification.read', outcome: 'ok' });
    const cookie = await signIn(console);
    const res = await postMulti('/admin/audit.jsonl', cookie, { _csrf: await csrfOf(cookie), actor: 'client:export' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /application\/x-ndjson/);
    assert.match(String(res.headers['content-disposition']), /attachment/);
    const lines = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
    assert.deepEqual(
      lines.map((e) => [e.actor, e.tenant]),
      [
        ['client:export', A],
        ['client:export', B],
      ],
    );
    assert.deepEqual(lines[0]!.fields, ['patient.dateOfBirth']);
    const scoped = await signInAs(console, ada);
    const theirs = (await get('/admin/audit.jsonl', scoped)).body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
    assert.ok(theirs.length > 0 && theirs.every((e) => e.tenant === A));
    const [entry] = await trail.list({
      actor: `operator:${console.operator.name}`,
      action: 'audit.export',
      newestFirst: true,
      limit: 1,
    });
    assert.equal(entry?.outcome, 'ok');
  });

  it('verifies the chain: ok with its count, then the first broken entry after a row is edited in the database', async () => {
    const cookie = await signIn(console);
    const ok = await postMulti('/admin/audit/verify', cookie, { _csrf: await csrfOf(cookie) });
    assert.equal(ok.statusCode, 200);
    const count = (await trail.list({ limit: 100_000 })).length;
    assert.match(ok.body, new RegExp(`The chain holds: ${count - 1} entries`));
    const [victim] = await trail.list({ actor: 'client:export', limit: 1 });
    await store.db
      .updateTable('audit_entries')
      .set({ actor: 'nobody' })
      .where('seq', '=', String(victim!.seq))
      .execute();
    const broken = await postMulti('/admin/audit/verify', cookie, { _csrf: await csrfOf(cookie) });
    assert.match(
      broken.body,
      new RegExp(`The chain is broken at entry ${victim!.seq}: its content does not match its hash`),
    );
  });
});
