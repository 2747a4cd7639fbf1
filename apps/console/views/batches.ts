import type { BatchView } from '../../../src/batches/describe.js';
import { progressGroups } from '../../../src/batches/groups.js';
import { batchStateWords } from '../../../src/batches/state-words.js';
import { plural } from '../../../src/text-format.js';
import { PROGRESS_GROUPS } from '../../../workflows/shared/stages.js';
import { BATCH_STATE_TABLE, type BatchRowProblem } from '../../../workflows/batch/batch.js';
import type { BatchItemView } from '../../../src/batches/items.js';
import { pager, type Paged } from './paging.js';
import { payer, type PayerNameMap } from './payer.js';
import { stageBadge } from './stage-words.js';
import { html, type Html } from './html.js';
import { hiddenCsrf, time } from './layout.js';

const groupClass = (group: string) => `g-${group.replace(/\s+/g, '-')}`;

/**
 * Progress by outcome group as one stacked bar (SVG: widths are attributes, so the content security policy needs no
 * inline style), with its counts spelled out for screen readers and in the legend.
 */
export function progressBar(view: BatchView): Html {
  const groups = progressGroups(view.counts);
  const total = Math.max(1, view.counts.items);
  let x = 0;
  const shown = PROGRESS_GROUPS.filter((g) => groups[g] > 0);
  const label = shown.map((g) => `${g} ${groups[g]}`).join(', ') || 'no items';
  const rects = shown.map((g) => {
    const width = (groups[g] / total) * 100;
    const rect = html`<rect
      x="${x.toFixed(3)}%"
      y="0"
      width="${width.toFixed(3)}%"
      height="100%"
      class="${groupClass(g)}"
    ></rect>`;
    x += width;
    return rect;
  });
  return html`<div class="progress">
    <svg class="bar" role="img" aria-label="${label} of ${view.counts.items} items" preserveAspectRatio="none">
      ${rects}
    </svg>
    <ul class="legend">
      ${PROGRESS_GROUPS.filter((g, i) => i < 5 || groups[g] > 0).map(
        (g) =>
          html`<li>
            <span class="swatch ${groupClass(g)}" aria-hidden="true"></span>${g} <strong>${groups[g]}</strong>
          </li>`,
      )}
    </ul>
  </div>`;
}

const running = (view: BatchView) => !BATCH_STATE_TABLE[view.state].settled;

/** The label and the submitter the intake records with a batch, when this batch has them. */
function labelOf(view: BatchView): { label?: string; submitter?: string } {
  return {
    ...(view.label ? { label: view.label } : {}),
    ...(view.submittedBy ? { submitter: view.submittedBy } : {}),
  };
}

/** A batch's name for people: its label, else its id. */
export const batchName = (view: BatchView): string => labelOf(view).label ?? view.batchId;

/** Batches, newest first (by submission: a cancel or a resubmission does not move one up). */
export function batchesList(p: Paged<BatchView>): Html {
  if (p.total === 0) return html`<p class="empty">No batches yet.</p>`;
  return html`<ul class="batches">
      ${p.rows.map((b) => {
        const { label, submitter } = labelOf(b);
        return html`<li class="card">
          <h2>
            <a href="/batches/${encodeURIComponent(b.batchId)}">${label ?? b.batchId}</a>
            ${stageWords(b)}
          </h2>
          <p class="muted">
            ${label ? html`<code>${b.batchId}</code>, ` : ''}${b.counts.items}
            items${b.counts.invalid ? `, ${plural(b.counts.invalid, 'invalid row')}` : ''}${b.tenant ? html`, tenant ${b.tenant}` : ''},
            submitted ${time(b.createdAt)}${submitter ? html` by ${submitter}` : ''}
          </p>
          ${progressBar(b)}
        </li>`;
      })}
    </ul>
    ${pager('/batches', p)}`;
}

/** A batch's state in people's words: a settled batch names the items that have not ended (src/batches/state-words.ts). */
function stageWords(view: BatchView): Html {
  return html`<span class="stage" data-batch-state="${view.state}">${batchStateWords(view)}</span>`;
}

