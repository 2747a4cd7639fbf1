import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
} from '@temporalio/client';
import { DEFAULT_EVENT_TENANT } from '../../workflows/shared/search-attributes.js';
import { refreshScheduleId } from '../../workflows/shared/ids.js';
import type { ActiveWindow, RefreshWorkflowInput } from '../../workflows/refresh/refresh.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { startMetadata } from '../../workflows/shared/start-metadata.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { refreshWorkflow } from '../../workflows/refresh/index.js';

/*
 * A tenant's monthly refresh as a Temporal Schedule (issue 35, decision 0050): `refresh-<tenant>`, which starts a
 * `refreshWorkflow` per action. The tenant's time zone lives on the schedule (its calendar's zone). No patient value
 * reaches a schedule: its id, action and arguments hold a tenant, a window and intervals.
 */

export interface RefreshScheduleSettings {
  tenant: string;
  /** IANA zone of the calendar (default UTC): 03:00 on the 1st is the tenant's own. */
  timeZone?: string;
  /** Day of the month, hour and minute (default the 1st at 03:00). */
  dayOfMonth?: number;
  hour?: number;
  minute?: number;
  /** Random delay added to each action (seconds; default 600), so tenants at one time do not start at once. */
  jitterSeconds?: number;
  /** A run missed while the server was down is still taken within this (seconds; default 1 day). */
  catchupWindowSeconds?: number;
  /** Instead of the calendar (tests and benchmarks): every this many seconds. */
  everySeconds?: number;
  window?: Partial<ActiveWindow>;
  policy?: RefreshWorkflowInput['policy'];
  paused?: boolean;
}

export const REFRESH_DEFAULTS = {
  timeZone: 'UTC',
  dayOfMonth: 1,
  hour: 3,
  minute: 0,
  jitterSeconds: 600,
  catchupWindowSeconds: 86_400,
} as const;

const SCHEDULE_PREFIX = 'refresh-';

function scheduleOptions(settings: RefreshScheduleSettings, taskQueue: string): ScheduleOptions {
  const s = { ...REFRESH_DEFAULTS, ...settings };
  const tenantAttribute = settings.tenant === DEFAULT_EVENT_TENANT ? undefined : settings.tenant;
  const args: [RefreshWorkflowInput] = [
    {
      tenant: settings.tenant,
      ...(settings.window ? { window: settings.window } : {}),
      ...(settings.policy ? { policy: settings.policy } : {}),
    },
  ];
  return {
    scheduleId: refreshScheduleId(settings.tenant),
    spec: settings.everySeconds
      ? { intervals: [{ every: settings.everySeconds * 1000 }], jitter: s.jitterSeconds * 1000 }
      : {
          calendars: [{ dayOfMonth: s.dayOfMonth, hour: s.hour, minute: s.minute }],
          timezone: s.timeZone,
          jitter: s.jitterSeconds * 1000,
        },
    action: {
      type: 'startWorkflow',
      workflowType: WorkflowType.refresh,
      // The server appends the scheduled time: `refresh-<tenant>-<time>`, one id per refresh.
      workflowId: refreshScheduleId(settings.tenant),
      taskQueue,
      args,
      ...(tenantAttribute ? { typedSearchAttributes: [{ key: Tenant, value: tenantAttribute }] } : {}),
      ...startMetadata('Monthly refresh', { tenant: settings.tenant }),
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: s.catchupWindowSeconds * 1000 },
    state: { paused: settings.paused ?? false, ...(settings.paused ? { note: 'created paused' } : {}) },
  };
}

/** Creates the tenant's schedule, or replaces its settings when it exists: `created` says which. */
export async function putRefreshSchedule(
  client: Client,
  taskQueue: string,
  settings: RefreshScheduleSettings,
): Promise<{ scheduleId: string; created: boolean }> {
  const options = scheduleOptions(settings, taskQueue);
  const handle = client.schedule.getHandle(options.scheduleId);
  try {
    await handle.describe();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    await client.schedule.create<typeof refreshWorkflow>(options as ScheduleOptions<never>);
    return { scheduleId: options.scheduleId, created: true };
  }
  await handle.update((previous) => ({
    ...previous,
    spec: options.spec,
    action: options.action,
    policies: options.policies,
  }));
  return { scheduleId: options.scheduleId, created: false };
}

