import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .description('run a worker: the workflows and the activities that call the service, until Ctrl-C')
    .option(
      '--in-process',
      'run in this process as started, without restarting with WORKER_HEAP_MB and MALLOC_ARENA_MAX applied',
    )
    .addHelpText(
      'after',
      `
Polls TEMPORAL_TASK_QUEUE on TEMPORAL_ADDRESS and calls the service at ELIGIBILITY_BASE_URL. Ctrl-C drains it:
activities in flight finish first. It restarts itself once, in a child process whose V8 heaps and malloc arenas are
bounded (WORKER_HEAP_MB, MALLOC_ARENA_MAX), and refuses to start when WORKER_MAX_CACHED_WORKFLOWS cannot fit.
WORKER_HTTP_HOST:WORKER_HTTP_PORT (default 127.0.0.1:4040) serves /metrics (Temporal's and the project's), /healthz
and /readyz.

Example:
  $ TEMPORAL_ADDRESS=127.0.0.1:7233 ELIGIBILITY_BASE_URL=http://127.0.0.1:4010 eligibility worker`,
    )
    .action(async (options: { inProcess?: boolean }) => {
      const config = ctx.config('worker');
      // Imported here: the worker SDK (native code) and the workflow bundler are slow to load for other commands.
      const { relaunchWithMemoryLimits, untilStopped } = await import('../../../workers/relaunch.js');
      if (!options.inProcess) {
        // The child's exit is this command's: it printed its own errors, so nothing is added here.
        process.exit(await relaunchWithMemoryLimits(config.worker));
      }
      const { runWorker } = await import('../../../workers/run-worker.js');
      const { installWorkerRuntime } = await import('../../../workers/worker-runtime.js');
      const { createLogger } = await import('../../../src/logging.js');
      const coreMetricsUrl = await installWorkerRuntime(config.worker, createLogger(config, 'worker'));
      await runWorker(config, { signal: untilStopped(), coreMetricsUrl });
    });
}