function itemsTable(p: Paged<BatchItemView>, base: string, names: PayerNameMap): Html {
  if (p.total === 0) return html``;
  return html`<div class="table-wrap">
      <table class="items">
        <caption>
          Items in row order: ${p.total}${p.pages > 1 ? `, page ${p.page} of ${p.pages}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Caller id</th>
            <th scope="col">Verification</th>
            <th scope="col">Stage or outcome</th>
            <th scope="col">Payer</th>
          </tr>
        </thead>
        <tbody>
          ${p.rows.map(
            (i) =>
              html`<tr>
                <td>${i.row}</td>
                <td>${i.callerId ?? ''}</td>
                <td>
                  <a href="/verifications/${encodeURIComponent(i.workflowId)}">${i.workflowId}</a
                  >${i.round > 0 ? html`<br /><small class="muted">attempt ${i.round + 1}</small>` : ''}
                </td>
                <td>${stageBadge(i.outcome ?? i.stage)}</td>
                <td>${payer(i.payerId, names) ?? ''}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${pager(base, p)}`;
}

function invalidTable(invalid: readonly BatchRowProblem[]): Html {
  if (invalid.length === 0) return html``;
  return html`<div class="table-wrap">
    <table class="items invalid-rows">
      <caption>
        Invalid rows, never started: ${invalid.length}
      </caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          <th scope="col">Field</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        ${invalid.map(
          (r) =>
            html`<tr>
              <td>${r.row}${r.line !== undefined ? html`<br /><small class="muted">line ${r.line}</small>` : ''}</td>
              <td><code>${r.param}</code></td>
              <td>${r.message.replace(new RegExp(`^${r.param.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `), '')}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export interface BatchPageData {
  items: Paged<BatchItemView>;
  invalid: readonly BatchRowProblem[];
  /** Failed items whose error no resubmission fixes. */
  hopeless: number;
  names: PayerNameMap;
}

/** `canAct` false (a viewer): the downloads only, no resubmit or cancel. */
export function batchDetail(view: BatchView, data: BatchPageData, csrf: string, canAct = true): Html {
  const base = `/batches/${encodeURIComponent(view.batchId)}`;
  const groups = progressGroups(view.counts);
  const open = canAct && view.status === 'RUNNING';
  const canCancel = open && BATCH_STATE_TABLE[view.state].cancellable;
  const canResubmit = open && groups.failed > 0 && BATCH_STATE_TABLE[view.state].resubmittable;
  const { label, submitter } = labelOf(view);
  const warning =
    data.hopeless > 0
      ? html`<p class="warning" id="resubmit-warning">
            ${data.hopeless} of the failed items failed for a reason a new attempt cannot fix (an unknown payer, or a
            value the service refuses): they will fail again unless their rows are corrected and sent in a new batch.
          </p>
          <input
            type="checkbox"
            id="confirm-resubmit"
            name="confirm"
            value="yes"
            required
            aria-describedby="resubmit-warning"
          />
          <label for="confirm-resubmit">Resubmit anyway</label>`
      : '';
  return html`<section class="card" aria-labelledby="progress-h">
      <h2 id="progress-h">Progress: ${stageWords(view)}</h2>
      ${label || submitter ? html`<p>${label ? html`<strong>${label}</strong> (<code>${view.batchId}</code>)` : ''}${submitter ? html` submitted by ${submitter}` : ''}</p>` : ''}
      ${progressBar(view)}
      <p class="muted">
        ${view.counts.items}
        items${view.counts.invalid ? html`, ${view.counts.invalid} invalid ${view.counts.invalid === 1 ? 'row' : 'rows'} (listed below, never started)` : ''}.
        Submitted ${time(view.createdAt)}, last change
        ${time(view.updatedAt)}${view.closedAt ? html`, closed ${time(view.closedAt)}` : ''}.
        ${running(view) ? html`<span data-refresh="3">This page refreshes itself every few seconds while the batch runs.</span>` : ''}
      </p>
    </section>
    <section class="card actions" aria-labelledby="actions-h">
      <h2 id="actions-h">Results and actions</h2>
      <p>
        <a class="button" href="${base}/results.csv" download>Download results (CSV)</a>
        <a class="button secondary" href="${base}/results.jsonl" download>Download results (JSON Lines)</a>
      </p>
      ${
        canResubmit
          ? html`<form method="post" action="${base}/resubmit">
              ${hiddenCsrf(csrf)} ${warning}
              <button type="submit">Resubmit failed items</button>
              <small class="help"
                >Starts again the items that failed, timed out or were stopped (${groups.failed} in the failed group;
                abandoned ones were a person's decision and stay).</small
              >
            </form>`
          : ''
      }
      ${
        canCancel
          ? html`<form method="post" action="${base}/cancel">
              ${hiddenCsrf(csrf)}
              <input type="checkbox" id="confirm-cancel" name="confirm" value="yes" required />
              <label for="confirm-cancel">Nothing new starts and running items are cancelled.</label>
              <button type="submit" class="danger">Cancel the batch</button>
            </form>`
          : ''
      }
    </section>
    ${invalidTable(data.invalid)} ${itemsTable(data.items, base, data.names)}`;
}
