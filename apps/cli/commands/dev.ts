import path from 'node:path';
import type { Command } from 'commander';
import { untilInterrupted, type CliContext } from '../context.js';

const log = (line: string) => console.log(line);

export function registerDev(program: Command, ctx: CliContext): void {
  program
    .command('dev')
    .description(
      'the whole stack on embedded defaults: Temporal dev server, sandbox, worker, webhooks, intake API, operator console',
    )
    .option('--no-temporal-server', 'use the Temporal server at TEMPORAL_ADDRESS instead of starting one')
    .option('--no-example', 'do not run the example intake file')
    .addHelpText(
      'after',
      `
Starts a Temporal dev server (state in DEV_DATA_DIR, Temporal UI on TEMPORAL_UI_PORT), the sandbox, a worker, the
webhook receiver and the intake API; registers the webhook; runs DEV_EXAMPLE_FILE; prints where each verification
stands and keeps running until Ctrl-C, then stops everything. \`npm start\` runs this command.

Examples:
  $ eligibility dev
  $ TEMPORAL_ADDRESS=127.0.0.1:7233 eligibility dev --no-temporal-server`,
    )
    .action(async (options: { temporalServer: boolean; example: boolean }) => {
      // Imported here so that other commands and `--help` do not load the worker and the servers.
      const { Runtime } = await import('@temporalio/worker');
      const { temporalLogger } = await import('../../../workers/temporal-logger.js');
      const { createLogger } = await import('../../../src/logging.js');
      const { SANDBOX_EVENT_NAMES } = await import('../../../src/contract/index.js');
      const { exampleSummary, runExample } = await import('../../dev/example-run.js');
      const { startDevStack } = await import('../../dev/stack.js');
      const { loadSandboxConfig } = await import('../../../sandbox/config.js');
      const { registerWebhook } = await import('../../../src/temporal/register-webhook.js');
      const interrupted = untilInterrupted();
      // The worker's own progress lines (bundling, state changes) would bury the summary a person reads here.
      // Through the project's redacting logger like every other line, errors only.
      Runtime.install({
        logger: temporalLogger(createLogger({ log: { level: 'error' } }, 'worker')),
        telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
      });
      const stack = await startDevStack({
        config: ctx.config('dev'),
        sandbox: loadSandboxConfig(),
        startTemporal: options.temporalServer,
        log,
      });
      try {
        const { config, client } = stack;
        const taskQueue = config.temporal.taskQueue;
        // The dev sandbox starts empty every run, so an endpoint registered by an earlier run is not reused.
        const endpoint = await registerWebhook(client, {
          url: stack.webhookUrl,
          events: [...SANDBOX_EVENT_NAMES],
          taskQueue,
          reuse: false,
        });
        log(`Webhook ${endpoint.endpointId} subscribed to ${endpoint.events.join(', ')}`);
        // The addresses first: the servers answer now, while the example batch takes its seconds to settle.
        log(stack.uiUrl ? `\nTemporal UI: ${stack.uiUrl}` : `\nTemporal server: ${config.temporal.address}`);
        const keyFrom = stack.intakeKeyFile
          ? `its key is in ${path.relative(process.cwd(), stack.intakeKeyFile) || stack.intakeKeyFile}`
          : 'its key is INTAKE_API_KEY';
        const signIn = stack.consoleCredentials
          ? `sign in as ${stack.consoleCredentials.name} with password ${stack.consoleCredentials.password}, made for this run`
          : 'operators of CONSOLE_OPERATORS sign in';
        log(`Operator console: ${stack.consoleUrl} (${signIn})`);
        log(`Intake API: ${stack.intakeUrl} (header x-api-key; ${keyFrom}).`);
        log(
          `Database (intake clients, audit trail): DATABASE_URL=${stack.databaseUrl} npx eligibility clients|audit …`,
        );
        const stopped = new Promise<undefined>((resolve) => {
          if (interrupted.aborted) resolve(undefined);
          interrupted.addEventListener('abort', () => resolve(undefined));
        });
        if (options.example) {
          log(`\nRunning ${config.dev.exampleFile} …`);
          const example = runExample(client, config.dev.exampleFile, {
            taskQueue,
            sandboxUrl: stack.sandboxUrl,
            graceSeconds: config.dev.graceSeconds,
          });
          // Ctrl-C while the example settles stops at once; the example, cut off as the stack stops, is let go.
          example.catch(() => undefined);
          const run = await Promise.race([example, stopped]);
          if (run) {
            log(`\n${exampleSummary(run, stack.intakeUrl)}\n`);
            const waiting = run.settled.find((r) => r.stage === 'awaiting-input' && r.pendingRuns.length > 0);
            if (waiting) {
              log('A verification awaits input. Find it in Temporal UI with VerificationStage = "awaiting-input", or:');
              log(`  npx eligibility list --stage awaiting-input`);
              log(
                `  npx eligibility supply-input ${waiting.workflowId} ${waiting.pendingRuns[0]} --input '{"note":"ok"}'`,
              );
              log(`  or answer it in the operator console: ${stack.consoleUrl}/runs/${waiting.workflowId}`);
            }
          }
        }
        if (!interrupted.aborted) log('Ctrl-C stops everything.');
        await stopped;
        log('Stopping…');
      } finally {
        await stack.stop();
      }
      log('Stopped.');
    });
}
