import type { VerificationDetail } from '../reads/verification.js';
import type { RequestedInput } from '../../../workflows/verification/verification.js';
import { html, type Html } from './html.js';
import { time } from './layout.js';
import { runInputForm, type RunFormError } from './run-form.js';
import { identifiersCard, patientCard } from './patient.js';
import { lastErrorWords } from './refusal-words.js';
import type { PayerNameMap } from './payer.js';

export type { RunFormError };

export interface RunView {
  flowRunId: string;
  state: string;
  serviceStatus?: string;
  requested?: RequestedInput;
}

/** The runs of a workflow: a verification's from its status query; a standalone run workflow's from its input. */
export function runsOf(detail: VerificationDetail, runFlowId: string | undefined): RunView[] {
  if (detail.status) return detail.status.runs;
  if (runFlowId) {
    const state = detail.execution === 'RUNNING' ? 'pending' : 'answered';
    return [{ flowRunId: runFlowId, state, ...(detail.runOf?.requested ? { requested: detail.runOf.requested } : {}) }];
  }
  return [];
}

/** Who sent the run's accepted answer: the identity of its last update in history (an operator: `console:<name>`). */
function answeredBy(detail: VerificationDetail, flowRunId: string): Html | string {
  const sent = detail.timeline.filter((e) => e.flowRunId === flowRunId && e.identity);
  const last = sent[sent.length - 1];
  return last ? html`, answered by <strong>${last.identity}</strong> at ${time(last.at)}` : '';
}

/** What the run asks for, in the words of its event; when the event said nothing, that the spec shows no such field. */
function asks(run: RunView): Html {
  const r = run.requested;
  if (!r) {
    return html`the service did not say which fields it needs; send what the payer asked for as a JSON object.`;
  }
  const fields = r.fields?.length
    ? html` Fields: ${r.fields.map((f, i) => html`${i > 0 ? ', ' : ''}<code>${f}</code>`)}.`
    : '';
  return html`${r.description ?? ''}${fields}`;
}

/** A pending run as a viewer sees it: what it asks for, no form. */
function runCard(run: RunView): Html {
  const id = `input-${run.flowRunId}`;
  return html`<section class="card run" aria-labelledby="${id}-h">
    <h2 id="${id}-h">
      Run <code>${run.flowRunId}</code> <span class="stage stage-awaiting-input">waits for input</span>
    </h2>
    <p><strong>What it asks for:</strong> ${asks(run)}</p>
    <p class="help">Your role reads only: an operator or an administrator answers it.</p>
  </section>`;
}

function runForm(workflowId: string, run: RunView, csrf: string, error: RunFormError | undefined): Html {
  const id = `input-${run.flowRunId}`;
  const failed = error?.flowRunId === run.flowRunId ? error : undefined;
  const action = `/runs/${encodeURIComponent(workflowId)}/${encodeURIComponent(run.flowRunId)}`;
  return html`<section class="card run" aria-labelledby="${id}-h">
    <h2 id="${id}-h">
      Run <code>${run.flowRunId}</code> <span class="stage stage-awaiting-input">waits for input</span>
    </h2>
    <p id="${id}-asks"><strong>What it asks for:</strong> ${asks(run)}</p>
    ${runInputForm(action, run.flowRunId, run.requested, csrf, failed)}
  </section>`;
}

export function answerView(
  detail: VerificationDetail,
  runs: readonly RunView[],
  csrf: string,
  uiUrl: string | undefined,
  error?: RunFormError,
  canAct = true,
  names: PayerNameMap = new Map(),
): Html {
  const pending = runs.filter((r) => r.state !== 'answered');
  const answered = runs.filter((r) => r.state === 'answered');
  const last = detail.status?.lastError;
  return html`<div class="columns">
    <div>${patientCard(detail)}${identifiersCard(detail, uiUrl, names)}</div>
    <div>
      ${pending.length === 0 ? html`<p class="empty">No run of this workflow awaits input now.</p>` : ''}
      ${pending.map((run) => (canAct ? runForm(detail.workflowId, run, csrf, error) : runCard(run)))}
      ${
        answered.length > 0
          ? html`<section class="card">
              <h2>Answered runs</h2>
              <ul>
                ${answered.map(
                  (r) =>
                    html`<li>
                      <code>${r.flowRunId}</code>: the service took the
                      input${r.serviceStatus ? ` (the run is now ${r.serviceStatus.toLowerCase()})` : ''}${answeredBy(detail, r.flowRunId)}
                    </li>`,
                )}
              </ul>
              <p class="help">
                Every attempt, refused ones too, is on the
                <a href="/verifications/${encodeURIComponent(detail.workflowId)}">verification's timeline</a>.
              </p>
            </section>`
          : ''
      }
      ${
        last && !error
          ? html`<section class="card">
              <h2>Last error</h2>
              <p>${lastErrorWords(last)}</p>
            </section>`
          : ''
      }
    </div>
  </div>`;
}
