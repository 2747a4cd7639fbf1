import { maskMemberId, maskName, masksPatients, yearOfBirth } from '../../../src/access/masking.js';
import type { ConsoleOperator } from '../../../src/access/operators.js';
import type { CoverageChange, PatientView } from '../../../workflows/patient/patient.js';
import { html, type Html } from './html.js';
import { facts } from './patient.js';
import { verificationLink } from './links.js';
import { payer, type PayerNameMap } from './payer.js';
import { COVERAGE_WORDS } from './coverage-words.js';
import { checksInProgress, patientVisits } from './patient-visits.js';

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/**
 * The patient as the operator may see it: a viewer sees the name by its initials, member ids by their last four and
 * the year of birth only.
 */
export function patientFor(operator: ConsoleOperator, view: PatientView): PatientView {
  if (!masksPatients(operator)) return view;
  const p = view.patient;
  return {
    ...view,
    ...(p
      ? {
          patient: {
            ...p,
            firstName: maskName(p.firstName, p.lastName),
            lastName: '',
            dateOfBirth: yearOfBirth(p.dateOfBirth),
            ...(p.memberId ? { memberId: maskMemberId(p.memberId) } : {}),
          },
        }
      : {}),
    timeline: view.timeline.map((e) => (e.memberId ? { ...e, memberId: maskMemberId(e.memberId) } : e)),
  };
}

/** The name a page is headed by (of a view `patientFor` has masked already). */
export const patientName = (view: PatientView): string | undefined =>
  view.patient ? `${view.patient.firstName} ${view.patient.lastName}`.trim() : undefined;

export const changeKinds = (change: CoverageChange) => change.kinds.join(', ');

/** A patient's page: details, visits upcoming and past, the coverage timeline with checks in progress, its changes. */
export function patientRecord(
  view: PatientView,
  names: PayerNameMap,
  now = Date.now(),
  awaiting: ReadonlySet<string> = new Set(),
): Html {
  const p = view.patient;
  const checking = checksInProgress(view);
  return html`<section class="card" aria-labelledby="patient-h">
      <h2 id="patient-h">Details</h2>
      ${facts([
        ['Name', patientName(view)],
        ['Date of birth', p?.dateOfBirth],
        ['Member id', p?.memberId],
        ['State', p?.state],
        ['Tenant', view.tenant],
        ['Patient id', view.patientId],
      ])}
    </section>
    ${patientVisits(view, names, now, awaiting)}
    <section class="card" aria-labelledby="timeline-h">
      <h2 id="timeline-h">Coverage timeline</h2>
      ${
        view.timeline.length === 0 && checking.length === 0
          ? html`<p>No verification yet.</p>`
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Coverage</th>
                    <th scope="col">Payer</th>
                    <th scope="col">Member id found</th>
                    <th scope="col">Verification</th>
                  </tr>
                </thead>
                <tbody>
                  ${checking.map(
                    (c) =>
                      html`<tr>
                        <td>${when(c.at)}</td>
                        <td><span class="coverage coverage-checking">${COVERAGE_WORDS.checking}</span></td>
                        <td></td>
                        <td></td>
                        <td>${verificationLink(c.workflowId)}</td>
                      </tr>`,
                  )}
                  ${[...view.timeline].reverse().map(
                    (e) =>
                      html`<tr>
                        <td>${when(e.at)}</td>
                        <td>${e.coverage} (${e.outcome})</td>
                        <td>${payer(e.payerId, names) ?? ''}</td>
                        <td>${e.memberId ?? ''}</td>
                        <td>${verificationLink(e.workflowId)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>
    <section class="card" aria-labelledby="changes-h">
      <h2 id="changes-h">Coverage changes</h2>
      ${
        view.changes.length === 0
          ? html`<p>None.</p>`
          : html`<ul>
              ${[...view.changes]
                .reverse()
                .map(
                  (c) =>
                    html`<li>
                      ${when(c.at)}: ${changeKinds(c)} (${verificationLink(c.workflowId)})${c.seenAt ? ' · seen' : ''}
                    </li>`,
                )}
            </ul>`
      }
    </section>`;
}
