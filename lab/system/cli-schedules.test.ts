import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { refreshScheduleId } from '../../workflows/shared/ids.js';
import { temporalEnv, testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { runCli } from '../../testing/run-cli.js';

describe('eligibility schedules against the dev server', function () {
  // Eight commands, each a Node start: beside the whole suite on two cores, seconds each.
  this.timeout(300_000);
  let h: WorkflowHarness;
  let env: Record<string, string>;
  const tenant = `clinic-${randomUUID().slice(0, 8)}`;
  const cli = (...args: string[]) => runCli(args, env);

  before(async () => {
    h = await startWorkflowHarness();
    env = {
      ...temporalEnv(h.taskQueue),
      ELIGIBILITY_BASE_URL: h.sandbox.url,
    };
  });
  after(async () => {
    await testTemporal()
      .client.schedule.getHandle(refreshScheduleId(tenant))
      .delete()
      .catch(() => undefined);
    await h?.stop();
  });

  it('creates a tenant’s schedule (1st at 03:00 in its zone, jitter, skip, catch-up), lists, pauses, resumes, triggers', async () => {
    const created = await cli('schedules', 'create', '--tenant', tenant, '--time-zone', 'America/New_York', '--paused');
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^created/);
    assert.match(created.stdout, /paused/);
    assert.match(created.stdout, /day 1 at 03:00 America\/New_York/);

    const described = await testTemporal().client.schedule.getHandle(refreshScheduleId(tenant)).describe();
    assert.equal(described.policies.overlap, 'SKIP');
    assert.equal(described.policies.catchupWindow, 86_400_000);
    assert.equal(described.spec.jitter, 600_000);
    assert.equal(described.action.workflowType, 'refreshWorkflow');
    const next = described.info.nextActionTimes[0]!;
    // 03:00 in New York on the 1st (jitter up to 10 minutes): 07:xx or 08:xx UTC.
    assert.ok([7, 8].includes(next.getUTCHours()), next.toISOString());

    const listed = await cli('schedules', 'list', '--json');
    const views = JSON.parse(listed.stdout) as { scheduleId: string; paused: boolean; tenant: string }[];
    const mine = views.find((v) => v.scheduleId === refreshScheduleId(tenant));
    assert.deepEqual([mine?.tenant, mine?.paused], [tenant, true]);

    const resumed = await cli('schedules', 'unpause', '--tenant', tenant);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /state +active/);
    const updated = await cli('schedules', 'create', '--tenant', tenant, '--every-seconds', '86400');
    assert.match(updated.stdout, /^updated/);
    assert.match(updated.stdout, /every 86400 s/);

    const triggered = await cli('schedules', 'trigger', '--tenant', tenant);
    assert.equal(triggered.code, 0, triggered.stderr);
    const refreshId = await eventually(
      async () =>
        (await testTemporal().client.schedule.getHandle(refreshScheduleId(tenant)).describe()).info.recentActions[0]
          ?.action.workflow.workflowId,
      30_000,
      'the triggered refresh',
    );
    assert.ok(refreshId.startsWith(`refresh-${tenant}-`), refreshId);
    const progress = await cli('schedules', 'progress', '--tenant', tenant);
    assert.equal(progress.code, 0, progress.stderr);
    assert.match(
      progress.stdout,
      new RegExp(`^${refreshId}: (asking|finishing|done); patients 0, verified 0, failed 0`),
    );

    const paused = await cli('schedules', 'pause', '--tenant', tenant, '--note', 'holiday');
    assert.match(paused.stdout, /paused \(holiday\)/);
  });

  it('refuses a bad time zone naming the option, and an unknown tenant’s schedule', async () => {
    const zone = await cli('schedules', 'create', '--tenant', tenant, '--time-zone', 'Mars/Olympus');
    assert.notEqual(zone.code, 0);
    assert.match(zone.stderr, /--time-zone/);
    const unknown = await cli('schedules', 'pause', '--tenant', `none-${tenant}`);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no refresh schedule for tenant none-/);
  });
});
