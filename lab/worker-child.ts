/**
 * A worker process for `npm run bench:worker-cpu`, configured from the environment like `eligibility worker`
 * (`createWorker` with the same settings, encrypting data converter, the service's activities, and restarted with the
 * same memory limits), with either the project's workflows or a yardstick: one activity (`bench:worker-cpu`), or a
 * verification's shape with no-op activities (the engine's ceiling in `bench:traffic`):
 * `tsx lab/worker-child.ts verification|one-activity|two-calls`.
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import { EligibilityClient } from '../src/client/index.js';
import { createDataConverter } from '../src/codec/data-converter.js';
import { loadConfig } from '../src/config.js';
import { createWorker } from '../workers/create-worker.js';
import { IN_PROCESS, relaunchWithMemoryLimits, untilStopped } from '../workers/relaunch.js';
import { bundleWorkflowsInChild, defaultWorkflowsPath } from '../workers/workflow-bundle.js';
import type { NoopActivities } from './one-activity-workflow.js';

const yardsticks: Record<string, string> = {
  'one-activity': fileURLToPath(new URL('./one-activity-workflow.ts', import.meta.url)),
  'two-calls': fileURLToPath(new URL('./two-call-workflow.ts', import.meta.url)),
};

async function run() {
  const kind = process.argv[2] ?? '';
  if (kind !== 'verification' && !Object.hasOwn(yardsticks, kind)) {
    throw new Error('expected verification, one-activity or two-calls');
  }
  const config = loadConfig('worker');
  if (!process.argv.includes(IN_PROCESS)) process.exit(await relaunchWithMemoryLimits(config.worker));
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  try {
    const noop: NoopActivities = { noop: () => Promise.resolve() };
    const worker = await createWorker({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      activities: { ...createActivities(new EligibilityClient(config.service)), ...noop },
      dataConverter: await createDataConverter(config.codec),
      maxActivitiesPerSecond: config.service.maxRps ?? config.service.initialRps,
      maxCachedWorkflows: config.worker.maxCachedWorkflows,
      workflowBundle: await bundleWorkflowsInChild({
        workflowsPath: kind === 'verification' ? defaultWorkflowsPath : yardsticks[kind],
      }),
    });
    untilStopped().addEventListener('abort', () => worker.shutdown(), { once: true });
    // The line `eligibility worker` prints when it polls: the benchmarks wait for it.
    console.log(`Worker polling task queue ${config.temporal.taskQueue}`);
    await worker.run();
  } finally {
    await connection.close();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
