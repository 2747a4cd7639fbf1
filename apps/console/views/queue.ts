import type { QueueRow } from '../reads/queue.js';
import { html, type Html } from './html.js';
import { age, time } from './layout.js';
import { WorkflowType } from '../../../workflows/shared/workflow-types.js';

const dash = (value: string | undefined) => value ?? html`<span class="muted">–</span>`;

/** A queue table, oldest first; `action` renders the last cell of a row (a link or the decisions). */
export function queueTable(
  rows: readonly QueueRow[],
  caption: string,
  empty: string,
  action: (row: QueueRow) => Html,
): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  const now = Date.now();
  return html`<table class="queue">
    <caption>
      ${caption}: ${rows.length}, oldest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Age <small>(since intake)</small></th>
        <th scope="col">Workflow</th>
        <th scope="col">Payer</th>
        <th scope="col">Specialty</th>
        <th scope="col">Batch</th>
        <th scope="col">Tenant</th>
        <th scope="col"><span class="visually-hidden">Action</span></th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr>
            <td>${age(r.startedAt, now)}<br /><small class="muted">since ${time(r.startedAt)}</small></td>
            <td>
              <a href="/verifications/${encodeURIComponent(r.workflowId)}">${r.workflowId}</a>${
                r.type === WorkflowType.runInput
                  ? html`<br /><small class="muted">its verification had closed</small>`
                  : ''
              }
            </td>
            <td>${dash(r.payerId)}</td>
            <td>${dash(r.specialtyCode)}</td>
            <td>
              ${r.batchId ? html`<a href="/batches/${encodeURIComponent(r.batchId)}">${r.batchId}</a>` : dash(undefined)}
            </td>
            <td>${dash(r.tenant)}</td>
            <td>${action(r)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
