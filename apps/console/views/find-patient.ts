import type { PatientMatch } from '../../../src/temporal/find-patient.js';
import { html, type Html } from './html.js';
import { searchField } from './search-field.js';
import { hiddenCsrf, time } from './layout.js';
import { payer, type PayerNameMap } from './payer.js';
import { stageBadge } from './stage-words.js';
import { batchLink, verificationLink } from './links.js';

/** What the patient form holds when it is shown again (never put in a URL: the form is posted). */
export interface PatientQuery {
  lastName?: string;
  dateOfBirth?: string;
  memberId?: string;
  tenant?: string;
}

/** The problem of one field, said beside it. */
export type PatientQueryProblem = { field: keyof PatientQuery; message: string };

const field = (
  name: keyof PatientQuery,
  label: string,
  value: string | undefined,
  problem: PatientQueryProblem | undefined,
  extra: Html,
): Html => searchField('p', name, label, value, problem, extra);

/**
 * The patient search: last name + date of birth, or member id. Posted, so nothing typed reaches a URL or a log; what
 * is searched are keyed hashes (the blind index), never the values. `tenantField`: an operator of every tenant names
 * the tenant (verifications are indexed per tenant).
 */
export function patientSearchForm(
  csrf: string,
  q: PatientQuery = {},
  problem?: PatientQueryProblem,
  tenantField = false,
): Html {
  return html`<form
    method="post"
    action="/verifications/patient"
    class="search patient-search"
    role="search"
    aria-labelledby="patient-search-h"
  >
    <h2 id="patient-search-h">Find a patient</h2>
    ${hiddenCsrf(csrf)}
    <p class="help">Last name and date of birth, or member id. Case, accents, spaces and dashes do not matter.</p>
    <div class="fields">
      ${field('lastName', 'Last name', q.lastName, problem, html`maxlength="100"`)}
      ${field('dateOfBirth', 'Date of birth', q.dateOfBirth, problem, html`type="date"`)}
      ${field('memberId', 'Member id', q.memberId, problem, html`maxlength="100"`)}
      ${tenantField ? field('tenant', 'Tenant (blank: verifications of no tenant)', q.tenant, problem, html`maxlength="100"`) : ''}
    </div>
    <button type="submit">Find the patient</button>
    <p class="help">
      For a patient's visits and coverage timeline, or to find one by your own reference, see
      <a href="/patients">Patients</a>.
    </p>
  </form>`;
}

/** The verifications found: identifiers and stages; the patient is on each verification's own (audited) page. */
export function patientMatches(matches: readonly PatientMatch[], names: PayerNameMap): Html {
  if (matches.length === 0) {
    return html`<p class="empty" role="status">No verification of this patient was found.</p>`;
  }
  return html`<div class="table-wrap">
    <table class="queue" aria-live="polite">
      <caption>
        Verifications of this patient: ${matches.length}, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Verification</th>
          <th scope="col">Stage</th>
          <th scope="col">Payer</th>
          <th scope="col">Batch</th>
        </tr>
      </thead>
      <tbody>
        ${matches.map(
          (m) =>
            html`<tr>
              <td>${time(m.startTime)}</td>
              <td>
                ${verificationLink(m.workflowId)}
                ${
                  m.supersededBy
                    ? html`<br /><small
                          >Started again since:
                          <a href="/verifications/${encodeURIComponent(m.supersededBy)}">the newer attempt</a></small
                        >`
                    : ''
                }
              </td>
              <td>${stageBadge(m.stage)}</td>
              <td>${payer(m.payerId, names) ?? ''}</td>
              <td>${m.batchId ? batchLink(m.batchId) : ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
