import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import os from 'node:os';
import { createBatchActivities } from '../activities/batch/index.js';
import { createPatientActivities } from '../activities/patient.js';
import { createRefreshActivities } from '../activities/refresh/index.js';
import { createGovernorActivities } from '../activities/governor/index.js';
import { createActivities } from '../activities/index.js';
import { PayerNames } from '../src/payers/payer-names.js';
import { CallOutcomes } from '../activities/outcomes.js';
import { RateLimitBrake } from '../activities/rate-limit-brake.js';
import { queueStartPace } from '../activities/batch/start-pace.js';
import { EligibilityClient } from '../src/client/index.js';
import { createDataConverter } from '../src/codec/data-converter.js';
import { loadBlindIndexKeys } from '../src/blind-index/keys.js';
import type { Config } from '../src/config.js';
import { createLogger } from '../src/logging.js';
import { recordServiceExchange } from '../src/metrics/project-metrics.js';
import { TemporalUnreachableError } from '../src/temporal/client.js';
import { temporalConnectionOptions } from '../src/temporal/connection-options.js';
import { readQueueRateLimit } from '../src/temporal/task-queue-rate.js';
import { setUpTracing } from '../src/tracing/tracing.js';
import { createWorker } from './create-worker.js';
import { buildIdOf } from './deployment-version.js';
import { GovernorReporter } from './governor-reporter.js';
import { untilDrained } from './drain-watch.js';
import { refuseIfOpenBeforeVersioning } from './before-versioning.js';
import { promoteWhenPolling } from './promote-version.js';
import { createWorkerHttp } from './worker-http.js';
import { loadWorkflowBundle } from './workflow-bundle.js';

export interface RunWorkerOptions {
  /** Drains and stops the worker when aborted (the entry points abort it on SIGINT / SIGTERM). */
  signal?: AbortSignal;
  log?: (line: string) => void;
  /**
   * Serve `/metrics`, `/healthz` and `/readyz` on WORKER_HTTP_HOST:WORKER_HTTP_PORT, merging the SDK runtime's
   * scrape at this address (`installWorkerRuntime`); `eligibility worker` does, the dev stack does not.
   */
  coreMetricsUrl?: string;
  /** Called once this worker's version is the deployment's current one (`WORKER_VERSION_ROLLOUT=always`). */
  onVersionCurrent?: (deployment: { name: string; buildId: string }) => Promise<void>;
  /**
   * Start even while workflows from before worker versioning are open (workers/before-versioning.ts): the dev stack,
   * whose `.data/` may hold a few and which accepts that they may fail their replay.
   */
  takeWorkflowsBeforeVersioning?: boolean;
}

