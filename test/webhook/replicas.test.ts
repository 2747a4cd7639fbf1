import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { createWebhookReceiver } from '../../apps/receiver/index.js';
import { discoveryWorkflowId } from '../../workflows/shared/ids.js';
import { cancelSignal } from '../../workflows/verification/verification.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { deliver, delivery, SECRET } from './deliveries.js';
import { pendingDiscovery } from '../../testing/sandbox.js';
import { discoveryWaitersQuery } from '../../workflows/discovery/discovery.js';

/** What a workflow's history shows of the deliveries: signals received and discovery fetches scheduled. */
async function effects(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const signals = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
  const fetches = events.filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fetchDiscovery',
  ).length;
  return { signals, fetches };
}

/**
 * Resolves once the workflow has acted on everything it received: no workflow task and no activity pending (a signal
 * schedules a workflow task; acting on it by fetching leaves an activity, then another task).
 */
async function settled(handle: WorkflowHandle): Promise<void> {
  await eventually(
    async () => {
      const { raw } = await handle.describe();
      return !raw.pendingWorkflowTask && !raw.pendingActivities?.length ? true : undefined;
    },
    10_000,
    'the workflow to act on its signals',
  );
}

describe('webhook deduplication across receiver replicas and restarts (the workflow recognises a delivery)', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  const client = () => testTemporal().client;
  const receivers: FastifyInstance[] = [];

  /** A receiver process of its own: its own in-memory cache, the same Temporal and task queue. */
  function receiver(): FastifyInstance {
    const config = loadConfig('receiver', { WEBHOOK_SIGNING_SECRET: SECRET, LOG_LEVEL: 'silent' });
    const app = createWebhookReceiver({
      config,
      client: client(),
      taskQueue: h.taskQueue,
      logger: createLogger(config),
    });
    receivers.push(app);
    return app;
  }

  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => {
    await Promise.all(receivers.map((app) => app.close()));
    await h?.stop();
  });

  it('acts once on the same delivery sent to two receivers, and again once after a receiver restart', async () => {
    const discovery = await pendingDiscovery(h.sandbox);
    const { discoveryId } = discovery;
    // Polling once an hour: within the test only a delivery makes the verification fetch its discovery.
    const { workflowId } = await startVerification(client(), v2Intake({ payerId: undefined, discoveryId }), {
      taskQueue: h.taskQueue,
      timing: { ...FAST, pollInitialSeconds: 3600, pollMaxSeconds: 3600 },
    });
    const verification = client().workflow.getHandle(workflowId);
    const discoveryWorkflow = client().workflow.getHandle(discoveryWorkflowId(discoveryId));
    await eventually(
      async () =>
        (await discoveryWorkflow.query(discoveryWaitersQuery).catch(() => [])).length === 1 ? true : undefined,
      15_000,
      'the verification registered with discovery-<id>',
    );
    await Promise.all([settled(verification), settled(discoveryWorkflow)]);
    // The verification looked once as it registered; discovery-<id>, started by it, skips its own first look.
    assert.deepEqual(await effects(discoveryWorkflow), { signals: 0, fetches: 0 });

    const body = delivery('sandbox.discovery.updated', { discoveryId, status: 'pending' });
    const [first, second] = [receiver(), receiver()];
    const answers = [await deliver(first, body), await deliver(second, body)];
    assert.deepEqual(
      answers.map((r) => [r.statusCode, r.json<{ duplicate?: boolean }>().duplicate]),
      [
        [200, undefined],
        [200, undefined],
      ],
      'neither replica knew the other had handled it',
    );
    await Promise.all([settled(verification), settled(discoveryWorkflow)]);
    assert.deepEqual(await effects(discoveryWorkflow), { signals: 2, fetches: 1 }, 'its one fetch, not one per signal');
    assert.deepEqual(await effects(verification), { signals: 0, fetches: 0 }, 'deliveries reach discovery-<id> alone');

    await first.close();
    const restarted = receiver();
    const again = await deliver(restarted, body);
    assert.deepEqual([again.statusCode, again.json<{ duplicate?: boolean }>().duplicate], [200, undefined]);
    await settled(discoveryWorkflow);
    assert.deepEqual(await effects(discoveryWorkflow), { signals: 3, fetches: 1 }, 'no fetch after the restart either');

    const other = delivery('sandbox.discovery.updated', { discoveryId, status: 'pending' });
    await deliver(restarted, other);
    await settled(discoveryWorkflow);
    assert.deepEqual(await effects(discoveryWorkflow), { signals: 4, fetches: 2 }, 'a new event still fetches at once');

    await Promise.all([verification, discoveryWorkflow].map((wf) => wf.signal(cancelSignal, { reason: 'test' })));
    await Promise.all([verification.result(), discoveryWorkflow.result()]);
    await recordHistory('repeated-delivery-verification', verification);
    await recordHistory('repeated-delivery-discovery', discoveryWorkflow);
  });
});
