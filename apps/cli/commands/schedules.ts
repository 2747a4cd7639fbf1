import type { Command } from 'commander';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { recordAccess } from '../audit-record.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { parsedWith } from '../option-parsers.js';
import { fields } from '../../../src/text-format.js';
import type { RefreshScheduleView } from '../../../src/schedules/refresh-schedules.js';
import { refreshTotals, type RefreshProgress } from '../../../workflows/refresh/refresh.js';

const tenantOption = parsedWith(TenantSchema);
const DEFAULT_TENANT = 'default';

function timeZone(value: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    throw new CliError('--time-zone: expected an IANA time zone, such as America/New_York');
  }
}

const nonNegativeInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CliError('expected a whole number, 0 or more');
  return n;
};

function printView(view: RefreshScheduleView): void {
  console.log(
    fields([
      ['schedule', view.scheduleId],
      ['tenant', view.tenant],
      ['state', view.paused ? `paused${view.note ? ` (${view.note})` : ''}` : 'active'],
      ['runs', view.calendar ? `${view.calendar} ${view.timeZone ?? 'UTC'}` : `every ${view.everySeconds} s`],
      ['next', view.nextRuns.join(', ') || '(none)'],
      ['running', view.running.join(', ') || undefined],
      ['recent refreshes', view.recentRefreshes.slice(-3).join(', ') || undefined],
      [
        'taken',
        `${view.actionsTaken} (skipped while one ran: ${view.skippedOverlap}; missed: ${view.missedCatchupWindow})`,
      ],
    ]),
  );
}

