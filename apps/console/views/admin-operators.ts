import { OPERATOR_ROLES, type ListedOperator, type OperatorRole } from '../../../src/access/operators.js';
import { formError, invalidIf, tenantFields, tenantsText, type FieldError } from './admin-form.js';
import { html, type Html } from './html.js';
import { hiddenCsrf, time } from './layout.js';

/** What was typed in an operator's form, to show again beside a refusal: never the passwords. */
export interface OperatorForm {
  name: string;
  role: OperatorRole;
  /** null: all tenants. */
  tenants: string[] | null;
}

export const EMPTY_OPERATOR_FORM: OperatorForm = { name: '', role: 'operator', tenants: [] };

const dash = html`<span class="muted">–</span>`;

const ROLE_HELP = 'admin: everything; operator: answers runs, decides reviews, acts on batches; viewer: reads, masked.';

export function operatorsTable(operators: readonly ListedOperator[]): Html {
  if (operators.length === 0) return html`<p class="empty">No operators in the directory yet.</p>`;
  return html`<table>
    <caption>
      Operators: ${operators.length}
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Role</th>
        <th scope="col">Tenants</th>
        <th scope="col">Created</th>
        <th scope="col">Disabled</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${operators.map(
        (o) =>
          html`<tr>
            <td>${o.name}</td>
            <td>${o.role}</td>
            <td>${tenantsText(o.tenants)}</td>
            <td>${time(o.createdAt)}<br /><small class="muted">by ${o.createdBy}</small></td>
            <td>${o.disabledAt ? time(o.disabledAt) : dash}</td>
            <td>
              ${
                o.disabledAt
                  ? ''
                  : html`<a href="/admin/operators/${encodeURIComponent(o.name)}"
                      >Change<span class="visually-hidden"> ${o.name}</span></a
                    >`
              }
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function roleSelect(id: string, role: OperatorRole, error: FieldError | undefined): Html {
  return html`<p>
    <label for="${id}">Role</label>
    <select id="${id}" name="role" aria-describedby="${id}-help" ${invalidIf(error, 'role')}>
      ${OPERATOR_ROLES.map((r) => html`<option value="${r}" ${r === role ? 'selected' : ''}>${r}</option>`)}
    </select>
    <small class="help" id="${id}-help">${ROLE_HELP}</small>
  </p>`;
}

/** The password twice; never filled in again after a refusal. */
function passwordFields(id: string, label: string, required: boolean, error: FieldError | undefined): Html {
  return html`<p>
      <label for="${id}">${label}</label>
      <input
        id="${id}"
        name="password"
        type="password"
        autocomplete="new-password"
        minlength="12"
        aria-describedby="${id}-help"
        ${required ? 'required' : ''}
        ${invalidIf(error, 'password')}
      />
      <small class="help" id="${id}-help">At least 12 characters.</small>
    </p>
    <p>
      <label for="${id}-again">${label}, again</label>
      <input
        id="${id}-again"
        name="passwordAgain"
        type="password"
        autocomplete="new-password"
        ${required ? 'required' : ''}
        ${invalidIf(error, 'passwordAgain')}
      />
    </p>`;
}

export function createOperatorForm(
  csrf: string,
  adminTenants: readonly string[] | null,
  form: OperatorForm,
  error?: FieldError,
): Html {
  return html`<form method="post" action="/admin/operators" class="card">
    <h2>Add an operator</h2>
    ${hiddenCsrf(csrf)} ${formError('operator-error', 'Not added', error)}
    <p>
      <label for="operator-name">Name</label>
      <input
        id="operator-name"
        name="name"
        value="${form.name}"
        required
        maxlength="64"
        autocomplete="off"
        aria-describedby="operator-name-help"
        ${invalidIf(error, 'name')}
      />
      <small class="help" id="operator-name-help">The name they sign in with: letters, digits and . _ @ -.</small>
    </p>
    ${roleSelect('operator-role', form.role, error)}
    ${tenantFields({
      id: 'operator-tenants',
      field: 'tenants',
      adminTenants,
      chosen: form.tenants,
      single: false,
      error,
    })}
    ${passwordFields('operator-password', 'Password', true, error)}
    <p><button type="submit">Add the operator</button></p>
  </form>`;
}

/** One operator's page: change their role, tenants or password; disable them (not oneself). */
export function operatorView(
  csrf: string,
  adminTenants: readonly string[] | null,
  operator: ListedOperator,
  options: { self: boolean; form?: OperatorForm; error?: FieldError },
): Html {
  const { self, error } = options;
  const form = options.form ?? operator;
  const action = `/admin/operators/${encodeURIComponent(operator.name)}`;
  return html`<dl class="facts">
      <dt>Role</dt>
      <dd>${operator.role}</dd>
      <dt>Tenants</dt>
      <dd>${tenantsText(operator.tenants)}</dd>
      <dt>Created</dt>
      <dd>${time(operator.createdAt)} by ${operator.createdBy}</dd>
    </dl>
    ${
      self
        ? html`<p class="lead">
            This is you. You cannot disable yourself or take away your own admin role; another administrator can.
          </p>`
        : ''
    }
    <form method="post" action="${action}" class="card">
      <h2>Change</h2>
      ${hiddenCsrf(csrf)} ${formError('change-error', 'Not changed', error)}
      ${roleSelect('change-role', form.role, error)}
      ${tenantFields({
        id: 'change-tenants',
        field: 'tenants',
        adminTenants,
        chosen: form.tenants,
        single: false,
        error,
      })}
      ${passwordFields('change-password', 'New password (leave empty to keep it)', false, error)}
      <p><button type="submit">Save the changes</button></p>
    </form>
    ${
      self
        ? ''
        : html`<form method="post" action="${action}/disable" class="card">
            <h2>Disable</h2>
            ${hiddenCsrf(csrf)}
            <p>Their session ends at their next request, and they can no longer sign in.</p>
            <p>
              <label class="inline" for="disable-confirm"
                ><input type="checkbox" id="disable-confirm" name="confirm" value="yes" required /> Disable
                ${operator.name}</label
              >
            </p>
            <p><button type="submit" class="danger">Disable</button></p>
          </form>`
    }
    <p><a href="/admin/operators">Back to the operators</a></p>`;
}
