import { Runtime } from '@temporalio/worker';
import type { WorkerConfig } from '../src/config.js';
import { freePort } from '../src/free-port.js';
import type { Logger } from '../src/logging.js';
import { temporalLogger } from './temporal-logger.js';

/**
 * Installs the Temporal SDK's runtime of a worker process, once, before its connection: the SDK's logs (its own, its
 * core's, and the workflows' and activities' `log`) go to `logger`, and its metrics (task latencies, slots, polls,
 * sticky cache…) to a Prometheus exporter on a loopback port that the worker's `/metrics` merges into its own.
 * Returns the address of that exporter's scrape.
 */
export async function installWorkerRuntime(worker: WorkerConfig, logger: Logger): Promise<string> {
  // The SDK's exporter cannot say which port it took for 0, so one is chosen for it.
  const port = worker.coreMetricsPort ?? (await freePort());
  Runtime.install({
    logger: temporalLogger(logger.child({ component: 'temporal-sdk' })),
    telemetryOptions: {
      // The core's warnings (poll failures while the server is away, …) in the same log as the rest.
      logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} },
      metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, useSecondsForDurations: true } },
    },
  });
  return `http://127.0.0.1:${port}/metrics`;
}
