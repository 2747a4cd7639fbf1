import type { QueueRow } from '../reads/queue.js';
import { html, type Html } from './html.js';
import { age, time } from './layout.js';
import { pager, type Paged } from './paging.js';
import { payer, type PayerNameMap } from './payer.js';
import { WorkflowType } from '../../../workflows/shared/workflow-types.js';
import { batchLink, verificationLink } from './links.js';
import type { CheckOf } from '../patient-rows.js';
import { checkPatient } from './patients.js';

const dash = (value: string | undefined) => value ?? html`<span class="muted">–</span>`;

export interface QueueTableOptions {
  caption: string;
  empty: string;
  /** The page's own path, for its pager. */
  path: string;
  names: PayerNameMap;
  /** The patient and visit of each verification that is a patient's check, shown beside its id. */
  checks?: ReadonlyMap<string, CheckOf>;
}

/** One page of a queue, oldest first; `action` renders the last cell of a row (a link or the decisions). */
export function queueTable(p: Paged<QueueRow>, o: QueueTableOptions, action: (row: QueueRow) => Html): Html {
  if (p.total === 0) return html`<p class="empty">${o.empty}</p>`;
  const now = Date.now();
  return html`<div class="table-wrap">
      <table class="queue">
        <caption>
          ${o.caption}: ${p.total}, oldest first${p.pages > 1 ? `, page ${p.page} of ${p.pages}` : ''}
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
          ${p.rows.map(
            (r) =>
              html`<tr>
                <td>${age(r.startedAt, now)}<br /><small class="muted">since ${time(r.startedAt)}</small></td>
                <td>
                  ${verificationLink(r.workflowId)}${checkPatient(o.checks?.get(r.workflowId))}${
                    r.type === WorkflowType.runInput
                      ? html`<br /><small class="muted">its verification had closed</small>`
                      : ''
                  }
                </td>
                <td>${payer(r.payerId, o.names) ?? dash(undefined)}</td>
                <td>${dash(r.specialtyCode)}</td>
                <td>${r.batchId ? batchLink(r.batchId) : dash(undefined)}</td>
                <td>${dash(r.tenant)}</td>
                <td>${action(r)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${pager(o.path, p)}`;
}
