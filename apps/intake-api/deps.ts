import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BatchTiming } from '../../workflows/batch/batch.js';
import type { TenantWeights } from '../../workflows/shared/priority.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { IntakeAccess } from './access.js';
import type { BlindIndexKeys } from '../../src/blind-index/keys.js';
import type { EventServices } from '../../src/events/services.js';
import type { Patients } from '../../src/patients/patients.js';
import type { PayerNameSource } from '../../src/batches/results.js';

/** Event endpoints, their log and the outbox (docs/integrating/events.md): with the database only. */
export type IntakeEvents = EventServices;

/** The intake API's Fastify instance: route schemas are zod schemas, and handlers' types follow from them. */
export type IntakeApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What the intake routes share: the process's one Temporal client and where its workflows run. */
export interface IntakeDeps {
  client: Client;
  taskQueue: string;
  /** Deadline of the Temporal calls of one request, in milliseconds. */
  timeoutMs: number;
  /** Waiting times of started verifications (tests shorten them); the workflow's defaults otherwise. */
  timing?: Partial<Timing>;
  /** How batches pace themselves (tests shorten it); the batch's defaults otherwise. */
  batchTiming?: Partial<BatchTiming>;
  /** Fairness weights by tenant (`ELIGIBILITY_TENANT_WEIGHTS`). */
  tenantWeights?: TenantWeights;
  /** Who callers are and the audit trail of what they did. */
  access: IntakeAccess;
  /** The patient search index's keys: starts carry keyed hashes, and `POST /verifications/search` hashes with them. */
  blindIndex?: BlindIndexKeys;
  /** Event endpoints; without them (no database) their routes answer 503 `events_unavailable`. */
  events?: IntakeEvents;
  /** Patients (issue 35): their id key and check policy; without them their routes answer 503 `patients_unavailable`. */
  patients?: IntakePatients;
  /** Payer names from the service's payer endpoint (src/payers), for batches' results; without them rows name ids. */
  payers?: PayerNameSource;
}

/** What the patient routes need beyond the Temporal client: PATIENT_ID_KEY, and shortened timings in tests. */
export type IntakePatients = Omit<Patients, 'client' | 'taskQueue'>;

/** Runs Temporal calls under the request's deadline, so an unreachable server answers 503 instead of hanging. */
export function withDeadline<T>(deps: IntakeDeps, fn: () => Promise<T>): Promise<T> {
  return deps.client.withDeadline(Date.now() + deps.timeoutMs, fn);
}