/** A refresh's progress as one line: patients asked, verified, failed, running, and any that never answered. */
export function progressLine(p: RefreshProgress): string {
  const t = p.verifications ? refreshTotals(p.verifications) : { running: 0, verified: 0, failed: 0 };
  return (
    `${p.refreshId}: ${p.phase}; patients ${p.patients}, verified ${t.verified}, failed ${t.failed}, ` +
    `running ${t.running} (months ${p.months[0]}…${p.months.at(-1)})` +
    (p.unanswered ? `; ${p.unanswered} asked never answered (their workflows are stuck)` : '')
  );
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** The progress as `--json` prints it: its instants as ISO 8601, as every answer of the product says a time. */
export const progressJson = ({ startedAt, finishedAt, answered, ...rest }: RefreshProgress) => ({
  ...rest,
  startedAt: iso(startedAt),
  ...(finishedAt === undefined ? {} : { finishedAt: iso(finishedAt) }),
  ...(answered === undefined ? {} : { answered: { ...answered, since: iso(answered.since) } }),
});

/** `eligibility schedules list|create|pause|unpause|trigger|progress`: the tenants' monthly refresh (issue 35). */
export function registerSchedules(program: Command, ctx: CliContext): void {
  const schedules = program
    .command('schedules')
    .description('the monthly refresh of each tenant’s active patients: its Temporal Schedule and its runs')
    .addHelpText(
      'after',
      `
One schedule per tenant (refresh-<tenant>): by default on the 1st of the month at 03:00 in the tenant's time zone,
with up to 10 minutes of jitter, skipping a run while the last still runs, and taking a run missed while Temporal
was down within a day. Each run is a refresh workflow (refresh-<tenant>-<time>) that re-verifies once every patient
with a visit in the last 12 months or the next 3, in the bulk lane.

Examples:
  $ eligibility schedules create --tenant clinic-a --time-zone America/New_York
  $ eligibility schedules list
  $ eligibility schedules trigger --tenant clinic-a
  $ eligibility schedules progress --tenant clinic-a`,
    );

  schedules
    .command('list')
    .description('the refresh schedules: state, time zone, next runs, recent refreshes')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      const { listRefreshSchedules } = await import('../../../src/schedules/refresh-schedules.js');
      const { personOf } = await import('../person.js');
      const person = await personOf(ctx);
      await withClient(ctx, async (client) => {
        const views = await listRefreshSchedules(client, person.tenants ?? undefined);
        if (options.json) return console.log(JSON.stringify(views, null, 2));
        if (views.length === 0) return console.log('no refresh schedule (create one: eligibility schedules create)');
        views.forEach((view, i) => {
          if (i > 0) console.log('');
          printView(view);
        });
      });
    });

  schedules
    .command('create')
    .description('create the tenant’s refresh schedule, or change its settings')
    .option('--tenant <tenant>', `the tenant (default: ${DEFAULT_TENANT}, an install without tenants)`, tenantOption)
    .option('--time-zone <zone>', 'IANA time zone of the calendar (default UTC)', timeZone)
    .option('--day <n>', 'day of the month (default 1)', positiveInt)
    .option('--hour <n>', 'hour (default 3)', nonNegativeInt)
    .option('--jitter-seconds <n>', 'random delay of each run, up to (default 600)', nonNegativeInt)
    .option(
      '--catchup-seconds <n>',
      'a run missed while Temporal was down is taken within (default 86400)',
      positiveInt,
    )
    .option('--every-seconds <n>', 'run every n seconds instead of the calendar (tests, demonstrations)', positiveInt)
    .option('--past-months <n>', 'active: a visit in the last n months (default 12)', nonNegativeInt)
    .option('--next-months <n>', 'or in the next n months (default 3)', nonNegativeInt)
    .option('--paused', 'create it paused')
    .action(
      async (options: {
        tenant?: string;
        timeZone?: string;
        day?: number;
        hour?: number;
        jitterSeconds?: number;
        catchupSeconds?: number;
        everySeconds?: number;
        pastMonths?: number;
        nextMonths?: number;
        paused?: boolean;
      }) => {
        const tenant = options.tenant ?? DEFAULT_TENANT;
        await mayChange(ctx, tenant, 'schedule.create', 'create or change a schedule');
        const { putRefreshSchedule, describeRefreshSchedule } =
          await import('../../../src/schedules/refresh-schedules.js');
        await withClient(ctx, async (client, config) => {
          const window = {
            ...(options.pastMonths !== undefined ? { pastMonths: options.pastMonths } : {}),
            ...(options.nextMonths !== undefined ? { nextMonths: options.nextMonths } : {}),
          };
          const { created } = await putRefreshSchedule(client, config.temporal.taskQueue, {
            tenant,
            ...(options.timeZone ? { timeZone: options.timeZone } : {}),
            ...(options.day !== undefined ? { dayOfMonth: options.day } : {}),
            ...(options.hour !== undefined ? { hour: options.hour } : {}),
            ...(options.jitterSeconds !== undefined ? { jitterSeconds: options.jitterSeconds } : {}),
            ...(options.catchupSeconds !== undefined ? { catchupWindowSeconds: options.catchupSeconds } : {}),
            ...(options.everySeconds !== undefined ? { everySeconds: options.everySeconds } : {}),
            ...(Object.keys(window).length > 0 ? { window } : {}),
            ...(options.paused ? { paused: true } : {}),
          });
          await audit(ctx, tenant, 'schedule.create');
          console.log(created ? 'created' : 'updated');
          printView(await describeRefreshSchedule(client, tenant));
        });
      },
    );

  for (const [act, what] of [
    ['pause', 'pause the tenant’s refresh schedule'],
    ['unpause', 'resume the tenant’s refresh schedule'],
    ['trigger', 'start a refresh now (skipped while one runs)'],
  ] as const) {
    schedules
      .command(act)
      .description(what)
      .option('--tenant <tenant>', `the tenant (default: ${DEFAULT_TENANT})`, tenantOption)
      .option('--note <text>', 'why (kept on the schedule; no patient data)')
      .action(async (options: { tenant?: string; note?: string }) => {
        const tenant = options.tenant ?? DEFAULT_TENANT;
        await mayChange(ctx, tenant, `schedule.${act}`, what);
        const { actOnRefreshSchedule, describeRefreshSchedule } =
          await import('../../../src/schedules/refresh-schedules.js');
        await withClient(ctx, async (client) => {
          await existing(() => describeRefreshSchedule(client, tenant), tenant);
          await actOnRefreshSchedule(client, tenant, act, options.note ?? `${act} by ${ctx.identity()}`);
          await audit(ctx, tenant, `schedule.${act}`);
          printView(await describeRefreshSchedule(client, tenant));
        });
      });
  }

  schedules
    .command('progress')
    .description('the tenant’s latest refresh (or the one named): patients asked, verified, failed, running')
    .option('--tenant <tenant>', `the tenant (default: ${DEFAULT_TENANT})`, tenantOption)
    .option('--refresh <workflowId>', 'a refresh by its workflow id (default: the latest)')
    .option('--json', 'print it as JSON')
    .action(async (options: { tenant?: string; refresh?: string; json?: boolean }) => {
      const tenant = options.tenant ?? DEFAULT_TENANT;
      const { personOf } = await import('../person.js');
      const { sees } = await import('../../../src/access/tenancy.js');
      if (!sees((await personOf(ctx)).tenants, tenant === DEFAULT_TENANT ? null : tenant)) {
        throw new CliError(`no refresh schedule for tenant ${tenant}`);
      }
      const { describeRefreshSchedule } = await import('../../../src/schedules/refresh-schedules.js');
      const { readRefreshProgress } = await import('../../../src/schedules/refresh-progress.js');
      await withClient(ctx, async (client) => {
        const refreshId =
          options.refresh ??
          (await existing(() => describeRefreshSchedule(client, tenant), tenant)).recentRefreshes.at(-1);
        if (!refreshId) return console.log(`no refresh of tenant ${tenant} has run yet`);
        const progress = await readRefreshProgress(client, refreshId);
        if (options.json) return console.log(JSON.stringify(progressJson(progress), null, 2));
        console.log(progressLine(progress));
      });
    });
}

async function existing<T>(describe: () => Promise<T>, tenant: string): Promise<T> {
  const { ScheduleNotFoundError } = await import('@temporalio/client');
  try {
    return await describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) throw new CliError(`no refresh schedule for tenant ${tenant}`);
    throw err;
  }
}

/** A viewer changes nothing; an operator only their tenants' schedules (refused with a `denied` audit entry). */
async function mayChange(ctx: CliContext, tenant: string, action: string, what: string): Promise<void> {
  const { requireMayAct, personOf } = await import('../person.js');
  const { sees } = await import('../../../src/access/tenancy.js');
  await requireMayAct(ctx, { action, what });
  const person = await personOf(ctx);
  if (!sees(person.tenants, tenant)) {
    throw new CliError(`--tenant ${tenant} is not one of the tenants ${person.name} acts for`);
  }
}

const audit = (ctx: CliContext, tenant: string, action: string) =>
  recordAccess(ctx, { action, tenant: tenant === DEFAULT_TENANT ? null : tenant, outcome: 'ok' });
