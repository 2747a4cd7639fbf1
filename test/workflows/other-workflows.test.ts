import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { signalDiscoveryUpdated } from '../../src/temporal/discovery-updated.js';
import { discoveryWorkflowId, runWorkflowId } from '../../workflows/shared/ids.js';
import type { runInputWorkflow, webhookSetupWorkflow } from '../../workflows/verification/index.js';
import { supplyRunInputUpdate } from '../../workflows/verification/verification.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import type { discoveryWorkflow } from '../../workflows/discovery/index.js';

describe('discoveryWorkflow, runInputWorkflow and webhookSetupWorkflow', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => h?.stop());
  beforeEach(async () => h.sandbox.reset());
  const client = () => testTemporal().client;

  it('discoveryWorkflow: signal-with-start wakes the wait and reports what was found', async () => {
    const discovery = await h.sandbox.createDiscovery({
      firstName: 'Alan',
      lastName: 'Turing',
      dateOfBirth: '06/23/1954',
      state: 'CA',
      delayMs: -1,
    });
    const workflowId = discoveryWorkflowId(discovery.discoveryId);
    const wf = await client().workflow.start<typeof discoveryWorkflow>('discoveryWorkflow', {
      taskQueue: h.taskQueue,
      workflowId,
      args: [{ discoveryId: discovery.discoveryId, timing: { pollInitialSeconds: 3600 } }],
    });
    await h.sandbox.completeDiscovery(discovery.discoveryId);
    // What the webhook receiver does: signal-with-start finds the running workflow and signals it.
    await signalDiscoveryUpdated(client(), h.taskQueue, { discoveryId: discovery.discoveryId });
    const result = await wf.result();
    assert.equal(result.outcome, 'complete');
    assert.equal(result.discovery?.successful, true);
    await recordHistory('discovery-workflow', wf);
  });

  it('runInputWorkflow: answers the supplyRunInput update for a run whose verification has closed', async () => {
    // An ABA verification opens a run at the service, as if its verification workflow had already closed.
    const service = new EligibilityClient(loadConfig('worker', { ELIGIBILITY_BASE_URL: h.sandbox.url }).service);
    const { verificationId } = await service.createVerificationV2(
      {
        patient: { firstName: 'Alan', lastName: 'Turing', dateOfBirth: '06/23/1954' },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'ABA',
      },
      { idempotencyKey: randomUUID() },
    );
    const runs = await h.sandbox.runs(verificationId);
    const flowRunId = runs[0]!.flowRunId;
    const wf = await client().workflow.start<typeof runInputWorkflow>('runInputWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: runWorkflowId(flowRunId),
      args: [{ flowRunId, verificationId }],
    });
    const answer = await wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: { note: 'ok' } }] });
    assert.deepEqual(answer, { flowRunId, status: 'CREATED' });
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    await recordHistory('run-input-workflow', wf);
  });

  it('webhookSetupWorkflow: registers once and subscribes each event; re-running changes nothing', async () => {
    const url = 'http://127.0.0.1:9/webhooks/eligibility';
    const events = ['sandbox.discovery.updated', 'sandbox.run.pending'];
    const first = await client().workflow.execute<typeof webhookSetupWorkflow>('webhookSetupWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `webhook-setup-${randomUUID()}`,
      args: [{ url, events }],
    });
    assert.equal(first.registered, true);
    assert.deepEqual(first.subscribed, events);
    assert.match(first.endpointId, /^ep_/);
    const again = await client().workflow.execute<typeof webhookSetupWorkflow>('webhookSetupWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `webhook-setup-${randomUUID()}`,
      args: [{ url, events, existing: first }],
    });
    assert.equal(again.registered, false);
    assert.deepEqual(again.subscribed, []);
    const stats = await h.sandbox.stats();
    assert.equal(stats.calls['POST /v1/webhooks']?.['201'], 1);
    assert.equal(stats.calls['POST /v1/webhooks/:endpointId/events']?.['201'], 2);
  });
});
