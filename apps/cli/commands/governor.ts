import type { Command } from 'commander';
import { withClient, type CliContext } from '../context.js';
import { fields } from '../../../src/text-format.js';

const rate = (rps: number | undefined) => (rps === undefined ? undefined : `${rps} calls/s`);

export function registerGovernor(program: Command, ctx: CliContext): void {
  program
    .command('governor')
    .description('show the traffic governor of a task queue: its rate, the limit it met, why it last moved')
    .option('--task-queue <name>', 'the task queue (default: TEMPORAL_TASK_QUEUE)')
    .option('--json', 'print it as JSON')
    .addHelpText(
      'after',
      `
One governor per task queue (workflow governor-<task queue>) sets the queue's activity dispatch rate, the calls per
second to the service across every worker: it raises the rate while calls succeed and cuts it on a 429, never above
ELIGIBILITY_MAX_RPS when that is set. The same rate shows in \`temporal task-queue config get\`.

Examples:
  $ eligibility governor
  $ eligibility governor --task-queue eligibility --json`,
    )
    .action(async (options: { taskQueue?: string; json?: boolean }) => {
      const { describeGovernor } = await import('../../../src/temporal/governor.js');
      await withClient(ctx, async (client, config) => {
        const view = await describeGovernor(client, options.taskQueue ?? config.temporal.taskQueue);
        if (options.json) return console.log(JSON.stringify(view, null, 2));
        const s = view.status;
        const change =
          s?.lastChange && `${s.lastChange.at}: ${s.lastChange.fromRps} -> ${s.rps} (${s.lastChange.reason})`;
        console.log(
          fields([
            ['taskQueue', view.taskQueue],
            ['queue rate', rate(view.queueRps) ?? '(none set: the workers’ ELIGIBILITY_MAX_RPS applies)'],
            [
              'governor',
              s ? `${s.mode} (workflow governor-${view.taskQueue})` : '(none has run: no worker started it)',
            ],
            ['rate', rate(s?.rps)],
            ['max', s ? (rate(s.maxRps ?? undefined) ?? 'unset (discovering)') : undefined],
            ['rate limited at', rate(s?.limitedAtRps)],
            ['demand', rate(s?.demandRps)],
            ['workers reporting', s?.workers],
            ['holding until', s?.holdUntil],
            ['last change', change],
            [
              'totals',
              s &&
                `${s.totals.calls} calls, ${s.totals.rateLimited} rate limited, ${s.totals.raises} raises, ` +
                  `${s.totals.cuts} cuts, ${s.totals.reports} reports`,
            ],
          ]),
        );
      });
    });
}
