import assert from 'node:assert/strict';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { VerificationResult } from '../../workflows/verification/verification.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

/** Timed-out activities in a history: a call that failed because it waited (schedule-to-start or -to-close). */
async function activityTimeouts(workflowId: string): Promise<number> {
  const history = await testTemporal().client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((e) => e.activityTaskTimedOutEventAttributes).length;
}

// The retry window, time-compressed (docs/developing/service-calls.md): a 2 s window stands for the 24 h default, a
// backlog of seconds for one of hours. Before it, a call's one-hour schedule-to-close counted time queued behind the
// rate limit, and the tail of a long backlog failed without the service ever refusing it.
describe('retry window', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  const client = () => testTemporal().client;

  afterEach(async () => h?.stop());

  it('drains a backlog that takes longer than the window with no call failed by a timeout', async () => {
    // 10 calls a second for the queue: 20 verifications (40 calls) queue for about 4 s, twice the window.
    h = await startWorkflowHarness({ rateBurst: 1000, ratePerSecond: 1000 }, { maxActivitiesPerSecond: 10 });
    const started = Date.now();
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const { workflowId } = await startVerification(client(), v2Intake(), {
          taskQueue: h.taskQueue,
          timing: FAST,
          retryWindowSeconds: 2,
        });
        return workflowId;
      }),
    );
    const results = await Promise.all(
      ids.map((id) => client().workflow.getHandle(id).result() as Promise<VerificationResult>),
    );
    assert.ok(Date.now() - started > 3000, 'the backlog took longer than the window to drain');
    assert.deepEqual(new Set(results.map((r) => r.outcome)), new Set(['completed']));
    const timeouts = await Promise.all(ids.map(activityTimeouts));
    assert.equal(
      timeouts.reduce((a, b) => a + b, 0),
      0,
    );
  });

  it('stops retrying a service that keeps failing once the window since the first failure is over', async () => {
    h = await startWorkflowHarness({ rateBurst: 1000, ratePerSecond: 1000, faults: { error500Rate: 1 } });
    const { workflowId } = await startVerification(client(), v2Intake(), {
      taskQueue: h.taskQueue,
      timing: FAST,
      retryWindowSeconds: 3,
    });
    const handle = client().workflow.getHandle(workflowId);
    const err = await handle.result().then(
      () => assert.fail('the verification should have failed'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkflowFailedError && err.cause instanceof ApplicationFailure);
    assert.equal(err.cause.type, 'ServerError');
    assert.match(err.cause.message, /retry window over/);
    // Retried (2 s, then 4 s apart) until 3 s after the first failure had passed: three attempts, no timeout.
    const stats = await h.sandbox.stats();
    const lookups = Object.entries(stats.calls)
      .filter(([route]) => route.includes('/v1/payers'))
      .reduce((sum, [, byStatus]) => sum + (byStatus['500'] ?? 0), 0);
    assert.equal(lookups, 3);
    assert.equal(await activityTimeouts(workflowId), 0);
    await recordHistory('retry-window-over', handle);
  });
});
