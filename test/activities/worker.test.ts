import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { createActivities } from '../../activities/index.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { failureConverterPath } from '../../src/codec/data-converter.js';
import { createWorker } from '../../workers/create-worker.js';
import type { callActivitiesWorkflow } from '../fixtures/call-activities-workflow.js';
import { v2Request } from '../../testing/fixtures.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { testDataConverter } from '../../testing/codec.js';
import { testTemporal } from '../../testing/temporal.js';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

describe('activities on a real worker', function () {
  this.timeout(60_000);
  let bundle: WorkflowBundle;
  let sandbox: TestSandbox;

  before(async () => {
    const workflowsPath = fileURLToPath(new URL('../fixtures/call-activities-workflow.ts', import.meta.url));
    bundle = await bundleWorkflowCode({ workflowsPath, failureConverterPath, logger: quiet });
  });

  beforeEach(async () => {
    // The faults' chances come in a fixed cycle: against rates of 0.3 (500) then 0.2 (429), every three calls are a
    // 500, a 429 and an answer, so each run meets both faults (drawn at random, one in about a hundred met no 429).
    const chances = [0.1, 0.9, 0.1, 0.9, 0.9];
    let draw = 0;
    sandbox = await startTestSandbox({ random: () => chances[draw++ % chances.length]! });
  });

  afterEach(async () => {
    await sandbox.close();
  });

  it('creates each of 20 verifications exactly once through 500s, 429s and dropped responses', async () => {
    const { nativeConnection, client, server } = testTemporal();
    const taskQueue = `test-activities-${randomUUID()}`;
    const config = loadConfig('worker', { ELIGIBILITY_BASE_URL: sandbox.url });
    const worker = await createWorker({
      connection: nativeConnection,
      namespace: server.namespace,
      taskQueue,
      activities: createActivities(new EligibilityClient(config.service)),
      maxActivitiesPerSecond: 1000,
      dataConverter: testDataConverter(),
      workflowBundle: bundle,
    });
    assert.equal(worker.options.maxTaskQueueActivitiesPerSecond, 1000, 'the limit is the task queue’s, server-side');
    // Dropped responses were processed: only the idempotency key keeps their retries from creating twice.
    await sandbox.setFaults({ error500Rate: 0.3, error429Rate: 0.2, retryAfterSeconds: 1, dropResponses: 3 });

    const requests = Array.from({ length: 20 }, (_, i) => v2Request({ id: `worker-test-${i}` }));
    const ids = await worker.runUntil(
      client.workflow.execute<typeof callActivitiesWorkflow>('callActivitiesWorkflow', {
        taskQueue,
        workflowId: `call-activities-${randomUUID()}`,
        args: [requests],
      }),
    );

    assert.equal(new Set(ids).size, 20);
    const stats = await sandbox.stats();
    assert.equal(stats.verificationsCreated, 20, 'none created twice');
    assert.ok(stats.idempotentReplays >= 3, `${stats.idempotentReplays} replays of dropped responses`);
    const statuses = stats.calls['POST /v2/verifications'] ?? {};
    assert.ok(
      (statuses['500'] ?? 0) > 0 && (statuses['429'] ?? 0) > 0,
      `faults were injected: ${JSON.stringify(statuses)}`,
    );
  });
});
