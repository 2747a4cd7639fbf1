import type { FastifyInstance } from 'fastify';
import { mayAct } from '../../../src/access/operators.js';
import {
  actOnRefreshSchedule,
  listRefreshSchedules,
  type RefreshScheduleView,
  type ScheduleAct,
} from '../../../src/schedules/refresh-schedules.js';
import { readRefreshProgress } from '../../../src/schedules/refresh-progress.js';
import { refreshTotals, type RefreshProgress } from '../../../workflows/refresh/refresh.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import { hiddenCsrf } from '../views/layout.js';
import { notFoundPage } from './not-found.js';

const ACTS: Record<ScheduleAct, string> = { pause: 'Pause', unpause: 'Resume', trigger: 'Refresh now' };

/** The latest refresh of a schedule, as people follow it; undefined when none ran or it cannot be read now. */
async function latest(deps: ConsoleDeps, view: RefreshScheduleView): Promise<RefreshProgress | undefined> {
  const refreshId = view.recentRefreshes.at(-1);
  if (!refreshId) return undefined;
  return withDeadline(deps, () => readRefreshProgress(deps.client, refreshId)).catch(() => undefined);
}

function progressCell(p: RefreshProgress | undefined) {
  if (!p) return html`—`;
  const t = p.verifications ? refreshTotals(p.verifications) : { running: 0, verified: 0, failed: 0 };
  return html`<code>${p.refreshId}</code><br />${p.phase}: ${p.patients} patients, ${t.verified} verified, ${t.failed}
    failed, ${t.running} running${p.unanswered ? html`; ${p.unanswered} asked never answered (stuck)` : ''}`;
}

/**
 * The monthly refresh (issue 35): each of the operator's tenants' schedules with its state, next run and latest
 * refresh's counts; operators and administrators pause, resume or start a refresh now (audited), viewers read.
 */
export function schedulePages(app: FastifyInstance, deps: ConsoleDeps): void {
  const list = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'the operator’s tenants’ schedules and counts, no patient data' },
  } as const;
  app.get('/schedules', { config: list }, async (request, reply) => {
    const operator = operatorOf(request);
    const views = await withDeadline(deps, () => listRefreshSchedules(deps.client, operator.tenants ?? undefined));
    const progress = await Promise.all(views.map((v) => latest(deps, v)));
    const acting = mayAct(operator);
    return sendPage(request, reply, { title: 'Monthly refresh', section: '/schedules' }, (csrf) =>
      views.length === 0
        ? html`<p>No refresh schedule. An administrator creates one with <code>eligibility schedules create</code>.</p>`
        : html`<table>
            <thead>
              <tr>
                <th scope="col">Tenant</th>
                <th scope="col">State</th>
                <th scope="col">Runs</th>
                <th scope="col">Next</th>
                <th scope="col">Latest refresh</th>
                <th scope="col"><span class="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              ${views.map(
                (v, i) =>
                  html`<tr>
                    <td>${v.tenant}</td>
                    <td>${v.paused ? `paused${v.note ? ` (${v.note})` : ''}` : 'active'}</td>
                    <td>${v.calendar ? `${v.calendar} ${v.timeZone ?? 'UTC'}` : `every ${v.everySeconds} s`}</td>
                    <td>${v.paused ? '—' : (v.nextRuns[0] ?? '—')}</td>
                    <td>${progressCell(progress[i])}</td>
                    <td>
                      ${
                        acting
                          ? (['trigger', v.paused ? 'unpause' : 'pause'] as ScheduleAct[]).map(
                              (act) =>
                                html`<form method="post" action="/schedules/${v.tenant}/${act}">
                                  ${hiddenCsrf(csrf)}<button type="submit">${ACTS[act]}</button>
                                </form>`,
                            )
                          : ''
                      }
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`,
    );
  });

  app.post<{ Params: { tenant: string; act: string } }>(
    '/schedules/:tenant/:act',
    {
      preHandler: requireCsrf(app),
      config: {
        access: { role: 'operator', to: 'change a refresh schedule' },
        owns: 'schedule',
        audit: (request) => `schedule.${(request.params as { act: string }).act}`,
      },
    },
    async (request, reply) => {
      const { tenant, act } = request.params;
      const operator = operatorOf(request);
      if (!(act in ACTS)) return notFoundPage(request, reply, 'There is no such schedule.');
      try {
        await withDeadline(deps, () =>
          actOnRefreshSchedule(deps.client, tenant, act as ScheduleAct, `${act} by operator ${operator.name}`),
        );
      } catch (err) {
        if ((err as Error).name === 'ScheduleNotFoundError') {
          return notFoundPage(request, reply, 'There is no such schedule.');
        }
        throw err;
      }
      await audited(deps.audit, request);
      request.session.notice =
        act === 'trigger'
          ? `A refresh of ${tenant} starts now (skipped if one runs).`
          : `Schedule of ${tenant}: ${act}d.`;
      return reply.redirect('/schedules', 303);
    },
  );
}
