import type { Command } from 'commander';
import { untilInterrupted, type CliContext } from '../context.js';

export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('run a worker: the workflows and the activities that call the service, until Ctrl-C')
    .addHelpText(
      'after',
      `
Polls TEMPORAL_TASK_QUEUE on TEMPORAL_ADDRESS and calls the service at ELIGIBILITY_BASE_URL. Ctrl-C drains it:
activities in flight finish first.

Example:
  $ TEMPORAL_ADDRESS=127.0.0.1:7233 ELIGIBILITY_BASE_URL=http://127.0.0.1:4010 eligibility worker`,
    )
    .action(async () => {
      // Imported here: the worker SDK (native code) and the workflow bundler are slow to load for other commands.
      const { runWorker } = await import('../../../workers/run-worker.js');
      await runWorker(ctx.config(), { signal: untilInterrupted() });
    });
}