/** Creates the tenant's schedule when it has none; one that exists is left as people set it. */
export async function ensureRefreshSchedule(
  client: Client,
  taskQueue: string,
  settings: RefreshScheduleSettings,
): Promise<boolean> {
  try {
    await client.schedule.getHandle(refreshScheduleId(settings.tenant)).describe();
    return false;
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  return (await putRefreshSchedule(client, taskQueue, settings)).created;
}

/** A schedule as people read it: when it runs, whether paused, its recent refreshes. */
export interface RefreshScheduleView {
  scheduleId: string;
  tenant: string;
  paused: boolean;
  note?: string;
  timeZone?: string;
  calendar?: string;
  everySeconds?: number;
  nextRuns: string[];
  /** Workflow ids of the refreshes it started, oldest first. */
  recentRefreshes: string[];
  running: string[];
  actionsTaken: number;
  skippedOverlap: number;
  missedCatchupWindow: number;
}

export function viewOf(d: ScheduleDescription): RefreshScheduleView {
  const args = (d.action.args ?? []) as [RefreshWorkflowInput?];
  const calendar = d.spec.calendars?.[0];
  const every = d.spec.intervals?.[0]?.every;
  return {
    scheduleId: d.scheduleId,
    tenant: args[0]?.tenant ?? d.scheduleId.slice(SCHEDULE_PREFIX.length),
    paused: d.state.paused,
    ...(d.state.note ? { note: d.state.note } : {}),
    ...(d.spec.timezone ? { timeZone: d.spec.timezone } : {}),
    ...(calendar
      ? {
          calendar: `day ${rangeText(calendar.dayOfMonth)} at ${pad(rangeText(calendar.hour))}:${pad(rangeText(calendar.minute))}`,
        }
      : {}),
    ...(every !== undefined ? { everySeconds: Math.round(Number(every) / 1000) } : {}),
    nextRuns: d.info.nextActionTimes.slice(0, 3).map((t) => t.toISOString()),
    recentRefreshes: d.info.recentActions.map((a) => a.action.workflow.workflowId),
    running: d.info.runningActions.map((a) => a.workflow.workflowId),
    actionsTaken: d.info.numActionsTaken,
    skippedOverlap: d.info.numActionsSkippedOverlap,
    missedCatchupWindow: d.info.numActionsMissedCatchupWindow,
  };
}

const pad = (text: string) => (/^\d$/.test(text) ? `0${text}` : text);
function rangeText(ranges: unknown): string {
  const list = (Array.isArray(ranges) ? ranges : [ranges]) as { start: number; end?: number }[];
  return list.map((r) => (r.end !== undefined && r.end !== r.start ? `${r.start}-${r.end}` : `${r.start}`)).join(',');
}

/** The refresh schedules, of the given tenants only when `tenants` is set. */
export async function listRefreshSchedules(
  client: Client,
  tenants?: readonly string[],
): Promise<RefreshScheduleView[]> {
  const views: RefreshScheduleView[] = [];
  for await (const summary of client.schedule.list()) {
    if (!summary.scheduleId.startsWith(SCHEDULE_PREFIX)) continue;
    if (tenants && !tenants.some((t) => refreshScheduleId(t) === summary.scheduleId)) continue;
    if (summary.action && summary.action.workflowType !== WorkflowType.refresh) continue;
    views.push(viewOf(await client.schedule.getHandle(summary.scheduleId).describe()));
  }
  return views.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
}

export async function describeRefreshSchedule(client: Client, tenant: string): Promise<RefreshScheduleView> {
  return viewOf(await client.schedule.getHandle(refreshScheduleId(tenant)).describe());
}

export type ScheduleAct = 'pause' | 'unpause' | 'trigger';

/** Pauses, resumes or triggers (a refresh now; skipped while one runs) the tenant's schedule; `note` says who and why. */
export async function actOnRefreshSchedule(
  client: Client,
  tenant: string,
  act: ScheduleAct,
  note: string,
): Promise<void> {
  const handle = client.schedule.getHandle(refreshScheduleId(tenant));
  if (act === 'pause') await handle.pause(note);
  else if (act === 'unpause') await handle.unpause(note);
  else await handle.trigger(ScheduleOverlapPolicy.SKIP);
}

export { ScheduleNotFoundError };
