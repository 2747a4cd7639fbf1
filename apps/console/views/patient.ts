import type { VerificationDetail } from '../reads/verification.js';
import { html, type Html } from './html.js';
import { time } from './layout.js';
import { payer, payerAliases, type PayerNameMap } from './payer.js';
import { stageBadge } from './stage-words.js';
import { batchLink, verificationLink } from './links.js';

/** A definition list of the pairs that have a value. */
export function facts(pairs: readonly [string, Html | string | number | undefined][]): Html {
  const shown = pairs.filter(([, v]) => v !== undefined && v !== '');
  return html`<dl class="facts">
    ${shown.map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${v}</dd>`,
    )}
  </dl>`;
}

/** The member id as given, as a discovery found it, or why there is none yet: never a promise no discovery keeps. */
function memberIdText(detail: VerificationDetail): Html | string | undefined {
  const p = detail.patient;
  if (!p) return undefined;
  if (p.memberId) return p.memberId;
  if (p.discoveredMemberId) return html`${p.discoveredMemberId} <small class="muted">(found by the discovery)</small>`;
  if (p.patientId) return undefined;
  const discoveryId = detail.status?.discoveryId ?? detail.status?.discovery?.discoveryId;
  if (!discoveryId) return 'not given';
  if (detail.closedAt) return html`not given, and the discovery <code>${discoveryId}</code> found none`;
  return html`not given; the discovery <code>${discoveryId}</code> looks it up`;
}

/** The patient, decrypted from the workflow input (signed-in operators only; never in a URL or a log). */
export function patientCard(detail: VerificationDetail): Html {
  const p = detail.patient;
  if (!p) return html``;
  return html`<section class="card" aria-labelledby="patient-h">
    <h2 id="patient-h">Patient</h2>
    ${facts([
      ['Name', p.name],
      ['Date of birth', p.dateOfBirth],
      ['Member id', memberIdText(detail)],
      ['Legacy patient id', p.patientId],
      ['State', p.state],
    ])}
  </section>`;
}

export function identifiersCard(
  detail: VerificationDetail,
  uiUrl: string | undefined,
  names: PayerNameMap = new Map(),
): Html {
  const s = detail.status;
  return html`<section class="card" aria-labelledby="ids-h">
    <h2 id="ids-h">Verification</h2>
    ${facts([
      ['Workflow', verificationLink(detail.workflowId)],
      ['Stage', stageBadge(detail.stage)],
      ['Caller id', s?.callerId ?? detail.runOf?.callerId],
      ['Payer', payer(detail.payerId ?? s?.payerId, names)],
      ['Payer also known as', payerAliases(detail.payerId ?? s?.payerId, names)],
      ['Specialty', detail.specialtyCode ?? s?.specialtyCode],
      ['Batch', detail.batchId ? batchLink(detail.batchId) : undefined],
      ['Tenant', detail.tenant],
      ['Verification id', s?.verificationId ?? detail.runOf?.verificationId],
      ['Started', time(detail.startedAt)],
      ['Closed', detail.closedAt ? time(detail.closedAt) : undefined],
      [
        'Temporal UI',
        uiUrl ? html`<a href="${uiUrl}" rel="noopener">open this workflow in Temporal UI</a>` : undefined,
      ],
    ])}
  </section>`;
}
