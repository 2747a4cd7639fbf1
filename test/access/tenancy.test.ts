import assert from 'node:assert/strict';
import { EVERY_TENANT, scopeOfTenant, sees, tenantsToList, tenantToStart } from '../../src/access/tenancy.js';

/** The tenant wall's rules (src/access/tenancy.ts), the same for the intake API, the console, the CLI and the codec server. */
describe('the tenant wall', () => {
  it('a scope of some tenants sees only objects of those; one of every tenant sees all, untenanted ones too', () => {
    const scoped = ['clinic-1', 'clinic-3'];
    assert.deepEqual(
      [sees(scoped, 'clinic-1'), sees(scoped, 'clinic-2'), sees(scoped, null), sees(scoped, undefined)],
      [true, false, false, false],
    );
    assert.deepEqual([sees(EVERY_TENANT, 'clinic-2'), sees(EVERY_TENANT, null)], [true, true]);
    assert.deepEqual([sees([], 'clinic-1'), sees([], null)], [false, false], 'a scope of no tenant sees nothing');
  });

  it("an intake client's one tenant is a scope of one; a client of every tenant sees all", () => {
    assert.deepEqual(scopeOfTenant('clinic-1'), ['clinic-1']);
    assert.equal(scopeOfTenant(null), EVERY_TENANT);
  });

  it('starts under the only tenant, the one named when it is theirs, and refuses another or an ambiguous one', () => {
    assert.deepEqual(tenantToStart(['clinic-1'], undefined), { tenant: 'clinic-1' });
    assert.deepEqual(tenantToStart(['clinic-1'], 'clinic-1'), { tenant: 'clinic-1' });
    assert.deepEqual(tenantToStart(['clinic-1'], 'clinic-2'), { refused: 'another-tenant' });
    assert.deepEqual(tenantToStart(['clinic-1', 'clinic-2'], 'clinic-2'), { tenant: 'clinic-2' });
    assert.deepEqual(tenantToStart(['clinic-1', 'clinic-2'], undefined), { refused: 'choose-one' });
    assert.deepEqual(tenantToStart([], undefined), { refused: 'choose-one' });
    assert.deepEqual(tenantToStart(EVERY_TENANT, 'clinic-9'), { tenant: 'clinic-9' });
    assert.deepEqual(tenantToStart(EVERY_TENANT, undefined), { tenant: undefined });
  });

  it("lists a scope's tenants; a tenant named outside the scope lists nothing", () => {
    assert.equal(tenantsToList(EVERY_TENANT), undefined);
    assert.equal(tenantsToList(EVERY_TENANT, 'clinic-2'), 'clinic-2');
    assert.equal(tenantsToList(['clinic-1']), 'clinic-1');
    assert.deepEqual(tenantsToList(['clinic-1', 'clinic-2']), ['clinic-1', 'clinic-2']);
    assert.equal(tenantsToList(['clinic-1', 'clinic-2'], 'clinic-2'), 'clinic-2');
    assert.deepEqual(tenantsToList(['clinic-1'], 'clinic-2'), []);
  });
});
