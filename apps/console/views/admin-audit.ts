import type { AuditEntry } from '../../../src/audit/audit-entry.js';
import type { Verification } from '../../../src/audit/audit-trail.js';
import { formError, invalidIf, type FieldError } from './admin-form.js';
import { html, type Html } from './html.js';
import { hiddenCsrf, time } from './layout.js';

/** The search form's fields as typed (identifiers and times; never a patient value, which no entry holds). */
export const FILTER_FIELDS = [
  ['actor', 'Actor', 'e.g. operator:ana, client:3f2a9c0d1e4b (Clinic 42 PMS), cli:bo'],
  ['action', 'Action', 'e.g. verification.read, client.revoke'],
  ['workflowId', 'Workflow id', ''],
  ['batchId', 'Batch id', ''],
  ['tenant', 'Tenant', ''],
  ['since', 'Since (UTC)', 'e.g. 2026-11-25 or 2026-11-25T14:00'],
  ['until', 'Until (UTC)', 'before this time'],
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number][0];
export type TypedFilter = Partial<Record<FilterField, string>>;

/** The filter carried by a form that repeats the search (the next page, the export). */
const hiddenFilter = (typed: TypedFilter) =>
  FILTER_FIELDS.map(([field]) =>
    typed[field] ? html`<input type="hidden" name="${field}" value="${typed[field]}" />` : '',
  );

/** Posted, not a GET: whatever a person types stays out of URLs, history and request logs. */
export function auditSearchForm(csrf: string, typed: TypedFilter, error?: FieldError): Html {
  return html`<form method="post" action="/admin/audit" class="card" role="search">
    <h2>Search</h2>
    ${hiddenCsrf(csrf)} ${formError('audit-error', 'Not searched', error)}
    <div class="filters">
      ${FILTER_FIELDS.map(
        ([field, label, help]) =>
          html`<p>
            <label for="filter-${field}">${label}</label>
            <input
              id="filter-${field}"
              name="${field}"
              value="${typed[field] ?? ''}"
              maxlength="200"
              ${help ? html`aria-describedby="filter-${field}-help"` : ''}
              ${invalidIf(error, field)}
            />
            ${help ? html`<small class="help" id="filter-${field}-help">${help}</small>` : ''}
          </p>`,
      )}
    </div>
    <p><button type="submit">Search</button> <a class="button secondary" href="/admin/audit">Clear</a></p>
  </form>`;
}

const dash = html`<span class="muted">–</span>`;

export function entriesTable(entries: readonly AuditEntry[]): Html {
  if (entries.length === 0) return html`<p class="empty">No entry matches.</p>`;
  return html`<table>
    <caption>
      Entries ${entries[0]!.seq} to ${entries[entries.length - 1]!.seq}, newest first (field names only: entries never
      hold values)
    </caption>
    <thead>
      <tr>
        <th scope="col">#</th>
        <th scope="col">At</th>
        <th scope="col">Actor</th>
        <th scope="col">Tenant</th>
        <th scope="col">Action</th>
        <th scope="col">Object</th>
        <th scope="col">Fields</th>
        <th scope="col">Source</th>
        <th scope="col">Outcome</th>
      </tr>
    </thead>
    <tbody>
      ${entries.map(
        (e) =>
          html`<tr>
            <td>${e.seq}</td>
            <td>${time(e.at)}</td>
            <td>${e.actor}</td>
            <td>${e.tenant ?? dash}</td>
            <td>${e.action}</td>
            <td>${e.workflowId ?? (e.batchId ? `batch ${e.batchId}` : dash)}</td>
            <td>${e.fields.length > 0 ? e.fields.join(', ') : dash}</td>
            <td>${e.source ?? dash}</td>
            <td>${e.outcome}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The next page's button and the export's, each repeating the filter. */
export function auditActions(csrf: string, typed: TypedFilter, olderThan: number | undefined): Html {
  return html`<div class="actions">
    ${
      olderThan !== undefined
        ? html`<form method="post" action="/admin/audit">
            ${hiddenCsrf(csrf)} ${hiddenFilter(typed)}<input type="hidden" name="before" value="${olderThan}" />
            <button type="submit" class="secondary">Older entries</button>
          </form>`
        : ''
    }
    <form method="post" action="/admin/audit.jsonl">
      ${hiddenCsrf(csrf)} ${hiddenFilter(typed)}
      <button type="submit">Export this search (JSON Lines)</button>
    </form>
    <form method="post" action="/admin/audit/verify">
      ${hiddenCsrf(csrf)}
      <button type="submit">Verify the chain</button>
    </form>
  </div>`;
}

export function verificationView(result: Verification): Html {
  return html`${
      result.ok
        ? html`<p class="notice" role="status">
            The chain holds: ${result.entries} entries, each matching its hash and following the one before it.
          </p>`
        : html`<p class="error" role="alert">
            The chain is broken at entry ${result.brokenAt}: ${result.why}. The ${result.entries} entries before it
            hold.
          </p>`
    }
    <p><a href="/admin/audit">Back to the audit trail</a></p>`;
}
