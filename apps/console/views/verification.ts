import type { VerificationDetail } from '../reads/verification.js';
import { OUTCOMES } from '../../../workflows/shared/stages.js';
import { discoveryText } from '../../../src/temporal/status-text.js';
import { html, type Html } from './html.js';
import { hiddenCsrf, time } from './layout.js';
import { facts, identifiersCard, patientCard } from './patient.js';
import type { PayerNameMap } from './payer.js';
import { lastErrorWords } from './refusal-words.js';
import { executionWords, stageBadge } from './stage-words.js';
import { reviewForms } from './review.js';

/** Posted, not a GET: whatever a person types (a name by mistake) stays out of URLs, history and request logs. */
export function searchForm(csrf: string, q = '', problem?: string): Html {
  return html`<form method="post" action="/verifications" class="search" role="search">
    ${hiddenCsrf(csrf)}
    <label for="q">Find a verification by caller id or workflow id</label>
    <input
      id="q"
      name="q"
      value="${q}"
      required
      maxlength="200"
      placeholder="e.g. example-009 or verification-example-009"
      ${problem ? html`aria-invalid="true" aria-describedby="q-error"` : ''}
    />
    <button type="submit">Find</button>
    ${problem ? html`<p id="q-error" class="error" role="alert">${problem}</p>` : ''}
  </form>`;
}

function statusCard(d: VerificationDetail): Html {
  const s = d.status;
  const outcome = d.stage && (OUTCOMES as readonly string[]).includes(d.stage) ? d.stage : undefined;
  const discovery = s?.discovery ? discoveryText(s.discovery) : undefined;
  const runState = (state: string) =>
    state === 'pending' ? 'waits for input' : state === 'submitting' ? 'input on its way' : 'answered';
  const runs = s?.runs.length
    ? html`<ul class="plain">
        ${s.runs.map(
          (r) =>
            html`<li>
              <code>${r.flowRunId}</code>
              ${runState(r.state)}${r.serviceStatus ? ` (the service says ${r.serviceStatus})` : ''}
            </li>`,
        )}
      </ul>`
    : undefined;
  const last = s?.lastError;
  return html`<section class="card" aria-labelledby="status-h">
    <h2 id="status-h">Status</h2>
    ${d.statusProblem ? html`<p class="muted">${d.statusProblem}.</p>` : ''}
    ${facts([
      ['Outcome', outcome ? stageBadge(outcome) : d.closedAt ? executionWords(d.execution) : 'not yet: still running'],
      ['Version', s?.version],
      ['Discovery', discovery],
      ['Runs', runs],
      ['Last error', last ? lastErrorWords(last) : undefined],
      ['Needs review', s?.review ? html`${s.review.reason}; decide by ${time(s.review.decideBy)}` : undefined],
    ])}
    ${s?.pendingRuns.length ? html`<p><a class="button" href="/runs/${encodeURIComponent(d.workflowId)}">Answer the pending run</a></p>` : ''}
  </section>`;
}

function timelineCard(d: VerificationDetail): Html {
  return html`<section class="card" aria-labelledby="timeline-h">
    <h2 id="timeline-h">Timeline</h2>
    <ol class="timeline">
      ${d.timeline.map(
        (e) =>
          html`<li class="t-${e.kind}">
            ${time(e.at)} <span>${e.text}</span>${
              e.identity ? html` <small class="muted">by <strong>${e.identity}</strong></small>` : ''
            }
          </li>`,
      )}
    </ol>
  </section>`;
}

/** `canAct` false (a viewer): the review decisions are not shown. `newer`: a later attempt of this batch row. */
export function verificationView(
  d: VerificationDetail,
  csrf: string,
  uiUrl: string | undefined,
  canAct = true,
  names: PayerNameMap = new Map(),
  newer?: string,
): Html {
  const review =
    canAct && d.stage === 'needs-review' && d.execution === 'RUNNING'
      ? html`<section class="card" aria-labelledby="review-h">
          <h2 id="review-h">Decide</h2>
          ${reviewForms(d.workflowId, csrf)}
        </section>`
      : '';
  const superseded = newer
    ? html`<p class="notice" role="status">
        This attempt was started again by a resubmission of its batch:
        <a href="/verifications/${encodeURIComponent(newer)}">open the newer attempt</a>.
      </p>`
    : '';
  return html`${superseded}
    <div class="columns">
      <div>${patientCard(d)}${identifiersCard(d, uiUrl, names)}</div>
      <div>${statusCard(d)}${review}${timelineCard(d)}</div>
    </div>`;
}
