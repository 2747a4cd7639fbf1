import assert from 'node:assert/strict';
import { IntakeClients } from '../../src/access/intake-clients.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';

describe('intake clients', function () {
  this.timeout(20_000);
  let store: Store;
  let clients: IntakeClients;
  before(async () => {
    store = await testStore();
    clients = new IntakeClients(store);
  });
  after(() => store?.close());

  it('keeps only a hash of the key, and knows the client by it: tenant and scopes', async () => {
    const made = await clients.create({
      name: 'Clinic 42 PMS',
      tenant: 'clinic-42',
      scopes: ['verifications:write', 'verifications:read'],
      by: 'cli:test',
    });
    assert.match(made.key, /^eik_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const secret = made.key.split('_').slice(2).join('_');
    const rows = await store.db.selectFrom('intake_clients').selectAll().where('id', '=', made.id).execute();
    assert.equal(rows.length, 1);
    assert.doesNotMatch(JSON.stringify(rows), new RegExp(secret.replace(/[-]/g, '\\-')), 'the secret is not stored');
    const principal = await clients.authenticate(made.key);
    assert.equal(principal?.tenant, 'clinic-42');
    assert.deepEqual([...(principal?.scopes ?? [])].sort(), ['verifications:read', 'verifications:write']);
    assert.equal(principal?.actor, `client:${made.id} (Clinic 42 PMS)`);
    const listed = (await clients.list()).find((c) => c.id === made.id);
    assert.doesNotMatch(JSON.stringify(listed), /eik_|secret|hash/, 'a listing shows no key material');
  });

  it('refuses a wrong secret, a malformed key, a rotated-away key and a revoked one', async () => {
    const made = await clients.create({ name: 'x', tenant: null, scopes: ['admin'], by: 'cli:test' });
    const wrong = `${made.key.slice(0, -4)}AAAA`;
    assert.equal(await clients.authenticate(wrong), undefined);
    assert.equal(await clients.authenticate('not-a-key'), undefined);
    const rotated = await clients.rotate(made.id);
    assert.equal(await clients.authenticate(made.key), undefined, 'the old key stops at once');
    assert.equal((await clients.authenticate(rotated.key))?.tenant, null);
    await clients.revoke(made.id);
    assert.equal(await clients.authenticate(rotated.key), undefined);
    await assert.rejects(clients.revoke(made.id), /no active intake client/);
  });
});
