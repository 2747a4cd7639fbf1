/**
 * A worker process for `npm run bench:worker-cpu`, configured from the environment like `eligibility worker`
 * (`createWorker` with the same settings, encrypting data converter, the service's activities, and restarted with the
 * same memory limits), with either the project's workflows or the one-activity yardstick:
 * `tsx bench/worker-child.ts verification|one-activity`.
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

const oneActivityPath = fileURLToPath(new URL('./one-activity-workflow.ts', import.meta.url));

async function run() {
  const kind = process.argv[2];
  if (kind !== 'verification' && kind !== 'one-activity') throw new Error('expected verification or one-activity');
  const config = loadConfig();
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
        workflowsPath: kind === 'verification' ? defaultWorkflowsPath : oneActivityPath,
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
