import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { putRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import type { Store } from '../../src/store/database.js';
import { refreshScheduleId } from '../../workflows/shared/ids.js';
import { testStore } from '../../testing/database.js';
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

/** The console's Refreshes page (issue 35): a tenant's schedule, its latest refresh, and who may change it. */
describe('operator console: refresh schedules', function () {
  this.timeout(60_000);
  let store: Store;
  let trail: AuditTrail;
  let console: TestConsole;
  const tenant = `clinic-${randomUUID().slice(0, 8)}`;
  const ana = { name: 'ana', password: `ana-${randomUUID()}` };
  const vic = { name: 'vic', password: `vic-${randomUUID()}` };
  const otto = { name: 'otto', password: `otto-${randomUUID()}` };
  const schedule = () => testTemporal().client.schedule.getHandle(refreshScheduleId(tenant));

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ ...ana, role: 'operator', tenants: [tenant], by: 'test' });
    await directory.create({ ...vic, role: 'viewer', tenants: [tenant], by: 'test' });
    await directory.create({ ...otto, role: 'operator', tenants: [`other-${tenant}`], by: 'test' });
    console = await startTestConsole(testTemporal().client, { audit: trail, directory });
    // On a task queue no worker polls: a triggered refresh is started and stays put.
    await putRefreshSchedule(testTemporal().client, `no-worker-${randomUUID()}`, {
      tenant,
      timeZone: 'Europe/Paris',
      paused: true,
    });
  });
  after(async () => {
    await schedule()
      .delete()
      .catch(() => undefined);
    await console?.close();
    await store?.close();
  });

  it("lists the tenant's schedule; an operator resumes it and starts a refresh, audited; a viewer may not", async () => {
    const cookie = await signInAs(console, ana);
    const page = await getPage(console, '/schedules', cookie);
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(tenant));
    assert.ok(page.body.includes('day 1 at 03:00 Europe/Paris'));
    assert.ok(page.body.includes('paused'));

    const viewer = await signInAs(console, vic);
    const viewed = await getPage(console, '/schedules', viewer);
    assert.ok(viewed.body.includes(tenant) && !viewed.body.includes('Refresh now'), 'a viewer reads, no buttons');
    const refused = await postForm(console, `/schedules/${tenant}/unpause`, viewer, { _csrf: csrfFrom(viewed.body) });
    assert.equal(refused.statusCode, 403);
    assert.equal((await schedule().describe()).state.paused, true);

    const resumed = await postForm(console, `/schedules/${tenant}/unpause`, cookie, { _csrf: csrfFrom(page.body) });
    assert.equal(resumed.statusCode, 303);
    assert.equal((await schedule().describe()).state.paused, false);
    const triggered = await postForm(console, `/schedules/${tenant}/trigger`, cookie, { _csrf: csrfFrom(page.body) });
    assert.equal(triggered.statusCode, 303);
    await eventually(async () => ((await schedule().describe()).info.recentActions.length === 1 ? true : undefined));
    const entries = await trail.list({ tenant });
    const actions = entries.map((e) => `${e.actor} ${e.action} ${e.outcome}`);
    assert.ok(actions.includes('operator:ana schedule.unpause ok'));
    assert.ok(actions.includes('operator:ana schedule.trigger ok'));
    const denied = await trail.list({ actor: 'operator:vic' });
    assert.ok(denied.some((e) => e.action === 'schedule.unpause' && e.outcome === 'denied'));
    assert.ok(entries.every((e) => e.fields.length === 0));
  });

  it("answers another tenant's operator as if the schedule did not exist", async () => {
    const cookie = await signInAs(console, otto);
    assert.ok(!(await getPage(console, '/schedules', cookie)).body.includes(tenant));
    const page = await getPage(console, '/schedules', cookie);
    const other = await postForm(console, `/schedules/${tenant}/pause`, cookie, { _csrf: csrfFrom(page.body) });
    assert.equal(other.statusCode, 404);
  });
});
