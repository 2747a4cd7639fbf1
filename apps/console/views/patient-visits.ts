import { checkWorkflowId, visitCoverage, type VisitCoverage } from '../../../src/visits/coverage.js';
import type { Appointment, PatientView } from '../../../workflows/patient/patient.js';
import { html, type Html } from './html.js';
import { verificationLink } from './links.js';
import { payer, type PayerNameMap } from './payer.js';
import { COVERAGE_WORDS } from './coverage-words.js';

const DAY_MS = 86_400_000;

/** A visit's coverage as a badge, linked to the verification it stands on when there is one. */
export function coverageBadge(state: VisitCoverage, workflowId: string | undefined): Html {
  const badge = html`<span class="coverage coverage-${state}">${COVERAGE_WORDS[state]}</span>`;
  return workflowId ? html`${badge}<br /><small>${verificationLink(workflowId)}</small>` : badge;
}

/** A visit has passed once its day has ended in its zone (`dayStartsAt` is 00:00 there). */
export const visitHasPassed = (a: Pick<Appointment, 'dayStartsAt'>, now: number) => a.dayStartsAt + DAY_MS <= now;

/** The day's order: by day, then by time (visits without one last), then by id. */
export const byVisitTime = (a: Appointment, b: Appointment) =>
  a.dayStartsAt - b.dayStartsAt ||
  (a.startTime ?? '99:99').localeCompare(b.startTime ?? '99:99') ||
  a.appointmentId.localeCompare(b.appointmentId);

/** `2026-12-01 09:30 (America/New_York)`: the visit's date and local time, as the practice booked it. */
export const visitWhen = (a: Pick<Appointment, 'dateOfService' | 'startTime' | 'timeZone'>): string =>
  `${a.dateOfService}${a.startTime ? ` ${a.startTime}` : ''} (${a.timeZone})`;

function visitsTable(
  id: string,
  heading: string,
  visits: readonly Appointment[],
  view: PatientView,
  names: PayerNameMap,
  awaiting: ReadonlySet<string>,
) {
  const copy = { ...view, revision: view.copies ?? 0 };
  return html`<section class="card" aria-labelledby="${id}">
    <h2 id="${id}">${heading}</h2>
    ${
      visits.length === 0
        ? html`<p>None.</p>`
        : html`<div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Visit</th>
                  <th scope="col">Status</th>
                  <th scope="col">Payer</th>
                  <th scope="col">Coverage</th>
                </tr>
              </thead>
              <tbody>
                ${visits.map(
                  (a) =>
                    html`<tr>
                      <td>${visitWhen(a)}</td>
                      <td>${a.status}</td>
                      <td>${payer(a.payerId, names) ?? 'the last known'}</td>
                      <td>
                        ${a.status === 'cancelled' ? '' : coverageBadge(visitCoverage(a, copy, awaiting), checkWorkflowId(a))}
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

/** The patient's visits, upcoming (soonest first) apart from past ones (latest first). */
export function patientVisits(
  view: PatientView,
  names: PayerNameMap,
  now = Date.now(),
  awaiting: ReadonlySet<string> = new Set(),
): Html {
  const upcoming = view.appointments.filter((a) => !visitHasPassed(a, now)).sort(byVisitTime);
  const past = view.appointments
    .filter((a) => visitHasPassed(a, now))
    .sort(byVisitTime)
    .reverse();
  return html`${visitsTable('upcoming-h', 'Upcoming visits', upcoming, view, names, awaiting)}
  ${visitsTable('past-h', 'Past visits', past, view, names, awaiting)}`;
}

/** Verifications a check started that have not ended yet: on the timeline as "checking" until they do. */
export function checksInProgress(view: PatientView): { workflowId: string; at: number }[] {
  const ended = new Set(view.timeline.map((e) => e.workflowId));
  const started = new Map<string, number>();
  for (const a of view.appointments) {
    for (const c of a.checks) {
      const id = c.state === 'verified' ? c.verificationWorkflowId : undefined;
      if (id && !ended.has(id)) started.set(id, Math.min(c.at, started.get(id) ?? c.at));
    }
  }
  return [...started].map(([workflowId, at]) => ({ workflowId, at })).sort((a, b) => b.at - a.at);
}
