import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { createBatchActivities } from '../activities/batch/index.js';
import { createPatientActivities, type PatientCopies } from '../activities/patient.js';
import { createRefreshActivities } from '../activities/refresh/index.js';
import { createGovernorActivities } from '../activities/governor/index.js';
import { createActivities } from '../activities/index.js';
import type { EmitActivities } from '../workflows/shared/event-emitter.js';
import type { CallOutcomes } from '../activities/outcomes.js';
import { EligibilityClient } from '../src/client/index.js';
import { loadConfig } from '../src/config.js';
import { createWorker, type CreateWorkerOptions } from '../workers/create-worker.js';
import { workflowBundle } from './bundle.js';
import { testBlindIndex, testDataConverter } from './codec.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import { testTemporal } from './temporal.js';
import { boundedTeardown } from './bounded-teardown.js';

/** A sandbox and a real worker (own task queue) on the run's dev server: what a workflow suite runs against. */
export interface WorkflowHarness {
  sandbox: TestSandbox;
  taskQueue: string;
  worker: Worker;
  stop(): Promise<void>;
}

/** What a suite may change about its worker: the cache, the calls' outcomes counted for a governor, a shared queue. */
export type HarnessWorkerOverrides = Partial<
  Pick<CreateWorkerOptions, 'maxCachedWorkflows' | 'maxActivitiesPerSecond' | 'deployment'>
> & {
  outcomes?: CallOutcomes;
  /** Another harness's task queue (two workers on one queue); default: a new one. */
  taskQueue?: string;
  /** How events are kept (a suite's own): the local activity and a creation's `created` event; default: not at all. */
  emit?: EmitActivities;
  /** Another harness's sandbox, which this one then leaves open when it stops; default: a new one. */
  sandbox?: TestSandbox;
  /** Where patients keep their copies for the front desk's day (a suite's `Visits`); default: nowhere. */
  copies?: PatientCopies;
};

export async function startWorkflowHarness(
  sandboxOverrides?: Parameters<typeof startTestSandbox>[0],
  workerOverrides: HarnessWorkerOverrides = {},
): Promise<WorkflowHarness> {
  const { outcomes, emit, copies, taskQueue = `test-${randomUUID()}`, sandbox: shared, ...overrides } = workerOverrides;
  const sandbox = shared ?? (await startTestSandbox(sandboxOverrides));
  // Refreshes discover the patient's coverage at the sandbox's discoveries (decision 0051).
  const config = loadConfig('worker', {
    ELIGIBILITY_BASE_URL: sandbox.url,
    ELIGIBILITY_DISCOVERY_CREATE_PATH: '/sandbox/discoveries',
  });
  const service = new EligibilityClient(config.service);
  const { nativeConnection, server, client } = testTemporal();
  const worker = await createWorker({
    connection: nativeConnection,
    namespace: server.namespace,
    taskQueue,
    activities: {
      ...createActivities(service, { outcomes, ...(emit ? { emit } : {}) }),
      ...createPatientActivities(service, { outcomes, ...(copies ? { copies } : {}) }),
      ...createBatchActivities({ client, taskQueue, blindIndex: testBlindIndex() }),
      ...createGovernorActivities(client),
      ...createRefreshActivities({ client }),
    },
    dataConverter: testDataConverter(),
    maxActivitiesPerSecond: 500,
    workflowBundle: await workflowBundle(),
    ...overrides,
  });
  const running = worker.run();
  return {
    sandbox,
    taskQueue,
    worker,
    async stop() {
      worker.shutdown();
      // A worker settles `run()` once it has drained what it runs. Beside a loaded CI run that once took over a minute
      // (the cause is not found yet), so a suite stops waiting after 20 s, says so, and leaves it to mocha's exit.
      await boundedTeardown(`the drain of the worker of ${taskQueue}`, running, 20_000);
      if (!shared) await boundedTeardown(`the sandbox close of ${taskQueue}`, sandbox.close(), 10_000);
    },
  };
}

/** Service calls only (the sandbox's own /sandbox/* control routes are not part of the service). */
export function serviceCalls(stats: { calls: Record<string, Record<string, number>> }): number {
  return Object.entries(stats.calls)
    .filter(([route]) => !route.includes(' /sandbox/'))
    .reduce((sum, [, byStatus]) => sum + Object.values(byStatus).reduce((a, b) => a + b, 0), 0);
}

/** Polls `probe` until it returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
