import type { PatientCopies } from '../activities/patient.js';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { loadConfig } from '../src/config.js';
import { createIntakeApi, type IntakeApiOptions } from '../apps/intake-api/api.js';
import { createLogger } from '../src/logging.js';
import { FAST, TEST_INTAKE_KEY } from './fixtures.js';
import { testTemporal } from './temporal.js';
import { testBlindIndex } from './codec.js';
import type { EmitActivities } from '../workflows/shared/event-emitter.js';
import { startWorkflowHarness, type WorkflowHarness } from './workflow-harness.js';
import { watchAnswers } from './documented-answers.js';
import { boundedTeardown } from './bounded-teardown.js';
import { PayerNames } from '../src/payers/payer-names.js';
import { EligibilityClient } from '../src/client/index.js';

/** A workflow harness with the intake API in front of it (key TEST_INTAKE_KEY, short waits), as its suites need. */
export interface IntakeApiHarness {
  harness: WorkflowHarness;
  api: FastifyInstance;
  stop: () => Promise<void>;
}

export interface IntakeApiHarnessOptions {
  /** Variables added to the intake's configuration (e.g. ELIGIBILITY_TENANT_WEIGHTS). */
  env?: Record<string, string>;
  sandbox?: Parameters<typeof startWorkflowHarness>[0];
  batchTiming?: IntakeApiOptions['batchTiming'];
  /** Where the API logs (at warn and above), for a suite that reads what it logged; default: nowhere. */
  logs?: DestinationStream;
  /** Intake clients and the audit trail; default: TEST_INTAKE_KEY alone, no trail. */
  access?: IntakeApiOptions['access'];
  /** Event endpoints (docs/integrating/events.md), made with the harness's task queue. */
  events?: (taskQueue: string) => IntakeApiOptions['events'];
  /** The worker's own event emitting (activities/events/emit.ts); default: emitting does nothing. */
  emitActivities?: EmitActivities;
  /** The patient search index's keys; default: the run's (derived from its codec keys). */
  blindIndex?: IntakeApiOptions['blindIndex'];
  /** Patients and appointments (issue 35): PATIENT_ID_KEY and short check offsets. */
  patients?: IntakeApiOptions['patients'];
  /** Where the worker's patients keep their copies for the front desk's day (a suite's `Visits`); default: nowhere. */
  copies?: PatientCopies;
}

export async function startIntakeApiHarness(options: IntakeApiHarnessOptions = {}): Promise<IntakeApiHarness> {
  const harness = await startWorkflowHarness(options.sandbox, {
    ...(options.emitActivities ? { emit: options.emitActivities } : {}),
    ...(options.copies ? { copies: options.copies } : {}),
  });
  const config = loadConfig('intake', {
    INTAKE_API_KEY: TEST_INTAKE_KEY,
    LOG_LEVEL: options.logs ? 'warn' : 'silent',
    ...options.env,
  });
  const api = createIntakeApi({
    config,
    client: testTemporal().client,
    taskQueue: harness.taskQueue,
    logger: createLogger(config, 'eligibility', options.logs),
    timing: FAST,
    ...(options.batchTiming ? { batchTiming: options.batchTiming } : {}),
    ...(options.access ? { access: options.access } : {}),
    ...(options.events ? { events: options.events(harness.taskQueue) } : {}),
    blindIndex: options.blindIndex ?? testBlindIndex(),
    ...(options.patients ? { patients: options.patients } : {}),
    // Batches' results name payers from the harness's sandbox, as a deployment's from its service.
    payers: new PayerNames(
      new EligibilityClient(loadConfig('intake', { ELIGIBILITY_BASE_URL: harness.sandbox.url }).service),
    ),
  });
  // Every answer the suite provokes must be one the OpenAPI document names for its route.
  const answers = watchAnswers(api);
  return {
    harness,
    api,
    stop: async () => {
      const undocumented = answers.undocumented();
      await boundedTeardown('the intake API close', api.close(), 5_000);
      await boundedTeardown('the workflow harness stop', harness.stop(), 20_000);
      if (undocumented.length > 0)
        throw new Error(`answers the OpenAPI document does not name: ${undocumented.join(', ')}`);
    },
  };
}
