import type { CheckOf, PatientRow } from '../patient-rows.js';
import { html, type Html } from './html.js';
import { searchField } from './search-field.js';
import { hiddenCsrf } from './layout.js';
import { byVisitTime, visitHasPassed, visitWhen } from './patient-visits.js';

/** What the form holds when it is shown again (posted, never a URL). */
export interface PatientsQuery {
  lastName?: string;
  dateOfBirth?: string;
  memberId?: string;
  patientRef?: string;
  tenant?: string;
}

/** The problem of one field, said beside it (never repeating what was typed). */
export type PatientsProblem = { field: keyof PatientsQuery; message: string };

/** The tenant field: a text box for an operator of every tenant, a choice for one of several, none for one of one. */
export type TenantChoice = { kind: 'any' } | { kind: 'some'; tenants: readonly string[] } | { kind: 'one' };

const input = (
  name: keyof PatientsQuery,
  label: string,
  q: PatientsQuery,
  problem: PatientsProblem | undefined,
  extra: Html,
) => searchField('pt', name, label, q[name], problem, extra);

function tenantField(choice: TenantChoice, q: PatientsQuery, problem: PatientsProblem | undefined): Html | string {
  if (choice.kind === 'one') return '';
  if (choice.kind === 'any') {
    return input('tenant', 'Tenant (blank: patients of no tenant)', q, problem, html`maxlength="100"`);
  }
  const invalid = problem?.field === 'tenant';
  return html`<div class="field">
    <label for="pt-tenant">Tenant</label>
    <select id="pt-tenant" name="tenant" ${invalid ? html`aria-invalid="true" aria-describedby="pt-tenant-error"` : ''}>
      <option value="">All of mine (a reference needs one)</option>
      ${choice.tenants.map((t) => html`<option value="${t}" ${q.tenant === t ? html`selected` : ''}>${t}</option>`)}
    </select>
    ${invalid ? html`<p id="pt-tenant-error" class="error" role="alert">${problem.message}</p>` : ''}
  </div>`;
}

/**
 * The patient search: last name + date of birth, member id, or the practice's own reference. Posted, so nothing typed
 * reaches a URL or a log; names and member ids are looked up as keyed hashes (the blind index), a reference as the
 * patient id it gives.
 */
export function patientsForm(csrf: string, choice: TenantChoice, q: PatientsQuery = {}, problem?: PatientsProblem) {
  return html`<form method="post" action="/patients" class="search" role="search" aria-labelledby="patients-h">
      <h2 id="patients-h">Find a patient</h2>
      ${hiddenCsrf(csrf)}
      <p class="help">
        Last name and date of birth, or member id, or your practice's own patient reference (which alone is used when
        given). Case, accents, spaces and dashes in names and member ids do not matter.
      </p>
      <div class="fields">
        ${input('lastName', 'Last name', q, problem, html`maxlength="100"`)}
        ${input('dateOfBirth', 'Date of birth', q, problem, html`type="date"`)}
        ${input('memberId', 'Member id', q, problem, html`maxlength="100"`)}
        ${input('patientRef', 'Patient reference', q, problem, html`maxlength="200"`)}
        ${tenantField(choice, q, problem)}
      </div>
      <button type="submit">Find the patient</button>
    </form>
    <p>
      Looking for a verification by its caller id or workflow id? <a href="/verifications">Find a verification</a>.
    </p>`;
}

/** The next visit still to come, as the practice booked it. */
function nextVisit(row: PatientRow, now: number): string {
  const next = row.copy.appointments
    .filter((a) => a.status === 'scheduled' && !visitHasPassed(a, now))
    .sort(byVisitTime)[0];
  return next ? visitWhen(next) : 'none';
}

/** The patients found, in the order the search gave (most recently changed first), each linking to its page. */
export function patientsFound(ids: readonly string[], rows: ReadonlyMap<string, PatientRow>, now = Date.now()): Html {
  const found = ids.flatMap((id) => rows.get(id) ?? []);
  if (found.length === 0) return html`<p class="empty" role="status">No patient was found.</p>`;
  return html`<div class="table-wrap">
    <table class="queue" aria-live="polite">
      <caption>
        Patients found: ${found.length}
      </caption>
      <thead>
        <tr>
          <th scope="col">Patient</th>
          <th scope="col">Date of birth</th>
          <th scope="col">Tenant</th>
          <th scope="col">Next visit</th>
        </tr>
      </thead>
      <tbody>
        ${found.map(
          (r) =>
            html`<tr>
              <td><a href="/patients/${r.patientId}">${r.name}</a></td>
              <td>${r.dateOfBirth}</td>
              <td>${r.copy.tenant}</td>
              <td>${nextVisit(r, now)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** Beside a verification of a patient's check: the patient (linking to its page) and the visit it checks. */
export function checkPatient(check: CheckOf | undefined): Html | string {
  if (!check) return '';
  const { patient, visit } = check;
  return html`<br /><small
      ><a href="/patients/${patient.patientId}">${patient.name}</a
      >${visit ? html`, visit ${visitWhen(visit)}` : ''}</small
    >`;
}
