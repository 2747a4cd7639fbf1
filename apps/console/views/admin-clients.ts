import type { IntakeClient } from '../../../src/access/intake-clients.js';
import { SCOPES } from '../../../src/access/scopes.js';
import { formError, invalidIf, tenantFields, tenantsText, type FieldError } from './admin-form.js';
import { html, type Html } from './html.js';
import { hiddenCsrf, time } from './layout.js';

/** What was typed in the form, to show it again beside a refusal (a client's form holds no secret). */
export interface ClientForm {
  name: string;
  tenant: string;
  allTenants: boolean;
  scopes: string[];
}

export const EMPTY_CLIENT_FORM: ClientForm = { name: '', tenant: '', allTenants: false, scopes: [] };

const dash = html`<span class="muted">–</span>`;

/** The public part of a key: enough to recognise it in a system's settings, nothing that works. */
export const keyPrefix = (id: string) => `eik_${id}_…`;

function clientRow(c: IntakeClient): Html {
  const id = encodeURIComponent(c.id);
  return html`<tr>
    <td>${c.name}</td>
    <td><code>${keyPrefix(c.id)}</code></td>
    <td>${c.tenant ?? 'all tenants'}</td>
    <td>${c.scopes.join(', ')}</td>
    <td>${time(c.createdAt)}<br /><small class="muted">by ${c.createdBy}</small></td>
    <td>${c.rotatedAt ? time(c.rotatedAt) : dash}</td>
    <td>${c.revokedAt ? time(c.revokedAt) : dash}</td>
    <td>
      ${
        c.revokedAt
          ? ''
          : html`<a href="/admin/clients/${id}/rotate">Rotate<span class="visually-hidden"> ${c.name}</span></a> ·
              <a href="/admin/clients/${id}/revoke">Revoke<span class="visually-hidden"> ${c.name}</span></a>`
      }
    </td>
  </tr>`;
}

export function clientsTable(clients: readonly IntakeClient[]): Html {
  if (clients.length === 0) return html`<p class="empty">No intake clients yet.</p>`;
  return html`<table>
    <caption>
      Intake clients: ${clients.length}
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Key</th>
        <th scope="col">Tenant</th>
        <th scope="col">Scopes</th>
        <th scope="col">Created</th>
        <th scope="col">Last rotated</th>
        <th scope="col">Revoked</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${clients.map(clientRow)}
    </tbody>
  </table>`;
}

export function createClientForm(
  csrf: string,
  adminTenants: readonly string[] | null,
  form: ClientForm,
  error?: FieldError,
): Html {
  return html`<form method="post" action="/admin/clients" class="card">
    <h2>Make a client</h2>
    ${hiddenCsrf(csrf)} ${formError('client-error', 'Not made', error)}
    <p>
      <label for="client-name">Name</label>
      <input
        id="client-name"
        name="name"
        value="${form.name}"
        required
        maxlength="100"
        placeholder="e.g. Clinic 42 PMS"
        ${invalidIf(error, 'name')}
      />
    </p>
    ${tenantFields({
      id: 'client-tenant',
      field: 'tenant',
      adminTenants,
      chosen: form.allTenants ? null : form.tenant ? [form.tenant] : [],
      single: true,
      error,
    })}
    <fieldset>
      <legend>Scopes</legend>
      ${SCOPES.map(
        (scope) =>
          html`<label class="inline" for="scope-${scope.replace(':', '-')}"
            ><input
              type="checkbox"
              id="scope-${scope.replace(':', '-')}"
              name="scopes"
              value="${scope}"
              ${form.scopes.includes(scope) ? 'checked' : ''}
            />
            ${scope}</label
          >`,
      )}
    </fieldset>
    <p><button type="submit">Make the client</button></p>
  </form>`;
}

/** The one page that shows a key: after it is made or rotated. Nothing else ever shows it again. */
export function issuedKeyView(client: { id: string; name: string }, key: string, rotated: boolean): Html {
  return html`<p role="alert" class="error">
      Copy this key now: it is shown only this once. The console keeps only its hash and cannot show it again; if it is
      lost, rotate the client for a new one.
    </p>
    <p>
      ${rotated ? 'New key' : 'Key'} of <strong>${client.name}</strong> (send it in the <code>x-api-key</code> header):
    </p>
    <p><code class="secret">${key}</code></p>
    ${rotated ? html`<p>The previous key was refused from this moment on.</p>` : ''}
    <p><a href="/admin/clients">Back to the intake clients</a></p>`;
}

/** The confirmation step of a rotation or a revocation: what it does, and one button that does it. */
export function confirmClientView(csrf: string, client: IntakeClient, act: 'rotate' | 'revoke'): Html {
  const does =
    act === 'rotate'
      ? 'A new key is made and shown once; the current key stops working at once, on every process.'
      : 'Its key is refused from the next request on, on every process. This cannot be undone.';
  return html`<dl class="facts">
      <dt>Name</dt>
      <dd>${client.name}</dd>
      <dt>Key</dt>
      <dd><code>${keyPrefix(client.id)}</code></dd>
      <dt>Tenant</dt>
      <dd>${tenantsText(client.tenant === null ? null : [client.tenant])}</dd>
      <dt>Scopes</dt>
      <dd>${client.scopes.join(', ')}</dd>
    </dl>
    <p>${does}</p>
    <form method="post" action="/admin/clients/${encodeURIComponent(client.id)}/${act}">
      ${hiddenCsrf(csrf)}<input type="hidden" name="confirm" value="yes" />
      <button type="submit" class="danger">${act === 'rotate' ? 'Rotate the key' : 'Revoke the client'}</button>
      <a class="button secondary" href="/admin/clients">Keep it as it is</a>
    </form>`;
}
