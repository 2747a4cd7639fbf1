import { Worker, type NativeConnection } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import { createEventActivities } from '../activities/events/index.js';
import { loadCodecKeys } from '../src/codec/keys.js';
import type { Config } from '../src/config.js';
import { EventEndpoints } from '../src/events/endpoints.js';
import { EventLog } from '../src/events/event-log.js';
import { SecretBox } from '../src/events/secret-box.js';
import { createLogger, type Logger } from '../src/logging.js';
import { openStore } from '../src/store/database.js';
import type { EventActivities } from '../workflows/events/index.js';

export interface EventsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** EVENTS_TASK_QUEUE: the deliveries' own queue, apart from the service's. */
  taskQueue: string;
  activities: EventActivities;
  dataConverter: DataConverter;
  /** Deliveries under way at once in this process (each waits at most one attempt's 10 s). */
  maxConcurrentDeliveries?: number;
}

/**
 * The worker of the events task queue (DESIGN §14): activities only, the deliveries and their bookkeeping. A slow or
 * dead endpoint holds slots here, never the service's activities nor any workflow task; each dispatcher keeps at most
 * a few deliveries per endpoint under way, so one endpoint cannot take them all.
 */
export function createEventsWorker(opts: EventsWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: opts.activities,
    dataConverter: opts.dataConverter,
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentDeliveries ?? 200,
  });
}

const PURGE_INTERVAL_MS = 3600_000;

/**
 * Events are kept for replay for EVENT_RETENTION_DAYS, then deleted: at once, and every hour while the worker runs
 * (idempotent, so several workers doing it costs nothing but a statement). A failed purge is logged and tried again.
 */
function purgeEvery(intervalMs: number, log: EventLog, logger: Logger): () => void {
  const purge = () =>
    log.purge().then(
      (deleted) => deleted > 0 && logger.info({ deleted }, 'events past their retention deleted'),
      (err: unknown) => logger.warn({ error: (err as Error).name }, 'events purge failed; tried again within the hour'),
    );
  void purge();
  const timer = setInterval(() => void purge(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The events worker of a process with the database (DATABASE_URL): its store and the codec keys that open endpoint
 * secrets. Undefined without a database: then no endpoint can exist, and nothing is delivered.
 */
export async function openEventsWorker(
  config: Config,
  connection: NativeConnection,
  dataConverter: DataConverter,
): Promise<{ worker: Worker; close: () => Promise<void> } | undefined> {
  if (!config.database.url) return undefined;
  const store = await openStore(config.database.url);
  const logger = createLogger(config, 'events');
  try {
    const keys = config.codec.disabled ? undefined : await loadCodecKeys(config.codec);
    const log = new EventLog(store);
    const worker = await createEventsWorker({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: config.events.taskQueue,
      dataConverter,
      activities: createEventActivities({
        endpoints: new EventEndpoints(store, new SecretBox(keys)),
        log,
        logger,
      }),
    });
    const stopPurging = purgeEvery(PURGE_INTERVAL_MS, log, logger);
    return {
      worker,
      close: async () => {
        stopPurging();
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
