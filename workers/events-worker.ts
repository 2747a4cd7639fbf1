import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { createEventActivities } from '../activities/events/index.js';
import type { Config } from '../src/config.js';
import { EventLog } from '../src/events/event-log.js';
import { openEmitting } from '../activities/events/emitting.js';
import type { EventOutbox } from '../src/events/outbox.js';
import { eventServices, secretBox } from '../src/events/services.js';
import { createLogger, type Logger } from '../src/logging.js';
import { openStore } from '../src/store/database.js';
import type { Tracing } from '../src/tracing/tracing.js';
import type { EventActivities } from '../workflows/events/index.js';
import type { EmitActivities } from '../workflows/shared/event-emitter.js';
import { workerSinks } from './create-worker.js';
import { deploymentOptions } from './deployment-version.js';
import type { WorkflowBundleSource } from './workflow-bundle.js';

export interface EventsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** EVENTS_TASK_QUEUE: the dispatchers' and deliveries' own queue, apart from the service's. */
  taskQueue: string;
  activities: EventActivities;
  dataConverter: DataConverter;
  /** The same bundle as the worker's: the dispatcher is one of the project's workflows. */
  workflowBundle: WorkflowBundleSource;
  /** The same Worker Deployment version as the worker's, whose queues are this one and the service's. */
  deployment?: { name: string; buildId: string };
  /** Where the dispatchers' spans go, as the worker's (src/tracing). */
  tracing?: Tracing;
  /** Deliveries under way at once in this process (each waits at most one attempt's 10 s). */
  maxConcurrentDeliveries?: number;
}

/** Tenants' dispatchers kept in memory: one per tenant with an endpoint, each woken often while events flow. */
const CACHED_DISPATCHERS = 100;

/**
 * The worker of the events task queue (docs/integrating/events.md): the tenants' dispatcher workflows, their deliveries
 * and the bookkeeping. A backlog of the verifications' workflow tasks never delays a dispatcher's (they have their own
 * queue, slots and workflow thread here), and a slow or dead endpoint holds delivery slots here, never the service's
 * activities; each dispatcher keeps at most a few deliveries per endpoint under way, so one endpoint cannot take them
 * all.
 */
export function createEventsWorker(opts: EventsWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: opts.activities,
    dataConverter: opts.dataConverter,
    workflowBundle: opts.workflowBundle,
    sinks: workerSinks(opts.tracing),
    maxCachedWorkflows: CACHED_DISPATCHERS,
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentDeliveries ?? 200,
    ...(opts.deployment
      ? { workerDeploymentOptions: deploymentOptions(opts.deployment.name, opts.deployment.buildId) }
      : {}),
  });
}

const PURGE_INTERVAL_MS = 3600_000;
/** Outbox rows still `handed` this long after their handover: their dispatcher has long given up (3 days at most). */
const HANDED_KEPT_MS = 7 * 24 * 3600_000;
/** How long closing waits for first attempts (10 s at most each) and handovers under way; the sweeper takes the rest. */
const CLOSE_WAIT_MS = 10_000;

/**
 * Events are kept for replay for EVENT_RETENTION_DAYS, then deleted: at once, and every hour while the worker runs
 * (idempotent, so several workers doing it costs nothing but a statement). A failed purge is logged and tried again.
 */
function purgeEvery(intervalMs: number, log: EventLog, outbox: EventOutbox, logger: Logger): () => void {
  const purge = () =>
    Promise.all([log.purge(), outbox.purgeHanded(HANDED_KEPT_MS)]).then(
      ([deleted]) => deleted > 0 && logger.info({ deleted }, 'events past their retention deleted'),
      (err: unknown) => logger.warn({ error: (err as Error).name }, 'events purge failed; tried again within the hour'),
    );
  void purge();
  const timer = setInterval(() => void purge(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** What a worker process with the database (DATABASE_URL) runs of outbound events, beside its own workflows. */
export interface EventsSide {
  /** The service worker's local activity that emits events (its first attempts run in this process). */
  emitActivities: EmitActivities;
  /** Creates the events worker (dispatchers and deliveries) and starts sweeping the outbox and purging old events. */
  createWorker(
    connection: NativeConnection,
    dataConverter: DataConverter,
    code: Pick<EventsWorkerOptions, 'workflowBundle' | 'deployment' | 'tracing'>,
  ): Promise<Worker>;
  /** Lets first attempts and handovers under way finish (a few seconds at most), then closes the store. */
  close(): Promise<void>;
}

/**
 * The events of a process with the database (DATABASE_URL): its store, the codec keys that open endpoint secrets, the
 * outbox with its first attempts and handovers (decision 60). Undefined without a database: then no
 * endpoint can exist, and nothing is delivered.
 */
export async function openEventsSide(config: Config, temporal: Client): Promise<EventsSide | undefined> {
  if (!config.database.url) return undefined;
  const store = await openStore(config.database.url);
  const logger = createLogger(config, 'events');
  const stops: (() => void)[] = [];
  try {
    const box = await secretBox(config);
    const services = eventServices(store, box, temporal, config);
    const emitting = openEmitting({
      store,
      box,
      client: temporal,
      services,
      logger,
      concurrency: config.events.endpointConcurrency,
    });
    return {
      emitActivities: emitting.emitActivities,
      async createWorker(connection, dataConverter, code) {
        const worker = await createEventsWorker({
          connection,
          namespace: config.temporal.namespace,
          taskQueue: config.events.taskQueue,
          dataConverter,
          ...code,
          activities: createEventActivities({ endpoints: services.endpoints, log: services.log, logger }),
        });
        stops.push(purgeEvery(PURGE_INTERVAL_MS, services.log, emitting.outbox, logger), emitting.startSweeping());
        return worker;
      },
      async close() {
        for (const stop of stops) stop();
        await emitting.close(CLOSE_WAIT_MS);
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
