import type { Command } from 'commander';
import { untilInterrupted } from '../context.js';

export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('run the local imitation of the eligibility service until Ctrl-C')
    .addHelpText(
      'after',
      `
Listens on SANDBOX_HOST:SANDBOX_PORT (default 127.0.0.1:4010); SANDBOX_* variables set its behaviour and faults.

Example:
  $ SANDBOX_PORT=4010 eligibility sandbox`,
    )
    .action(async () => {
      // Imported here so the other commands do not load the HTTP server.
      const { runSandbox } = await import('../../../sandbox/run-sandbox.js');
      const { loadSandboxConfig } = await import('../../../sandbox/config.js');
      await runSandbox(loadSandboxConfig(), { signal: untilInterrupted() });
    });
}
