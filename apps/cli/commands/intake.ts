import type { Command } from 'commander';
import { untilInterrupted, withOptionalStore, type CliContext } from '../context.js';
import { auditTrail } from '../audit-record.js';

export function registerIntake(program: Command, ctx: CliContext): void {
  program
    .command('intake')
    .description('serve the intake HTTP API (start verifications, status, run input) until Ctrl-C or SIGTERM')
    .addHelpText(
      'after',
      `
Listens on INTAKE_HOST:INTAKE_PORT (default 127.0.0.1:4030); callers send their key in the x-api-key header: an
intake client's (\`eligibility clients create\`, kept in DATABASE_URL, with the audit trail) or INTAKE_API_KEY, the
single-tenant shortcut. Without DATABASE_URL, INTAKE_API_KEY (at least 32 characters) is required.
Verifications start on TEMPORAL_TASK_QUEUE at TEMPORAL_ADDRESS. GET /docs/openapi.json describes the API.

Example:
  $ INTAKE_HOST=0.0.0.0 DATABASE_URL=postgres://… eligibility intake`,
    )
    .action(async () => {
      const signal = untilInterrupted();
      // Imported here so the other commands do not load the HTTP server and the Temporal client.
      const { serveHttp } = await import('../serve-http.js');
      const { createIntakeApi } = await import('../../intake-api/api.js');
      const { FailedKeys, requireIntakeApiKey } = await import('../../intake-api/api-key.js');
      const config = ctx.config('intake');
      // Refused before connecting: a missing key is named at once, whether or not Temporal is up.
      if (!config.database.url) requireIntakeApiKey(config.intake);
      const { IntakeClients } = await import('../../../src/access/intake-clients.js');
      const { eventServices, secretBox } = await import('../../../src/events/services.js');
      const { loadBlindIndexKeys } = await import('../../../src/blind-index/keys.js');
      const blindIndex = await loadBlindIndexKeys(config.codec);
      const { loadPatientIdKey } = await import('../../../src/patients/id-key.js');
      const patientIdKey = await loadPatientIdKey(config.patients);
      const { PayerNames } = await import('../../../src/payers/payer-names.js');
      const { EligibilityClient } = await import('../../../src/client/index.js');
      // Batches' results name payers from the service's payer endpoint (ELIGIBILITY_BASE_URL and its credentials).
      const payers = new PayerNames(new EligibilityClient(config.service));
      await withOptionalStore(ctx, async (store) => {
        const access = store && {
          clients: new IntakeClients(store),
          audit: await auditTrail(ctx, store),
          failedKeys: new FailedKeys({ store }),
        };
        const box = store && (await secretBox(config));
        await serveHttp(config, {
          what: 'Intake API',
          role: 'intake',
          host: config.intake.host,
          port: config.intake.port,
          signal,
          create: (client, logger) =>
            createIntakeApi({
              config,
              client,
              taskQueue: config.temporal.taskQueue,
              logger,
              readyTimeoutMs: config.observability.readyTimeoutMs,
              ...(access ? { access } : {}),
              ...(blindIndex ? { blindIndex } : {}),
              ...(store && box ? { events: eventServices(store, box) } : {}),
              ...(patientIdKey ? { patients: { idKey: patientIdKey } } : {}),
              payers,
            }),
        });
      });
    });
}
