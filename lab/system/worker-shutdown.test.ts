import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { startVerification } from '../../src/temporal/start-verification.js';
import { testCodecEnv } from '../../testing/codec.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';
import { startWorkerProcess, type WorkerProcess } from '../../testing/worker-process.js';

const millis = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

describe('eligibility worker on SIGTERM', function () {
  // The worker process bundles the workflow code at start (several seconds through tsx), and every sandbox call here
  // takes 3 s.
  this.timeout(120_000);
  let sandbox: TestSandbox;
  let worker: WorkerProcess | undefined;
  let handle: WorkflowHandle | undefined;

  before(async () => {
    sandbox = await startTestSandbox({ faults: { latencyMs: 3000 } });
  });
  after(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
    await handle?.terminate('test over').catch(() => undefined);
    await sandbox?.close();
  });

  it('finishes the activity in flight, records its result, then exits 0', async () => {
    const { client, server } = testTemporal();
    const taskQueue = `deploy-sigterm-${randomUUID()}`;
    worker = startWorkerProcess({
      ...testCodecEnv(),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: server.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ELIGIBILITY_BASE_URL: sandbox.url,
      ELIGIBILITY_CLIENT_ID: sandbox.config.clientId,
      ELIGIBILITY_CLIENT_SECRET: sandbox.config.clientSecret,
      WORKER_SHUTDOWN_GRACE_SECONDS: '20',
      LOG_LEVEL: 'warn',
    });
    await worker.ready;

    const { workflowId } = await startVerification(
      client,
      {
        id: `sigterm-${randomUUID()}`,
        patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M1' },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'PRC',
      },
      { taskQueue, timing: { graceSeconds: 0.5 } },
    );
    handle = client.workflow.getHandle(workflowId);
    const started = handle;
    // The first activity (token, then the payer lookup: 3 s each here) has started on the worker.
    await eventually(
      async () => {
        const { raw } = await started.describe();
        return raw.pendingActivities?.some((a) => a.lastStartedTime) ? true : undefined;
      },
      30_000,
      'an activity to start',
    );
    await sleep(1000);
    const termAt = Date.now();
    worker.child.kill('SIGTERM');

    const exit = await worker.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, `exit after SIGTERM; output:\n${worker.output()}`);
    const events = (await handle.fetchHistory()).events ?? [];
    const completed = events.filter((e) => e.activityTaskCompletedEventAttributes);
    assert.equal(completed.length, 1, 'the activity in flight completed and its result is in the history');
    assert.ok(millis(completed[0]!.eventTime) >= termAt - 50, 'it completed after SIGTERM, during the drain');
    assert.equal(events.filter((e) => e.activityTaskFailedEventAttributes).length, 0, 'nothing was cancelled');
    assert.equal(
      events.filter((e) => e.activityTaskScheduledEventAttributes).length,
      1,
      'no new task was taken once stopping',
    );
  });
});
