import { Command, CommanderError } from 'commander';
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
import { CliError, createContext, type CliContext } from './context.js';

function buildProgram(ctx: CliContext): Command {
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
  registerSandbox(program, ctx);
  registerWorker(program, ctx);
  registerReceiver(program, ctx);
  registerIntake(program, ctx);
  registerCodec(program, ctx);
  registerConsole(program, ctx);
  registerDev(program, ctx);
  return program;
}

async function run(argv: readonly string[]): Promise<number> {
  // `--as` is known once the command line is parsed; commands ask for the identity only when they connect.
  const ctx = createContext(() => program.opts<{ as?: string }>().as);
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    // --help and --version end here too (exitOverride): their text is printed, so nothing loads errors.ts for them.
    if (err instanceof CommanderError && err.exitCode === 0) return 0;
    // Loaded only on failure: it knows the Temporal client's error classes, which --help need not load.
    const { reportError } = await import('./errors.js');
    const { line, exitCode } = reportError(err, () => {
      try {
        return ctx.config().temporal.address;
      } catch {
        return undefined;
      }
    });
    if (line !== undefined) console.error(`eligibility: ${line}`);
    const quiet = err instanceof CliError || err instanceof CommanderError;
    // The whole error, its stack and its causes (a gRPC status, a socket error), for --verbose only.
    if (program.opts<{ verbose?: boolean }>().verbose && !quiet) console.error(err);
    return exitCode;
  }
}

run(process.argv).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('eligibility:', err);
    process.exit(1);
  },
);
