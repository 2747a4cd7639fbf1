import { CommanderError } from 'commander';
import { CliError, createContext } from './context.js';
import { buildProgram } from './program.js';

/**
 * Runs the `eligibility` command line `argv` (as `process.argv`) and returns its exit code: failures are one line on
 * stderr. `main.ts` exits with it; tests call it in their own process where the process itself is not under test.
 */
export async function runCommand(argv: readonly string[]): Promise<number> {
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