/** The worker of the eligibility task queue until `signal` aborts; resolves once it has drained and stopped. */
export async function runWorker(config: Config, options: RunWorkerOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  // Keys are checked before connecting: a worker that cannot encrypt must not start taking tasks.
  const dataConverter = await createDataConverter(config.codec);
  const blindIndex = await loadBlindIndexKeys(config.codec);
  // TLS files are read (and a bad path reported) before any connection attempt.
  const connectionOptions = await temporalConnectionOptions(config.temporal);
  // With tracing off, the bundle without OpenTelemetry's interceptors (workers/workflow-bundle.ts says why).
  const traced = config.observability.otlpEndpoint !== undefined;
  const workflowBundle = await loadWorkflowBundle(config.worker.workflowBundlePath, traced);
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect(connectionOptions);
  } catch (err) {
    throw new TemporalUnreachableError(config.temporal.address, err);
  }
  try {
    // One client per process: one cached token shared by every activity of this worker.
    // Batches start, count and cancel their items with a Temporal client over the worker's own connection.
    const { namespace, taskQueue } = config.temporal;
    const tracing = await setUpTracing(config.observability, 'worker');
    const temporal = new Client({
      connection,
      namespace,
      dataConverter,
      interceptors: { workflow: tracing.clientInterceptors },
    });
    const { maxRps, initialRps, governor } = config.service;
    const outcomes = governor ? new CallOutcomes() : undefined;
    const brake = governor ? new RateLimitBrake() : undefined;
    const service = new EligibilityClient(config.service, { onExchange: recordServiceExchange });
    // Outbound events (docs/integrating/events.md): only with a database, where endpoints are kept; without one its
    // code (the store's) is not even loaded, and emitting an event does nothing.
    const eventsSide = config.database.url
      ? await (await import('./events-worker.js')).openEventsSide(config)
      : undefined;
    const activities = {
      ...createActivities(service, { outcomes, brake, ...(eventsSide ? { emit: eventsSide.emitActivities } : {}) }),
      ...createPatientActivities(service, { outcomes, brake, ...(eventsSide ? { copies: eventsSide.copies } : {}) }),
      ...createBatchActivities({
        client: temporal,
        taskQueue,
        tenantWeights: config.tenants.weights,
        ...(blindIndex ? { blindIndex } : {}),
        payerNames: new PayerNames(service),
        // Its pages start their rows a little ahead of the rate the governor finds for the service's calls.
        startPace: queueStartPace(temporal, taskQueue, maxRps ?? initialRps),
      }),
      ...createGovernorActivities(temporal),
      ...createRefreshActivities({ client: temporal }),
    };
    const deployment = config.worker.deployment && {
      name: config.worker.deployment.name,
      buildId: await buildIdOf(workflowBundle),
    };
    if (deployment && !options.takeWorkflowsBeforeVersioning) await refuseIfOpenBeforeVersioning(temporal, taskQueue);
    const worker = await createWorker({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      activities,
      dataConverter,
      // Until the governor has written the queue's config (which overrides this), the known limit or the start rate.
      maxActivitiesPerSecond: maxRps ?? initialRps,
      shutdownGraceSeconds: config.worker.shutdownGraceSeconds,
      maxCachedWorkflows: config.worker.maxCachedWorkflows,
      maxConcurrentWorkflowTasks: config.worker.maxConcurrentWorkflowTasks,
      workflowBundle,
      tracing,
      deployment,
    });
    // Outbound events: delivered from the outbox, and earlier versions' dispatchers on their own task queue.
    const events = eventsSide && {
      worker: await eventsSide.createWorker(connection, dataConverter, { workflowBundle, deployment, tracing }),
      close: () => eventsSide.close(),
    };
    if (options.signal?.aborted) {
      await events?.close();
      return;
    }
    const http =
      options.coreMetricsUrl === undefined
        ? undefined
        : createWorkerHttp({
            worker,
            connection,
            coreMetricsUrl: options.coreMetricsUrl,
            readyTimeoutMs: config.observability.readyTimeoutMs,
            logger: createLogger(config, 'worker'),
            governedRate: () => readQueueRateLimit(temporal, taskQueue),
          });
    // The SDK's runtime also listens for SIGINT / SIGTERM; whichever runs first starts the drain, the other sees it
    // stopping.
    const stop = () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      if (events?.worker.getState() === 'RUNNING') events.worker.shutdown();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    // The task queue's traffic governor hears this worker's call outcomes (and is started by the first report).
    const reporter =
      outcomes &&
      new GovernorReporter({
        client: temporal,
        taskQueue,
        workerId: `${process.pid}@${os.hostname()}`,
        maxRps: maxRps ?? null,
        settings: { initialRps },
        outcomes,
        log,
      });
    await reporter?.start();
    try {
      // Listening before polling: a port already taken stops the worker before it takes any task.
      if (http) {
        const address = await http.listen({ host: config.worker.http.host, port: config.worker.http.port });
        log(`Worker metrics and health on ${address.replace(/\/$/, '')} (/metrics, /healthz, /readyz)`);
      }
      const version = deployment ? ` as version ${deployment.buildId} of deployment ${deployment.name}` : '';
      log(`Worker polling task queue ${config.temporal.taskQueue} on ${config.temporal.address}${version}`);
      const eventsRunning = events?.worker.run();
      const running = worker.run().finally(() => {
        if (events?.worker.getState() === 'RUNNING') events.worker.shutdown();
      });
      const rollout = config.worker.deployment?.rollout ?? 'manual';
      if (deployment && rollout !== 'manual') {
        try {
          const current = await promoteWhenPolling(temporal, deployment, {
            signal: options.signal,
            log,
            onlyIfNoneCurrent: rollout === 'first',
          });
          if (current) await options.onVersionCurrent?.(deployment);
        } catch (err) {
          // A version nobody routes to would take no new workflow: stop, saying why.
          stop();
          await running.catch(() => undefined);
          throw err;
        }
      }
      // Ends with the worker, however it stops.
      const watching = new AbortController();
      if (deployment && config.worker.deployment?.exitWhenDrained) {
        untilDrained(temporal, deployment, { signal: watching.signal }).then(
          () => {
            log(`Worker version ${deployment.buildId} has drained: no workflow needs it any more; stopping`);
            stop();
          },
          () => undefined,
        );
      }
      await running.finally(() => watching.abort());
      await eventsRunning;
    } finally {
      await events?.close();
      options.signal?.removeEventListener('abort', stop);
      await reporter?.stop().catch(() => undefined);
      // Stopped once the worker has drained: /readyz answers 503 meanwhile.
      await http?.close();
      await tracing.shutdown();
    }
  } finally {
    // After a failure before the worker ran (its HTTP port taken), the SDK refuses to close a connection the worker
    // holds: that refusal must not replace the error that says what went wrong. The process exits either way.
    await connection.close().catch(() => undefined);
  }
}
