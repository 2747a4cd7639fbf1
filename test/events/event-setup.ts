import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createEventActivities } from '../../activities/events/index.js';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config.js';
import { openEmitting } from '../../activities/events/emitting.js';
import type { SweeperTiming } from '../../src/events/outbox-sweeper.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices } from '../../src/events/services.js';
import { createLogger } from '../../src/logging.js';
import type { Store } from '../../src/store/database.js';
import { createEventsWorker } from '../../workers/events-worker.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from '../../workflows/events/events.js';
import { FAST_BATCH } from '../../testing/batches.js';
import { workflowBundle } from '../../testing/bundle.js';
import { testCodecKeys, testDataConverter } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { testTemporal } from '../../testing/temporal.js';

/** Short enough for a test: attempts of 1.5 s, retried from 0.2 s, a window of 6 s. */
export const TEST_POLICY = {
  attemptTimeoutSeconds: 2,
  initialIntervalSeconds: 0.2,
  backoffCoefficient: 2,
  maximumIntervalSeconds: 1,
  windowSeconds: 6,
  concurrency: 2,
  drainSeconds: 1,
} satisfies Partial<DeliveryPolicy>;

/** The outbox looked at twice a second; a row its owner has held for 3 s is taken over. */
export const TEST_SWEEPER: SweeperTiming = { intervalMs: 500, graceMs: 3_000 };

export interface EventsStack {
  store: Store;
  api: FastifyInstance;
  audit: AuditTrail;
  keys: Record<string, string>;
  tenants: Record<string, string>;
  /** The dispatchers' and deliveries' policy; its `taskQueue` is the events worker's. */
  policy: DeliveryPolicy;
  /** What opens endpoint secrets (another process's outbox in a test). */
  box: SecretBox;
  /** Emits an event as the workers' local activity does. */
  emit(event: OutboundEvent): Promise<void>;
  as(key: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  stop(): Promise<void>;
}

/** The intake API with event endpoints, a real events worker (dispatchers and deliveries) on its own queue, and two tenants' clients. */
export async function startEventsStack(): Promise<EventsStack> {
  const store = await testStore();
  const box = new SecretBox(testCodecKeys());
  const clients = new IntakeClients(store);
  const audit = new AuditTrail(store);
  const eventsQueue = `events-${randomUUID()}`;
  const config = loadConfig('worker', { LOG_LEVEL: 'silent' });
  const policy: DeliveryPolicy = { ...DEFAULT_DELIVERY_POLICY, ...TEST_POLICY, taskQueue: eventsQueue };
  const { nativeConnection, server, client } = testTemporal();
  const services = eventServices(store, box, client, config, policy);
  const logger = createLogger(config, 'events');
  const worker: Worker = await createEventsWorker({
    connection: nativeConnection,
    namespace: server.namespace,
    taskQueue: eventsQueue,
    dataConverter: testDataConverter(),
    workflowBundle: await workflowBundle(),
    activities: createEventActivities({
      endpoints: services.endpoints,
      log: services.log,
      logger,
      requestTimeoutMs: 1500,
    }),
  });
  const running = worker.run();
  const emitting = openEmitting({
    store,
    box,
    client,
    services,
    logger,
    concurrency: 2,
    requestTimeoutMs: 1500,
    failingForMs: 2000,
    sweeper: TEST_SWEEPER,
  });
  const stopSweeping = emitting.startSweeping();
  const { api, stop } = await startIntakeApiHarness({
    access: { clients, audit },
    batchTiming: { ...FAST_BATCH, keepOpenSeconds: 30 },
    events: () => services,
    emitActivities: emitting.emitActivities,
  });
  const suffix = randomUUID().slice(0, 8);
  const tenants = {
    a: `clinic-a-${suffix}`,
    b: `clinic-b-${suffix}`,
    c: `clinic-c-${suffix}`,
    d: `clinic-d-${suffix}`,
    e: `clinic-e-${suffix}`,
  };
  const scopes = [
    'verifications:write',
    'verifications:read',
    'batches:write',
    'batches:read',
    'events:manage',
  ] as const;
  const keys: Record<string, string> = {};
  for (const [name, tenant] of Object.entries(tenants)) {
    keys[name] = (await clients.create({ name, tenant, scopes: [...scopes], by: 'test' })).key;
  }
  return {
    store,
    api,
    audit,
    keys,
    tenants,
    policy,
    box,
    emit: (event) => emitting.emitActivities.emitEvent({ event }),
    as: (key, options) =>
      api.inject({ ...options, headers: { 'x-api-key': key, ...(options.headers as Record<string, string>) } }),
    async stop() {
      stopSweeping();
      await stop();
      await emitting.close(5_000);
      worker.shutdown();
      await running;
      await store.close();
    },
  };
}
