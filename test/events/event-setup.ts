import { randomUUID } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createEmitActivities } from '../../activities/events/emit.js';
import { createEventActivities } from '../../activities/events/index.js';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config.js';
import { DEFAULT_DELIVERY_POLICY, EventDelivery, type DeliveryPolicy } from '../../src/events/delivery/index.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices } from '../../src/events/services.js';
import { createLogger } from '../../src/logging.js';
import type { Store } from '../../src/store/database.js';
import { createEventsWorker } from '../../workers/events-worker.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { FAST_BATCH } from '../../testing/batches.js';
import { workflowBundle } from '../../testing/bundle.js';
import { testCodecKeys, testDataConverter } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { testTemporal } from '../../testing/temporal.js';

/** Short enough for a test: attempts of 1 s, retried from 0.2 s, a window of 3 s, the outbox looked at every 0.1 s. */
export const TEST_POLICY: DeliveryPolicy = {
  ...DEFAULT_DELIVERY_POLICY,
  attemptTimeoutMs: 1_000,
  initialIntervalMs: 200,
  backoffCoefficient: 2,
  maximumIntervalMs: 1_000,
  windowMs: 3_000,
  concurrency: 2,
  pollMs: 100,
};

export interface EventsStack {
  store: Store;
  api: FastifyInstance;
  audit: AuditTrail;
  keys: Record<string, string>;
  tenants: Record<string, string>;
  /** The events worker's queue (earlier versions' dispatchers). */
  eventsQueue: string;
  /** Emits an event as the workers' local activity does. */
  emit(event: OutboundEvent): Promise<void>;
  as(key: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  stop(): Promise<void>;
}

/** The intake API with event endpoints, delivery from the outbox, the events worker on its own queue, and five tenants' clients. */
export async function startEventsStack(): Promise<EventsStack> {
  const store = await testStore();
  const clients = new IntakeClients(store);
  const audit = new AuditTrail(store);
  const eventsQueue = `events-${randomUUID()}`;
  const config = loadConfig('worker', { LOG_LEVEL: 'silent' });
  const { nativeConnection, server } = testTemporal();
  const services = eventServices(store, new SecretBox(testCodecKeys()));
  const delivery = new EventDelivery(services, createLogger(config, 'events'), TEST_POLICY);
  const worker: Worker = await createEventsWorker({
    connection: nativeConnection,
    namespace: server.namespace,
    taskQueue: eventsQueue,
    dataConverter: testDataConverter(),
    workflowBundle: await workflowBundle(),
    activities: createEventActivities(delivery),
  });
  const running = worker.run();
  delivery.start();
  const emitActivities = createEmitActivities(delivery);
  const { api, stop } = await startIntakeApiHarness({
    access: { clients, audit },
    batchTiming: { ...FAST_BATCH, keepOpenSeconds: 30 },
    events: () => services,
    emitActivities,
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
    eventsQueue,
    emit: (event) => emitActivities.emitEvent({ event }),
    as: (key, options) =>
      api.inject({ ...options, headers: { 'x-api-key': key, ...(options.headers as Record<string, string>) } }),
    async stop() {
      await stop();
      await delivery.close(5_000);
      worker.shutdown();
      await running;
      await store.close();
    },
  };
}
