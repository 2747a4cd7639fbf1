import type { FailedRow, ListRow } from '../reads/worklists.js';
import { html, type Html } from './html.js';
import { age, time } from './layout.js';
import { pager, type Paged } from './paging.js';
import { payer, type PayerNameMap } from './payer.js';
import { stageBadge } from './stage-words.js';
import { batchLink, verificationLink } from './links.js';
import type { CheckOf } from '../patient-rows.js';
import { checkPatient } from './patients.js';

const dash = (value: Html | string | undefined) => value ?? html`<span class="muted">–</span>`;

export interface ListTableOptions {
  caption: string;
  empty: string;
  path: string;
  /** The list's other URL parameters (identifiers only), kept by the pager. */
  params?: Record<string, string>;
  /** The error field column (the failed list). */
  errorField?: boolean;
  /** The patient and visit of each verification that is a patient's check, shown beside its id. */
  checks?: ReadonlyMap<string, CheckOf>;
}

/** A list of verifications, one page of it, with payers by name; a table that scrolls inside itself on a phone. */
export function listTable(p: Paged<ListRow | FailedRow>, names: PayerNameMap, o: ListTableOptions): Html {
  if (p.total === 0) return html`<p class="empty">${o.empty}</p>`;
  const now = Date.now();
  return html`<div class="table-wrap">
      <table class="queue">
        <caption>
          ${o.caption}: ${p.total}${p.pages > 1 ? `, page ${p.page} of ${p.pages}` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Verification</th>
            <th scope="col">Stage</th>
            <th scope="col">Payer</th>
            ${o.errorField ? html`<th scope="col">Error field</th>` : ''}
            <th scope="col">Batch</th>
          </tr>
        </thead>
        <tbody>
          ${p.rows.map(
            (r) =>
              html`<tr>
                <td>${age(r.startedAt, now)} ago<br /><small class="muted">${time(r.startedAt)}</small></td>
                <td>${verificationLink(r.workflowId)}${checkPatient(o.checks?.get(r.workflowId))}</td>
                <td>${stageBadge(r.stage)}</td>
                <td>${dash(payer(r.payerId, names))}</td>
                ${o.errorField ? html`<td><code>${(r as FailedRow).errorField}</code></td>` : ''}
                <td>${r.batchId ? batchLink(r.batchId) : dash(undefined)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    ${pager(o.path, p, o.params)}`;
}

/** Counts by a key, each a link that filters the list by it. */
export function groupLinks(
  heading: string,
  groups: readonly [string, number][],
  link: (value: string) => string,
  label: (value: string) => Html | string,
  current: string | undefined,
): Html {
  if (groups.length === 0) return html``;
  return html`<section class="card groups" aria-label="${heading}">
    <h2>${heading}</h2>
    <ul class="plain">
      ${groups.map(
        ([value, count]) =>
          html`<li>
            <a href="${link(value)}" ${value === current ? html`aria-current="true"` : ''}>${label(value)}</a>: ${count}
          </li>`,
      )}
    </ul>
  </section>`;
}
