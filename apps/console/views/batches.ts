import type { BatchView } from '../../../src/batches/describe.js';
import { progressGroups } from '../../../src/batches/groups.js';
import { PROGRESS_GROUPS } from '../../../workflows/shared/stages.js';
import { BATCH_STATE_TABLE } from '../../../workflows/shared/batch-types.js';
import type { BatchItemView } from '../../../src/batches/items.js';
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

const settled = (view: BatchView) => BATCH_STATE_TABLE[view.state].settled;

export function batchesList(batches: readonly BatchView[]): Html {
  if (batches.length === 0) return html`<p class="empty">No batches yet.</p>`;
  return html`<ul class="batches">
    ${batches.map(
      (b) =>
        html`<li class="card">
          <h2>
            <a href="/batches/${encodeURIComponent(b.batchId)}">${b.batchId}</a> <span class="stage">${b.state}</span>
          </h2>
          <p class="muted">
            ${b.counts.items} items${b.tenant ? html`, tenant ${b.tenant}` : ''}, submitted ${time(b.createdAt)}
          </p>
          ${progressBar(b)}
        </li>`,
    )}
  </ul>`;
}

function itemsTable(items: readonly BatchItemView[]): Html {
  if (items.length === 0) return html``;
  return html`<table class="items">
    <caption>
      Items (newest first, at most 50)
    </caption>
    <thead>
      <tr>
        <th scope="col">Row</th>
        <th scope="col">Caller id</th>
        <th scope="col">Workflow</th>
        <th scope="col">Stage or outcome</th>
        <th scope="col">Payer</th>
      </tr>
    </thead>
    <tbody>
      ${items.map(
        (i) =>
          html`<tr>
            <td>${i.row}</td>
            <td>${i.callerId ?? ''}</td>
            <td><a href="/verifications/${encodeURIComponent(i.workflowId)}">${i.workflowId}</a></td>
            <td><span class="stage stage-${i.outcome ?? i.stage ?? ''}">${i.outcome ?? i.stage ?? ''}</span></td>
            <td>${i.payerId ?? ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** `canAct` false (a viewer): the downloads only, no resubmit or cancel. */
export function batchDetail(view: BatchView, items: readonly BatchItemView[], csrf: string, canAct = true): Html {
  const base = `/batches/${encodeURIComponent(view.batchId)}`;
  const groups = progressGroups(view.counts);
  const running = canAct && view.status === 'RUNNING';
  const canCancel = running && BATCH_STATE_TABLE[view.state].cancellable;
  const canResubmit = running && groups.failed > 0 && BATCH_STATE_TABLE[view.state].resubmittable;
  return html`<section class="card" aria-labelledby="progress-h">
      <h2 id="progress-h">Progress: <span class="stage" data-batch-state="${view.state}">${view.state}</span></h2>
      ${progressBar(view)}
      <p class="muted">
        ${view.counts.items}
        items${view.counts.invalid ? html`, ${view.counts.invalid} invalid ${view.counts.invalid === 1 ? 'row' : 'rows'} (not items)` : ''}.
        Submitted ${time(view.createdAt)}, last change
        ${time(view.updatedAt)}${view.closedAt ? html`, closed ${time(view.closedAt)}` : ''}.
        ${settled(view) ? '' : html`<span data-refresh="3">This page refreshes itself every few seconds while the batch runs.</span>`}
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
              ${hiddenCsrf(csrf)}
              <button type="submit">Resubmit failed items</button>
              <small class="help"
                >Starts again the items that failed, timed out or were terminated (${groups.failed} in the failed group;
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
    ${itemsTable(items)}`;
}
