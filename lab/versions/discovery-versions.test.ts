import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { createWorker } from '../../workers/create-worker.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { discoveryUpdatedSignal, discoveryWaitersQuery } from '../../workflows/shared/messages.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { discoveryWorkflow, verificationWorkflow } from '../../workflows/verification/index.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { testDataConverter } from '../../testing/codec.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { pendingDiscovery } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { bundleAtCommit } from '../../testing/version-bundle.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

/**
 * The last version whose verifications polled their discovery themselves and were woken by the receiver's visibility
 * query, rebuilt from its commit (a full clone is needed): its workflows ran on while a deploy drained (decision 0054).
 */
const BEFORE_OWNED_WAITERS = '90a24842ae83d08345930488c3b7dfd5bf0e1f3d';

async function activityCount(handle: WorkflowHandle, name: string): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === name).length;
}

describe('discoveries across versions: verifications and discovery-<id> of the version before owned waiters', function () {
  this.timeout(180_000);
  let h: WorkflowHarness;
  let earlier: Worker;
  let earlierRunning: Promise<void>;
  const earlierQueue = `test-earlier-${randomUUID()}`;
  const client = () => testTemporal().client;

  before(async () => {
    h = await startWorkflowHarness();
    // A worker of the earlier version on its own queue: what a pinned workflow of that version runs on.
    earlier = await createWorker({
      connection: testTemporal().nativeConnection,
      namespace: testTemporal().server.namespace,
      taskQueue: earlierQueue,
      activities: createActivities(new EligibilityClient(loadConfig({ ELIGIBILITY_BASE_URL: h.sandbox.url }).service)),
      dataConverter: testDataConverter(),
      maxActivitiesPerSecond: 500,
      workflowBundle: await bundleAtCommit(BEFORE_OWNED_WAITERS),
    });
    earlierRunning = earlier.run();
  });
  after(async () => {
    earlier?.shutdown();
    await earlierRunning;
    await h?.stop();
  });

  async function verification(discoveryId: string, taskQueue: string, timing: Partial<Timing>) {
    const request = v2Intake({ payerId: undefined, discoveryId });
    delete (request.patient as { memberId?: string }).memberId;
    const { workflowId } = await startVerification(client(), request, { taskQueue, timing });
    return client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
  }

  it("a new verification whose discovery-<id> is the earlier version's looks on its own until that run closes", async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    // Started by an earlier receiver before the deploy: it keeps no waiters and refuses a registration.
    const owner = await client().workflow.start<typeof discoveryWorkflow>(WorkflowType.discovery, {
      workflowId: discoveryWorkflowId(discoveryId),
      taskQueue: earlierQueue,
      args: [{ discoveryId, timing: { pollInitialSeconds: 3600 } }],
    });
    const wf = await verification(discoveryId, h.taskQueue, { ...FAST, pollInitialSeconds: 0.3, pollMaxSeconds: 0.5 });
    await eventually(
      async () => ((await activityCount(wf, 'registerDiscoveryWaiter')) >= 2 ? true : undefined),
      15_000,
      'the verification to look again after the earlier run refused it',
    );
    await h.sandbox.completeDiscovery(discoveryId, true);
    // The new receiver's one call reaches the earlier run, which fetches and closes as its version did.
    await owner.signal(discoveryUpdatedSignal, { discoveryId });
    assert.equal((await owner.result()).outcome, 'complete');
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.equal(result.discovery?.successful, true);
    await recordHistory('discovery-earlier-owner', wf);
  });

  it("an earlier version's verification still completes by its own polling beside a new discovery-<id>", async () => {
    const { discoveryId } = await pendingDiscovery(h.sandbox);
    const old = await verification(discoveryId, earlierQueue, {
      ...FAST,
      pollInitialSeconds: 0.3,
      pollMaxSeconds: 0.5,
    });
    await eventually(
      async () => ((await activityCount(old, 'fetchDiscovery')) >= 1 ? true : undefined),
      15_000,
      'the earlier verification to look at its discovery',
    );
    // The new receiver's delivery: a signal-with-start of the new discovery-<id>, which knows no such waiter.
    await client().workflow.signalWithStart<typeof discoveryWorkflow, [{ discoveryId: string }]>(
      WorkflowType.discovery,
      {
        workflowId: discoveryWorkflowId(discoveryId),
        taskQueue: h.taskQueue,
        args: [{ discoveryId, timing: { pollInitialSeconds: 3600 } }],
        signal: discoveryUpdatedSignal,
        signalArgs: [{ discoveryId }],
      },
    );
    const owner = client().workflow.getHandle<typeof discoveryWorkflow>(discoveryWorkflowId(discoveryId));
    assert.deepEqual(await owner.query(discoveryWaitersQuery), []);
    // Its fetch for that delivery found the discovery pending (before the completion below).
    await eventually(
      async () =>
        (await owner.fetchHistory()).events?.some((e) => e.activityTaskCompletedEventAttributes) ? true : undefined,
      15_000,
      'discovery-<id> to fetch for the delivery',
    );
    await h.sandbox.completeDiscovery(discoveryId, true);
    const result = await old.result();
    assert.equal(result.outcome, 'completed');
    assert.equal(result.discovery?.successful, true);
    assert.ok((await activityCount(old, 'fetchDiscovery')) >= 2, 'it found the completion by its own poll');
    await owner.signal(discoveryUpdatedSignal, { discoveryId });
    assert.equal((await owner.result()).outcome, 'complete');
  });
});
