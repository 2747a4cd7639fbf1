import { maskMemberId, masksPatients, yearOfBirth } from '../../../src/access/masking.js';
import type { ConsoleOperator } from '../../../src/access/operators.js';
import type { CoverageChange, PatientView } from '../../../workflows/patient/patient.js';
import { html, type Html } from './html.js';
import { facts } from './patient.js';
import { verificationLink } from './links.js';

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** The patient as the operator may see it: a viewer sees member ids by their last four and the year of birth only. */
export function patientFor(operator: ConsoleOperator, view: PatientView): PatientView {
  if (!masksPatients(operator)) return view;
  const p = view.patient;
  return {
    ...view,
    ...(p
      ? {
          patient: {
            ...p,
            dateOfBirth: yearOfBirth(p.dateOfBirth),
            ...(p.memberId ? { memberId: maskMemberId(p.memberId) } : {}),
          },
        }
      : {}),
    timeline: view.timeline.map((e) => (e.memberId ? { ...e, memberId: maskMemberId(e.memberId) } : e)),
  };
}

export const changeKinds = (change: CoverageChange) => change.kinds.join(', ');

/** A patient's page: details, upcoming appointments with their checks, the coverage timeline and its changes. */
export function patientRecord(view: PatientView): Html {
  const p = view.patient;
  return html`<section class="card" aria-labelledby="patient-h">
      <h2 id="patient-h">Patient</h2>
      ${facts([
        ['Patient id', view.patientId],
        ['Tenant', view.tenant],
        ['Name', p ? `${p.firstName} ${p.lastName}` : undefined],
        ['Date of birth', p?.dateOfBirth],
        ['Member id', p?.memberId],
        ['State', p?.state],
      ])}
    </section>
    <section class="card" aria-labelledby="appointments-h">
      <h2 id="appointments-h">Upcoming appointments</h2>
      ${
        view.appointments.length === 0
          ? html`<p>None.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th>Date of service</th>
                  <th>Status</th>
                  <th>Payer</th>
                  <th>Checks</th>
                </tr>
              </thead>
              <tbody>
                ${view.appointments.map(
                  (a) =>
                    html`<tr>
                      <td>${a.dateOfService} (${a.timeZone})</td>
                      <td>${a.status}</td>
                      <td>${a.payerId ?? 'last known'}</td>
                      <td>${a.checks.map((c) => html`${when(c.at)}: ${c.state}<br />`)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>
    <section class="card" aria-labelledby="timeline-h">
      <h2 id="timeline-h">Coverage timeline</h2>
      ${
        view.timeline.length === 0
          ? html`<p>No verification yet.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th>When</th>
                  <th>Coverage</th>
                  <th>Payer</th>
                  <th>Member id found</th>
                  <th>Verification</th>
                </tr>
              </thead>
              <tbody>
                ${[...view.timeline].reverse().map(
                  (e) =>
                    html`<tr>
                      <td>${when(e.at)}</td>
                      <td>${e.coverage} (${e.outcome})</td>
                      <td>${e.payerId ?? ''}</td>
                      <td>${e.memberId ?? ''}</td>
                      <td>${verificationLink(e.workflowId)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
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
