import type { Command } from 'commander';
import { CliError, untilInterrupted, withOptionalStore, type CliContext } from '../context.js';
import { readPassword } from '../read-password.js';
import { auditTrail } from '../audit-record.js';

export function registerConsole(program: Command, ctx: CliContext): void {
  program
    .command('console')
    .description('serve the operator console (answer runs, decide reviews, follow batches) until Ctrl-C or SIGTERM')
    .addHelpText(
      'after',
      `
Listens on CONSOLE_HOST:CONSOLE_PORT (default 127.0.0.1:4050). Operators sign in with the names and passwords of
CONSOLE_OPERATORS (scrypt hashes; \`eligibility console-operator\` makes an entry); CONSOLE_SESSION_SECRET keys the
session cookie. Neither has a default. Behind a TLS proxy set CONSOLE_TRUST_PROXY=true (the cookie is then Secure).
With DATABASE_URL, sign-ins, every page that shows a patient, results downloads and every change go to the audit trail,
and tenants' event endpoints are shown (and changed by administrators) on /event-endpoints.
With OIDC_ISSUER and OIDC_CLIENT_ID, operators may also sign in through the organisation's OpenID Connect provider.

Example:
  $ CONSOLE_OPERATORS="$(printf %s "$PASSWORD" | eligibility console-operator alice)" \\
    CONSOLE_SESSION_SECRET=$(openssl rand -hex 32) eligibility console`,
    )
    .action(async () => {
      const signal = untilInterrupted();
      // Imported here so the other commands do not load the HTTP server and the Temporal client.
      const { serveHttp } = await import('../serve-http.js');
      const { createConsole, requireConsoleSecrets } = await import('../../console/server.js');
      const config = ctx.config('console');
      // Refused before connecting: missing operators or session key are named at once (with a database, its
      // operator directory may hold the operators instead of CONSOLE_OPERATORS; OIDC_ISSUER's provider may too).
      requireConsoleSecrets(config.console, { directory: Boolean(config.database.url) });
      // With a database, what operators see of patients and what they change goes to the audit trail.
      const { OperatorDirectory } = await import('../../../src/access/operators.js');
      const { IntakeClients } = await import('../../../src/access/intake-clients.js');
      const { eventServices } = await import('../../../src/events/services.js');
      const { SecretBox } = await import('../../../src/events/secret-box.js');
      const { loadBlindIndexKeys } = await import('../../../src/blind-index/keys.js');
      const { Visits } = await import('../../../src/visits/index.js');
      const { sealingKeys } = await import('../../../src/codec/sealing.js');
      // Payer names from the service's payer endpoint, with the worker's credentials for it.
      const { PayerNames } = await import('../../../src/payers/payer-names.js');
      const { EligibilityClient } = await import('../../../src/client/index.js');
      const blindIndex = await loadBlindIndexKeys(config.codec);
      await withOptionalStore(ctx, async (store) => {
        const audit = store && (await auditTrail(ctx, store));
        const directory = store && new OperatorDirectory(store);
        const clients = store && new IntakeClients(store);
        // Tenants' event endpoints, as the intake API gets them, and today's visits from the patients' copies: both
        // sealed with the codec keys.
        const sealing = store && (await sealingKeys(config));
        const box = store && new SecretBox(sealing);
        const visits = store && new Visits(store, sealing);
        await serveHttp(config, {
          what: 'Operator console',
          role: 'console',
          host: config.console.host,
          port: config.console.port,
          signal,
          create: (client, logger) =>
            createConsole({
              config,
              client,
              logger,
              audit,
              directory,
              ...(blindIndex ? { blindIndex } : {}),
              payers: new PayerNames(new EligibilityClient(config.service)),
              ...(store ? { sessions: store } : {}),
              ...(clients ? { clients } : {}),
              ...(store && box ? { events: eventServices(store, box) } : {}),
              ...(visits ? { visits } : {}),
            }),
        });
      });
    });

  program
    .command('console-operator')
    .description('print a CONSOLE_OPERATORS entry (name and scrypt hash) for a password read from stdin')
    .argument('<name>', 'the operator name (letters, digits and . _ @ -); shown in history as console:<name>')
    .addHelpText(
      'after',
      `
Join several entries with commas. Example:
  $ printf %s 'a long passphrase' | eligibility console-operator alice`,
    )
    .action(async (name: string) => {
      if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name)) throw new CliError('the name takes letters, digits and . _ @ - only');
      const { operatorEntry } = await import('../../../src/access/operator-passwords.js');
      console.log(await operatorEntry(name, await readPassword()));
    });
}
