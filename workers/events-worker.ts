import { Worker, type NativeConnection } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { createEmitActivities } from '../activities/events/emit.js';
import { createEventActivities } from '../activities/events/index.js';
import type { Config } from '../src/config.js';
import { deliveryPolicy, EventDelivery, type DeliveryPolicy } from '../src/events/delivery/index.js';
import { eventServices } from '../src/events/services.js';
import { SecretBox } from '../src/events/secret-box.js';
import { createLogger } from '../src/logging.js';
import { openStore } from '../src/store/database.js';
import { sealingKeys } from '../src/codec/sealing.js';
import { Visits } from '../src/visits/index.js';
import type { PatientCopies } from '../activities/patient.js';
import type { Tracing } from '../src/tracing/tracing.js';
import type { EventActivities } from '../workflows/events/index.js';
import type { EmitActivities } from '../workflows/shared/event-emitter.js';
import { workerSinks } from './create-worker.js';
import { deploymentOptions } from './deployment-version.js';
import type { WorkflowBundleSource } from './workflow-bundle.js';

export interface EventsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** EVENTS_TASK_QUEUE: where earlier versions' dispatchers run. */
  taskQueue: string;
  activities: EventActivities;
  dataConverter: DataConverter;
  /** The same bundle as the worker's. */
  workflowBundle: WorkflowBundleSource;
  /** The same Worker Deployment version as the worker's, whose queues are this one and the service's. */
  deployment?: { name: string; buildId: string };
  tracing?: Tracing;
}

/**
 * The worker of the events task queue: earlier versions' tenant dispatchers, which hand what they hold over to the
 * outbox when they continue as new onto this version or are signalled (decision 80), and end.
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
    maxCachedWorkflows: 10,
    ...(opts.deployment
      ? { workerDeploymentOptions: deploymentOptions(opts.deployment.name, opts.deployment.buildId) }
      : {}),
  });
}

/** How long closing waits for deliveries under way (one attempt's 10 s); their claims lapse for other workers after. */
const CLOSE_WAIT_MS = 10_000;

/** What a worker process with the database (DATABASE_URL) runs of outbound events, beside its own workflows. */
export interface EventsSide {
  /** The service worker's local activity that keeps emitted events in the outbox. */
  emitActivities: EmitActivities;
  /** Where patients keep their copies for the front desk's day (src/visits), in the same database. */
  copies: PatientCopies;
  /** Creates the events worker (earlier versions' dispatchers) and starts delivering from the outbox. */
  createWorker(
    connection: NativeConnection,
    dataConverter: DataConverter,
    code: Pick<EventsWorkerOptions, 'workflowBundle' | 'deployment' | 'tracing'>,
  ): Promise<Worker>;
  /** Lets deliveries under way finish (10 s at most), then closes the store. */
  close(): Promise<void>;
}

/**
 * The events of a process with the database (DATABASE_URL): its store, the codec keys that open endpoint secrets, and
 * delivery from the outbox (docs/developing/event-delivery.md). Undefined without a database: then no endpoint can
 * exist, and nothing is delivered.
 */
export async function openEventsSide(
  config: Config,
  policy: Partial<DeliveryPolicy> = {},
): Promise<EventsSide | undefined> {
  if (!config.database.url) return undefined;
  const store = await openStore(config.database.url);
  try {
    // One load of the keys for what the worker seals: endpoint secrets and patient copies.
    const keys = await sealingKeys(config);
    const services = eventServices(store, new SecretBox(keys));
    const delivery = new EventDelivery(services, createLogger(config, 'events'), deliveryPolicy(config.events, policy));
    return {
      emitActivities: createEmitActivities(delivery),
      copies: new Visits(store, keys),
      async createWorker(connection, dataConverter, code) {
        const worker = await createEventsWorker({
          connection,
          namespace: config.temporal.namespace,
          taskQueue: config.events.taskQueue,
          dataConverter,
          ...code,
          activities: createEventActivities(delivery),
        });
        delivery.start();
        return worker;
      },
      async close() {
        await delivery.close(CLOSE_WAIT_MS);
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
