import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { testBlindIndex } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import {
  csrfFrom,
  getPage,
  postForm,
  signInAs,
  startTestConsole,
  type TestConsole,
} from '../../testing/console-app.js';

// Finding a patient in the console over HTTP: keyed hashes within the operator's tenants, every search recorded.
// The verifications are started on a task queue no worker polls: they sit running with their search attributes.
describe('operator console: finding a patient', function () {
  this.timeout(60_000);
  let store: Store;
  let audit: AuditTrail;
  let console: TestConsole;
  const ana = { name: 'ana', password: `ana-${randomUUID()}` };
  const dora = { name: 'dora', password: `dora-${randomUUID()}` };
  const taskQueue = `unpolled-${randomUUID()}`;
  const lastName = `Vantreight${randomUUID().slice(0, 6).replace(/\d/g, 'k')}`;
  const patient = {
    firstName: 'Odile',
    lastName,
    dateOfBirth: '11/02/1958',
    state: 'OR',
    memberId: `OV-${randomUUID().slice(0, 6)}`,
  };
  const ids: Record<'a' | 'b', string> = { a: '', b: '' };

  before(async () => {
    store = await testStore();
    audit = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ ...ana, role: 'operator', tenants: ['clinic-a'], by: 'test' });
    await directory.create({ ...dora, role: 'operator', tenants: null, by: 'test' });
    console = await startTestConsole(testTemporal().client, { audit, directory });
    for (const tenant of ['a', 'b'] as const) {
      ({ workflowId: ids[tenant] } = await startVerification(testTemporal().client, v2Intake({ patient }), {
        taskQueue,
        tenant: `clinic-${tenant}`,
        blindIndex: testBlindIndex(),
      }));
    }
  });
  after(async () => {
    for (const id of Object.values(ids))
      await testTemporal()
        .client.workflow.getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    await console?.close();
    await store?.close();
  });

  async function search(who: typeof ana, form: Record<string, string>) {
    const cookie = await signInAs(console, who);
    const csrf = csrfFrom((await getPage(console, '/verifications', cookie)).body);
    return postForm(console, '/verifications/patient', cookie, { _csrf: csrf, ...form });
  }

  it("finds the patient in the operator's tenants only, by name and date of birth or by member id", async () => {
    const byName = await eventually(async () => {
      const page = await search(ana, { lastName: lastName.toUpperCase(), dateOfBirth: '1958-11-02' });
      return page.body.includes(ids.a) ? page : undefined;
    });
    assert.equal(byName.statusCode, 200);
    assert.ok(!byName.body.includes(ids.b), "another tenant's verification is not found");
    const byMember = await search(ana, { memberId: patient.memberId.toLowerCase() });
    assert.ok(byMember.body.includes(ids.a) && !byMember.body.includes(ids.b));
    // An operator of every tenant names the tenant; the index is per tenant.
    const other = await eventually(async () => {
      const page = await search(dora, { memberId: patient.memberId, tenant: 'clinic-b' });
      return page.body.includes(ids.b) ? page : undefined;
    });
    assert.ok(!other.body.includes(ids.a));
    assert.match(
      (await search(dora, { memberId: patient.memberId })).body,
      /No verification of this patient was found/,
    );
  });

  it('says which field is missing or wrong, beside it, and sends nothing to visibility', async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{}, 'lastName', /a last name and a date of birth, or a member id/],
      [{ lastName }, 'dateOfBirth', /Give the date of birth with the last name/],
      [{ lastName, dateOfBirth: '31.12.1958' }, 'dateOfBirth', /MM\/DD\/YYYY/],
      [{ dateOfBirth: '1958-11-02' }, 'lastName', /Give the last name with the date of birth/],
      [{ memberId: '--' }, 'memberId', /letters or digits/],
    ];
    for (const [form, field, message] of cases) {
      const page = await search(ana, form);
      assert.equal(page.statusCode, 400, JSON.stringify(form));
      assert.match(page.body, new RegExp(`id="p-${field}"[^>]*aria-invalid="true"`));
      assert.match(page.body, message);
    }
  });

  it('records every search with the fields searched by, never their values, and logs no patient value', async () => {
    const before = (await audit.list({ action: 'verification.search', limit: 10_000 })).length;
    await search(ana, { lastName, dateOfBirth: '11/02/1958' });
    await search(ana, { memberId: patient.memberId });
    const entries = (await audit.list({ action: 'verification.search', limit: 10_000 })).slice(before);
    assert.deepEqual(
      entries.map((e) => [e.actor, e.tenant, e.fields.join(','), e.outcome]),
      [
        ['operator:ana', 'clinic-a', 'lastName,dateOfBirth', 'ok'],
        ['operator:ana', 'clinic-a', 'memberId', 'ok'],
      ],
    );
    const logged = console.logs.join('\n');
    for (const value of [lastName, patient.memberId, '11/02/1958', '1958-11-02']) {
      assert.ok(!JSON.stringify(entries).includes(value) && !logged.includes(value), 'no patient value kept');
    }
  });

  it('shows the worklists with their counts in the navigation', async () => {
    const cookie = await signInAs(console, ana);
    const page = await getPage(console, '/recent', cookie);
    assert.equal(page.statusCode, 200);
    for (const label of ['Failed', 'Needs input', 'Needs review']) {
      assert.match(page.body, new RegExp(`${label} <span class="count">\\d+</span>`), label);
    }
    assert.ok(page.body.includes(ids.a) && !page.body.includes(ids.b), 'recent shows the tenant’s own');
  });
});
