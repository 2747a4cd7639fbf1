import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { createWebhookReceiver, WEBHOOK_PATH } from '../../apps/receiver/index.js';
import { discoveryWorkflowId, runWorkflowId } from '../../workflows/shared/ids.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { cancelSignal, statusQuery } from '../../workflows/verification/verification.js';
import type { Timing } from '../../workflows/shared/timing.js';
import { testTemporal } from '../../testing/temporal.js';
import { testDataConverter } from '../../testing/codec.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { deliver, delivery, SECRET } from './deliveries.js';
import { discoveryWaitersQuery } from '../../workflows/discovery/discovery.js';

const FAST: Partial<Timing> = { pollInitialSeconds: 0.2, pollMaxSeconds: 1, graceSeconds: 0.3 };
let seq = 0;
const callerId = (name: string) => `${name}-${Date.now()}-${++seq}`;
const patient = { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY' as const };

describe('webhook receiver: events reach the workflows', function () {
  this.timeout(40_000);
  let h: WorkflowHarness;
  let app: FastifyInstance;
  const client = () => testTemporal().client;

  before(async () => {
    // The sandbox signs its deliveries with the receiver's secret and retries quickly.
    h = await startWorkflowHarness({ webhookSecret: SECRET, webhookBackoffMs: 50 });
    const config = loadConfig('receiver', { WEBHOOK_SIGNING_SECRET: SECRET, LOG_LEVEL: 'silent' });
    app = createWebhookReceiver({
      config,
      client: client(),
      taskQueue: h.taskQueue,
      logger: createLogger(config),
      visibilityWaitMs: 3000,
    });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    await subscribe(`${url}${WEBHOOK_PATH}`);
  });
  after(async () => {
    await app?.close();
    await h?.stop();
  });

  /** Registers the receiver at the sandbox for both events, as `eligibility webhooks register` would. */
  async function subscribe(url: string) {
    const headers = { authorization: `Bearer ${await h.sandbox.token()}`, 'content-type': 'application/json' };
    const created = await fetch(`${h.sandbox.url}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url }),
    });
    const { endpointId } = (await created.json()) as { endpointId: string };
    for (const event of ['sandbox.discovery.updated', 'sandbox.run.pending']) {
      const subscribed = await fetch(`${h.sandbox.url}/v1/webhooks/${endpointId}/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ event }),
      });
      assert.equal(subscribed.status, 201);
    }
  }

  async function start(request: Record<string, unknown>, timing: Partial<Timing> = FAST) {
    const { workflowId } = await startVerification(client(), request, { taskQueue: h.taskQueue, timing });
    return client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
  }

  it('a sandbox.discovery.updated delivery completes a verification waiting on that discovery', async () => {
    const discovery = await h.sandbox.createDiscovery({ ...patient, delayMs: -1 });
    const { discoveryId } = discovery;
    // Polling once an hour: only the webhook can wake it within the test.
    const wf = await start(
      { id: callerId('disc'), patient, placeOfServiceCode: '11', specialtyCode: 'PRC', discoveryId },
      { ...FAST, pollInitialSeconds: 3600, pollMaxSeconds: 3600 },
    );
    await eventually(
      async () => {
        const query = `DiscoveryId = "${discoveryId}" AND VerificationStage = "awaiting-discovery"`;
        return (await client().workflow.count(query)).count === 1 ? true : undefined;
      },
      10_000,
      'the verification to be visible as awaiting its discovery',
    );
    await h.sandbox.completeDiscovery(discoveryId, true);
    const result = await wf.result();
    assert.equal(result.outcome, 'completed');
    assert.equal(result.discovery?.successful, true);
    const discoveryWorkflow = await client().workflow.getHandle(discoveryWorkflowId(discoveryId)).describe();
    assert.equal(discoveryWorkflow.type, 'discoveryWorkflow');
  });

  it('a discovery.updated delivery is one Temporal call, a signal-with-start of discovery-<id>, which wakes its waiters', async () => {
    // A receiver whose connection records every gRPC call it makes to Temporal.
    type GrpcInterceptor = NonNullable<NonNullable<Parameters<typeof Connection.connect>[0]>['interceptors']>[number];
    const calls: string[] = [];
    const counting: GrpcInterceptor = (options, nextCall) => {
      calls.push(String(options.method_definition.path).split('/').pop() ?? '');
      return nextCall(options) as ReturnType<GrpcInterceptor>;
    };
    const connection = await Connection.connect({ address: testTemporal().server.address, interceptors: [counting] });
    const counted = new Client({
      connection,
      namespace: testTemporal().server.namespace,
      dataConverter: testDataConverter(),
    });
    const config = loadConfig('receiver', { WEBHOOK_SIGNING_SECRET: SECRET, LOG_LEVEL: 'silent' });
    const one = createWebhookReceiver({
      config,
      client: counted,
      taskQueue: h.taskQueue,
      logger: createLogger(config),
    });
    try {
      const { discoveryId } = await h.sandbox.createDiscovery({ ...patient, delayMs: -1 });
      const waiters = await Promise.all(
        [1, 2].map(() =>
          start(
            { id: callerId('one-call'), patient, placeOfServiceCode: '11', specialtyCode: 'PRC', discoveryId },
            { ...FAST, pollInitialSeconds: 3600, pollMaxSeconds: 3600 },
          ),
        ),
      );
      const owner = client().workflow.getHandle(discoveryWorkflowId(discoveryId));
      await eventually(
        async () => ((await owner.query(discoveryWaitersQuery).catch(() => [])).length === 2 ? true : undefined),
        10_000,
        'both verifications registered',
      );
      // The sandbox also delivers the completion to this suite's own receiver: counted here is `one`'s delivery alone.
      await h.sandbox.completeDiscovery(discoveryId, true);
      calls.length = 0;
      const answered = await deliver(one, delivery('sandbox.discovery.updated', { discoveryId, status: 'complete' }));
      assert.equal(answered.statusCode, 200);
      assert.deepEqual(calls, ['SignalWithStartWorkflowExecution'], 'no visibility query, no signal per waiter');
      const results = await Promise.all(waiters.map((w) => w.result()));
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['completed', 'completed'],
      );
    } finally {
      await one.close();
      await connection.close();
    }
  });

  it('a sandbox.run.pending delivery without a caller id reaches the running verification', async () => {
    // No caller id: the receiver finds the verification by its VerificationId, which may not be visible yet.
    const wf: WorkflowHandle<typeof verificationWorkflow> = await start(
      {
        patient: { ...patient, memberId: 'M1234567' },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'ABA',
      },
      { ...FAST, graceSeconds: 30 },
    );
    const status = await eventually(async () => {
      const s = await wf.query(statusQuery);
      return s.stage === 'awaiting-input' ? s : undefined;
    }, 15_000);
    const [run] = await h.sandbox.runs(status.verificationId);
    assert.deepEqual(status.pendingRuns, [run?.flowRunId]);
    await wf.signal(cancelSignal, { reason: 'test' });
  });

  it('a run.pending event for a closed verification starts run-<flowRunId>, once', async () => {
    const id = callerId('closed');
    const wf = await start({
      id,
      patient: { ...patient, memberId: 'M1234567' },
      payerId: '60054',
      placeOfServiceCode: '11',
      specialtyCode: 'PRC',
    });
    const { verificationId } = await wf.result();
    assert.ok(verificationId);
    const flowRunId = randomUUID();
    const first = await deliver(app, delivery('sandbox.run.pending', { flowRunId, verificationId, id }));
    assert.equal(first.statusCode, 200);
    const run = client().workflow.getHandle(runWorkflowId(flowRunId));
    const described = await run.describe();
    assert.equal(described.type, 'runInputWorkflow');
    assert.equal(described.status.name, 'RUNNING');
    // Another event (new id) for the same run: the run's workflow already exists, which is fine.
    const again = await deliver(app, delivery('sandbox.run.pending', { flowRunId, verificationId, id }));
    assert.equal(again.statusCode, 200);
    assert.equal((await run.describe()).runId, described.runId, 'the same run workflow, not a new one');
    await run.signal(cancelSignal, { reason: 'test' });
  });

  it('a run.pending event naming only a closed verificationId also starts run-<flowRunId>', async () => {
    const wf = await start({
      patient: { ...patient, memberId: 'M1234567' },
      payerId: '60054',
      placeOfServiceCode: '11',
      specialtyCode: 'PRC',
    });
    const { verificationId } = await wf.result();
    const flowRunId = randomUUID();
    const response = await deliver(app, delivery('sandbox.run.pending', { flowRunId, verificationId }));
    assert.equal(response.statusCode, 200);
    const run = client().workflow.getHandle(runWorkflowId(flowRunId));
    assert.equal((await run.describe()).status.name, 'RUNNING');
    await run.signal(cancelSignal, { reason: 'test' });
  });
});
