import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import {
  runAwaitingInputSignal,
  runInputSignal,
  statusQuery,
  supplyRunInputUpdate,
} from '../../workflows/verification/verification.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

// A worker keeps only WORKER_MAX_CACHED_WORKFLOWS workflows in memory; the others are evicted and replayed from their
// history when a signal or an update wakes them. Here the cache holds two, so of four verifications awaiting input
// the two that were active first have been pushed out (the cache evicts the least recently used) by the time a
// person answers them.
describe('a verification evicted from the worker cache', function () {
  this.timeout(90_000);
  const CACHE = 2;
  let h: WorkflowHarness;

  before(async () => {
    h = await startWorkflowHarness(undefined, { maxCachedWorkflows: CACHE });
  });
  after(async () => h?.stop());

  const client = () => testTemporal().client;

  /** Starts an ABA verification (the sandbox opens a run) and tells it of the run, as the webhook receiver would. */
  async function awaitingInput(): Promise<{ wf: WorkflowHandle<typeof verificationWorkflow>; flowRunId: string }> {
    const { workflowId } = await startVerification(client(), v2Intake({ specialtyCode: 'ABA' }), {
      taskQueue: h.taskQueue,
      timing: { ...FAST, graceSeconds: 60 },
    });
    const wf = client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
    const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
    const [run] = await eventually(async () => {
      const runs = await h.sandbox.runs(verificationId);
      return runs.length > 0 ? runs : undefined;
    });
    await wf.signal(runAwaitingInputSignal, { flowRunId: run!.flowRunId });
    await eventually(async () => ((await wf.query(statusQuery)).stage === 'awaiting-input' ? true : undefined));
    return { wf, flowRunId: run!.flowRunId };
  }

  it('is replayed from its history and completes when an update or a signal answers its run', async () => {
    const first = await awaitingInput();
    const second = await awaitingInput();
    const third = await awaitingInput();
    const fourth = await awaitingInput();
    const waiting = [first, second, third, fourth];
    assert.ok(h.worker.getStatus().numCachedWorkflows <= CACHE, `the worker holds at most ${CACHE} of the 4 workflows`);

    // Evicted: the first by an update (which answers the caller), the second by a signal (which cannot).
    const answer = await first.wf.executeUpdate(supplyRunInputUpdate, {
      args: [{ flowRunId: first.flowRunId, input: { authorizationNumber: 'A-1' } }],
    });
    assert.deepEqual(answer, { flowRunId: first.flowRunId, status: 'CREATED' });
    await second.wf.signal(runInputSignal, { flowRunId: second.flowRunId, input: { authorizationNumber: 'A-2' } });
    // Recently active, possibly still cached: the same two ways.
    await third.wf.executeUpdate(supplyRunInputUpdate, {
      args: [{ flowRunId: third.flowRunId, input: { authorizationNumber: 'A-3' } }],
    });
    await fourth.wf.signal(runInputSignal, { flowRunId: fourth.flowRunId, input: { authorizationNumber: 'A-4' } });

    for (const { wf, flowRunId } of waiting) {
      const result = await wf.result();
      assert.equal(result.outcome, 'completed', wf.workflowId);
      assert.deepEqual(result.runs, [{ flowRunId, state: 'answered', serviceStatus: 'CREATED' }]);
      const events = (await wf.fetchHistory()).events ?? [];
      // A replay that diverged from the history would fail a workflow task (and retry it forever).
      assert.equal(events.filter((e) => e.workflowTaskFailedEventAttributes).length, 0, `${wf.workflowId} replayed`);
    }
    const runs = await h.sandbox.runs();
    assert.equal(runs.filter((r) => r.status === 'CREATED').length, 4, 'each run was answered once, at the service');
  });
});
