import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { deploymentStatus, pinnedBuildId, setCurrentVersion } from '../../src/temporal/deployments.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { OpenBeforeVersioningError, refuseIfOpenBeforeVersioning } from '../../workers/before-versioning.js';
import { untilDrained } from '../../workers/drain-watch.js';
import { promoteWhenPolling } from '../../workers/promote-version.js';
import { callerId, FAST, v2Intake } from '../../testing/fixtures.js';
import type { governorWorkflow } from '../../workflows/governor/index.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { governorStatusQuery, governorWorkflowId, outcomeReportSignal } from '../../workflows/governor/governor.js';
import type { OutcomeReport } from '../../workflows/governor/governor.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

describe('worker deployment versions', function () {
  this.timeout(90_000);
  const harnesses: WorkflowHarness[] = [];
  after(async () => {
    for (const h of harnesses) await h.stop();
  });

  it('finishes a verification on the version it started on, starts new ones on the current version, and rolls back', async () => {
    const { client } = testTemporal();
    const name = `test-deployment-${randomUUID().slice(0, 8)}`;
    const taskQueue = `test-${randomUUID()}`;
    const version = async (buildId: string) => {
      const h = await startWorkflowHarness({}, { taskQueue, deployment: { name, buildId } });
      harnesses.push(h);
      await promoteWhenPolling(client, { name, buildId }, { log: () => undefined });
      return h;
    };
    const start = async (graceSeconds: number) => {
      const { workflowId } = await startVerification(client, v2Intake({ id: callerId('deploy') }), {
        taskQueue,
        timing: { ...FAST, graceSeconds },
      });
      return client.workflow.getHandle<typeof verificationWorkflow>(workflowId);
    };

    await version('a');
    const onA = await start(8);
    assert.equal(await eventually(() => pinnedBuildId(onA)), 'a');

    await version('b');
    // A's workers are needed until its last pinned workflow finishes (WORKER_EXIT_WHEN_DRAINED stops them then).
    let drainedAt: number | undefined;
    const drained = untilDrained(client, { name, buildId: 'a' }, { intervalMs: 200 }).then(
      () => (drainedAt = Date.now()),
    );
    const onB = await start(0.3);
    assert.equal(await eventually(() => pinnedBuildId(onB)), 'b', 'a new verification starts on the current version');
    assert.equal((await onB.result()).outcome, 'completed');

    const status = await deploymentStatus(client, name);
    assert.equal(status?.current, 'b');
    assert.deepEqual(
      status?.versions.map((v) => [v.buildId, v.running > 0 ? 'running' : 'idle']),
      [
        ['b', 'idle'],
        ['a', 'running'],
      ],
      'newest first; a still runs the verification pinned to it',
    );
    assert.equal(drainedAt, undefined, 'a is not drained while a verification is pinned to it');
    assert.equal((await onA.result()).outcome, 'completed', 'the pinned verification finishes');
    assert.equal(await pinnedBuildId(onA), 'a', 'on the version it started on');
    // The drain watch may see it closed before `result()` returns here: compare with when the server closed it.
    const closedAt = (await onA.describe()).closeTime?.getTime() ?? Number.NaN;
    await drained;
    assert.ok(drainedAt !== undefined && drainedAt >= closedAt, 'a drains once its last pinned workflow finished');

    await setCurrentVersion(client, name, 'a', 'test');
    const back = await start(0.3);
    assert.equal(await eventually(() => pinnedBuildId(back)), 'a', 'after a rollback new verifications start on a');
    assert.equal((await back.result()).outcome, 'completed');
  });

  it('moves the governor, a long-running workflow, to the new current version by continuing as new', async () => {
    const { client } = testTemporal();
    const name = `test-deployment-${randomUUID().slice(0, 8)}`;
    const taskQueue = `test-${randomUUID()}`;
    const governed = `governed-${randomUUID()}`;
    const report = (answered: number): OutcomeReport => ({
      workerId: 'worker-1',
      answered,
      failed: 0,
      rateLimited: 0,
      retryAfterMs: 0,
      intervalMs: 1000,
      maxRps: null,
    });
    const send = (sent: OutcomeReport) =>
      client.workflow.signalWithStart<typeof governorWorkflow, [OutcomeReport]>(WorkflowType.governor, {
        workflowId: governorWorkflowId(governed),
        taskQueue,
        args: [{ taskQueue: governed, maxRps: null, settings: { initialRps: 10 } }],
        signal: outcomeReportSignal,
        signalArgs: [sent],
      });
    for (const buildId of ['a']) {
      harnesses.push(await startWorkflowHarness({}, { taskQueue, deployment: { name, buildId } }));
      await promoteWhenPolling(client, { name, buildId }, { log: () => undefined });
    }
    await send(report(1));
    const governor = client.workflow.getHandle(governorWorkflowId(governed));
    const firstRun = (await governor.describe()).runId;
    assert.equal(await eventually(() => pinnedBuildId(governor)), 'a');

    harnesses.push(await startWorkflowHarness({}, { taskQueue, deployment: { name, buildId: 'b' } }));
    await promoteWhenPolling(client, { name, buildId: 'b' }, { log: () => undefined });
    // A task after the new version reaches the server's routing (a report, as workers send every few seconds) finds
    // the target version changed: it continues as new, and the new run is on b.
    let reports = 1;
    const moved = await eventually(
      async () => {
        const described = await governor.describe();
        if (described.runId !== firstRun && (await pinnedBuildId(governor)) === 'b') return described;
        await send(report(++reports));
        await new Promise((resolve) => setTimeout(resolve, 400));
        return undefined;
      },
      20_000,
      'a governor run on b',
    );
    assert.equal(moved.status.name, 'RUNNING');
    const { totals } = await governor.query(governorStatusQuery);
    assert.equal(totals.reports, reports, 'its state came along: every report counted once');
  });

  it('a versioned worker does not start while workflows from before versioning are open on its queue', async () => {
    const { client } = testTemporal();
    const taskQueue = `test-${randomUUID()}`;
    const { workflowId } = await startVerification(client, v2Intake({ id: callerId('unversioned') }), {
      taskQueue,
      timing: { ...FAST, graceSeconds: 3 },
    });
    // Started while no worker runs (the intake API before the first worker of an install): any version may take it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await refuseIfOpenBeforeVersioning(client, taskQueue);
    // An unversioned worker, as every worker was before versioning, runs it: its history is theirs now.
    harnesses.push(await startWorkflowHarness({}, { taskQueue }));
    const refused = await eventually(() =>
      refuseIfOpenBeforeVersioning(client, taskQueue).then(
        () => undefined,
        (err: unknown) => err,
      ),
    );
    assert.ok(refused instanceof OpenBeforeVersioningError);
    assert.equal(refused.open, 1);
    assert.match(refused.message, /first versioned build/);
    await client.workflow.getHandle(workflowId).result();
    // Once it has finished (visibility a moment behind), nothing holds the new version back.
    await eventually(() =>
      refuseIfOpenBeforeVersioning(client, taskQueue).then(
        () => true,
        () => undefined,
      ),
    );
  });
});
