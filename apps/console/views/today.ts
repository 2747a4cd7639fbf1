import type { DayOfVisits, Visit, VisitCoverage } from '../../../src/visits/index.js';

/** A visit as the operator may see its patient (apps/console/masking.ts `patientNameFor`). */
export type ShownVisit = Omit<Visit, 'patient'> & { patient?: { name: string; dateOfBirth: string } };
/** The day with its patients as the operator may see them. */
export type ShownDay = Omit<DayOfVisits, 'visits'> & { visits: ShownVisit[] };
import { VISIT_COVERAGES } from '../../../src/visits/index.js';
import { html, type Html } from './html.js';
import { groupLinks } from './lists.js';
import { pager } from './paging.js';
import { payer, type PayerNameMap } from './payer.js';
import { COVERAGE_WORDS } from './coverage-words.js';

/** What the page was asked for, kept by every link of it (identifiers and a date only: never a patient value). */
export interface TodayFilters {
  day: string;
  tenant?: string;
  provider?: string;
  coverage?: VisitCoverage;
}

export const todayHref = (f: TodayFilters, page?: number): string => {
  const params = new URLSearchParams({ day: f.day });
  if (f.tenant) params.set('tenant', f.tenant);
  if (f.provider) params.set('provider', f.provider);
  if (f.coverage) params.set('coverage', f.coverage);
  if (page && page > 1) params.set('page', String(page));
  return `/today?${params.toString()}`;
};

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const dayWords = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** The previous and next days, and the days ahead with their visits, a click away. */
function dayLinks(f: TodayFilters, day: ShownDay): Html {
  const ahead = new Map(day.ahead.map((a) => [a.day, a.visits]));
  const next = [1, 2, 3, 4, 5].map((n) => shiftDay(f.day, n));
  return html`<nav class="pager" aria-label="Days">
    <a href="${todayHref({ ...f, day: shiftDay(f.day, -1), coverage: undefined })}" rel="prev">Previous day</a>
    ${next.map(
      (d) =>
        html`<a href="${todayHref({ ...f, day: d, coverage: undefined })}"
          >${dayWords(d)} <small class="muted">(${ahead.get(d) ?? 0})</small></a
        >`,
    )}
    <a href="${todayHref({ ...f, day: shiftDay(f.day, 1), coverage: undefined })}" rel="next">Next day</a>
  </nav>`;
}

/** The day, clinic and provider asked for: a GET form, so each choice is a link to keep or share. */
function dayForm(f: TodayFilters, day: ShownDay, clinics: readonly string[] | undefined): Html {
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}" ${value === (current ?? '') ? html`selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/today" class="filters" aria-label="Day, clinic and provider">
    <div class="field">
      <label for="today-day">Day</label>
      <input id="today-day" name="day" type="date" value="${f.day}" required />
    </div>
    ${
      clinics
        ? html`<div class="field">
            <label for="today-tenant">Clinic</label>
            <select id="today-tenant" name="tenant">
              ${option('', 'All clinics', f.tenant)} ${clinics.map((t) => option(t, t, f.tenant))}
            </select>
          </div>`
        : ''
    }
    <div class="field">
      <label for="today-provider">Provider</label>
      <select id="today-provider" name="provider">
        ${option('', 'Every provider', f.provider)} ${day.providers.map((p) => option(p, p, f.provider))}
      </select>
    </div>
    ${f.coverage ? html`<input type="hidden" name="coverage" value="${f.coverage}" />` : ''}
    <div class="field"><button type="submit">Show</button></div>
  </form>`;
}

const patientCell = (v: ShownVisit) =>
  v.patient
    ? html`<a href="/patients/${v.patientId}">${v.patient.name}</a><br /><small>Born ${v.patient.dateOfBirth}</small>`
    : html`<a href="/patients/${v.patientId}">${v.patientId}</a>`;

/**
 * The front desk's day: its visits in order of time, each with its patient, payer and where its coverage stands; the
 * states counted and each a filter; the days around it a click away. `clinics`: the clinic choice, when there is one.
 */
export function todayView(
  f: TodayFilters,
  day: ShownDay,
  names: PayerNameMap,
  clinics: readonly string[] | undefined,
): Html {
  const counted = VISIT_COVERAGES.map((c) => [c, day.counts[c]] as [string, number]);
  const all = Object.values(day.counts).reduce((a, b) => a + b, 0);
  const showTenant = !f.tenant && (clinics?.length ?? 0) > 0;
  const table =
    day.total === 0
      ? html`<p class="empty">
          No visit ${f.coverage ? `is ${COVERAGE_WORDS[f.coverage].toLowerCase()}` : 'is booked'} on this day.
        </p>`
      : html`<div class="table-wrap">
            <table class="queue">
              <caption>
                Visits on ${dayWords(f.day)}${f.coverage ? `, ${COVERAGE_WORDS[f.coverage].toLowerCase()}` : ''}:
                ${day.total}${day.pages > 1 ? `, page ${day.page} of ${day.pages}` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Patient</th>
                  ${showTenant ? html`<th scope="col">Clinic</th>` : ''}
                  <th scope="col">Payer</th>
                  <th scope="col">Coverage</th>
                </tr>
              </thead>
              <tbody>
                ${day.visits.map(
                  (v) =>
                    html`<tr>
                      <td>${v.startTime ?? html`<span class="muted">No time</span>`}</td>
                      <td>${patientCell(v)}</td>
                      ${showTenant ? html`<td>${v.tenant}</td>` : ''}
                      <td>${payer(v.payerId, names) ?? html`<span class="muted">Last known</span>`}</td>
                      <td>${COVERAGE_WORDS[v.coverage]}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          ${pager('/today', day, Object.fromEntries(new URLSearchParams(todayHref(f).slice('/today?'.length))))}`;
  return html`${dayForm(f, day, clinics)} ${dayLinks(f, day)}
    <div class="columns narrow-first">
      <div>
        ${groupLinks(
          'By coverage',
          counted,
          (c) => todayHref({ ...f, coverage: c as VisitCoverage }),
          (c) => COVERAGE_WORDS[c as VisitCoverage],
          f.coverage,
        )}
        ${f.coverage ? html`<p><a href="${todayHref({ ...f, coverage: undefined })}">Show all ${all} visits</a></p>` : ''}
      </div>
      <div>${table}</div>
    </div>`;
}
