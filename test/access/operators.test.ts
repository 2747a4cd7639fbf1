import assert from 'node:assert/strict';
import { OperatorDirectory } from '../../src/access/operators.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';

describe("the console's operators", function () {
  this.timeout(30_000);
  let store: Store;
  let directory: OperatorDirectory;
  before(async () => {
    store = await testStore();
    directory = new OperatorDirectory(store);
  });
  after(() => store?.close());

  it('keeps a role, tenants and only a hash of the password; a wrong password or a disabled operator is refused', async () => {
    await directory.create({
      name: 'ana',
      role: 'viewer',
      tenants: ['clinic-1'],
      password: 'a long passphrase',
      by: 'cli:test',
    });
    assert.deepEqual(await directory.verify('ana', 'a long passphrase'), {
      name: 'ana',
      role: 'viewer',
      tenants: ['clinic-1'],
    });
    assert.equal(await directory.verify('ana', 'a long passphrasE'), undefined);
    assert.equal(await directory.verify('nobody', 'a long passphrase'), undefined);
    const rows = await store.db.selectFrom('operators').selectAll().execute();
    assert.doesNotMatch(JSON.stringify(rows), /a long passphrase/);
    assert.doesNotMatch(JSON.stringify(await directory.list()), /scrypt|passphrase/, 'a listing shows no password');
    await directory.update('ana', { role: 'operator', tenants: null });
    assert.deepEqual(await directory.find('ana'), { name: 'ana', role: 'operator', tenants: null });
    await directory.disable('ana');
    assert.equal(await directory.find('ana'), undefined);
    assert.equal(await directory.verify('ana', 'a long passphrase'), undefined);
    await assert.rejects(
      directory.create({ name: 'ana', role: 'admin', tenants: null, password: 'x'.repeat(12), by: 't' }),
      /exists already/,
    );
    await assert.rejects(
      directory.create({ name: 'a b', role: 'admin', tenants: null, password: 'x'.repeat(12), by: 't' }),
      /name:/,
    );
  });

  it('keeps an oidc: name without a password: it maps a person of the provider, and no password signs in as it', async () => {
    const name = 'oidc:ben@clinic.example';
    await directory.create({ name, role: 'viewer', tenants: ['clinic-1'], by: 'cli:test' });
    assert.deepEqual(await directory.entry(name), { name, role: 'viewer', tenants: ['clinic-1'], disabled: false });
    assert.equal(await directory.verify(name, ''), undefined);
    await assert.rejects(directory.update(name, { password: 'x'.repeat(12) }), /password: none for an oidc: name/);
    await assert.rejects(
      directory.create({
        name: 'oidc:cy@clinic.example',
        role: 'admin',
        tenants: null,
        password: 'x'.repeat(12),
        by: 't',
      }),
      /password: none/,
    );
    await assert.rejects(directory.create({ name: 'cy', role: 'admin', tenants: null, by: 't' }), /password: required/);
    await directory.disable(name);
    assert.equal((await directory.entry(name))?.disabled, true, 'a disabled entry is still found, as disabled');
    assert.equal(await directory.entry('oidc:nobody@clinic.example'), undefined);
  });
});
