import { Command } from 'commander';
import { registerAppointments } from './commands/appointments.js';
import { registerAudit } from './commands/audit.js';
import { registerBatch } from './commands/batch.js';
import { registerBatches } from './commands/batches.js';
import { registerCancel } from './commands/cancel.js';
import { registerClients } from './commands/clients.js';
import { registerEndpoints } from './commands/endpoints.js';
import { registerCodec } from './commands/codec.js';
import { registerConsole } from './commands/console.js';
import { registerDev } from './commands/dev.js';
import { registerDeploy } from './commands/deploy.js';
import { registerGovernor } from './commands/governor.js';
import { registerIntake } from './commands/intake.js';
import { registerList } from './commands/list.js';
import { registerOperators } from './commands/operators.js';
import { registerReview } from './commands/review.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSchedules } from './commands/schedules.js';
import { registerSetup } from './commands/setup.js';
import { registerStart } from './commands/start.js';
import { registerStatus } from './commands/status.js';
import { registerSupplyInput } from './commands/supply-input.js';
import { registerUi } from './commands/ui.js';
import { registerWebhooks } from './commands/webhooks.js';
import { registerReceiver } from './commands/receiver.js';
import { registerWorker } from './commands/worker.js';
import type { CliContext } from './context.js';
import { suggestCloseCommands } from './close-commands.js';

/** The `eligibility` command and every subcommand: parsing and help only; each command connects when it runs. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('eligibility')
    .description('Start, inspect and feed verifications of benefits running on Temporal.')
    .option('--verbose', 'print the stack trace of an error')
    .option(
      '--as <name>',
      'the person you act for, recorded in workflow history and the audit trail (default: your login name); an ' +
        'operator of the directory (DATABASE_URL) limits the commands to their tenants and role',
    )
    // Errors are reported by run() below as one line; subcommands inherit these settings when created after them.
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .showHelpAfterError(false)
    .addHelpText(
      'after',
      `
Configuration comes from environment variables (TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE, ELIGIBILITY_BASE_URL, …;
see the README). Run \`eligibility <command> --help\` for a command's options and examples.

--as <name> naming an active operator of the directory (\`eligibility operators\`, DATABASE_URL) acts within that
operator's tenants and role: another tenant's verification or batch is reported as one that does not exist, lists
hold their tenants' only, a viewer reads only and sees member ids masked; a disabled operator is refused. Any other
name (or none) acts on every tenant, as an administrator: the CLI holds the deployment's Temporal and codec
credentials, so --as is not a sign-in but the person an administrator's tool acts for.`,
    );
  registerSetup(program, ctx);
  registerSchedules(program, ctx);
  registerStart(program, ctx);
  registerBatch(program, ctx);
  registerBatches(program, ctx);
  registerAppointments(program, ctx);
  registerStatus(program, ctx);
  registerList(program, ctx);
  registerDeploy(program, ctx);
  registerClients(program, ctx);
  registerEndpoints(program, ctx);
  registerAudit(program, ctx);
  registerOperators(program, ctx);
  registerGovernor(program, ctx);
  registerSupplyInput(program, ctx);
  registerReview(program, ctx);
  registerCancel(program, ctx);
  registerUi(program, ctx);
  registerWebhooks(program, ctx);
  registerSandbox(program);
  registerWorker(program, ctx);
  registerReceiver(program, ctx);
  registerIntake(program, ctx);
  registerCodec(program, ctx);
  registerConsole(program, ctx);
  registerDev(program, ctx);
  suggestCloseCommands(program);
  return program;
}
