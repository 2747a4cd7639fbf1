import { html, type Html } from './html.js';

/** A refusal to show beside a form: the field to correct and why, never the value (it may be a secret). */
export interface FieldError {
  field: string;
  reason: string;
}

/** The refusal at the top of a form, read out at once (role=alert). */
export const formError = (id: string, what: string, error: FieldError | undefined): Html | '' =>
  error ? html`<p class="error" role="alert" id="${id}">${what} (field ${error.field}): ${error.reason}.</p>` : '';

/** `aria-invalid` on the input the refusal names (the refusal itself is read out as an alert). */
export const invalidIf = (error: FieldError | undefined, ...fields: string[]): Html | '' =>
  error && fields.includes(error.field) ? html`aria-invalid="true"` : '';

/**
 * The tenants an administrator may give: checkboxes of their own tenants, or, for an administrator of every tenant, a
 * text field (one or several, comma-separated) and an "all tenants" box. `single` offers one tenant (an intake client).
 */
export function tenantFields(options: {
  id: string;
  field: string;
  adminTenants: readonly string[] | null;
  chosen: readonly string[] | null;
  single: boolean;
  error: FieldError | undefined;
}): Html {
  const { id, field, adminTenants, chosen, single, error } = options;
  const invalid = invalidIf(error, field);
  if (adminTenants !== null) {
    if (single) {
      return html`<p>
        <label for="${id}">Tenant</label>
        <select id="${id}" name="${field}" ${invalid}>
          ${adminTenants.map((t) => html`<option value="${t}" ${chosen?.includes(t) ? 'selected' : ''}>${t}</option>`)}
        </select>
      </p>`;
    }
    return html`<fieldset>
      <legend>Tenants</legend>
      ${adminTenants.map(
        (t, i) =>
          html`<label class="inline" for="${id}-${i}"
            ><input
              type="checkbox"
              id="${id}-${i}"
              name="${field}"
              value="${t}"
              ${chosen?.includes(t) ? 'checked' : ''}
            />
            ${t}</label
          >`,
      )}
    </fieldset>`;
  }
  return html`<p>
      <label for="${id}">${single ? 'Tenant' : 'Tenants'}</label>
      <input
        id="${id}"
        name="${field}"
        value="${chosen?.join(', ') ?? ''}"
        maxlength="1000"
        aria-describedby="${id}-help"
        ${invalid}
      />
      <small class="help" id="${id}-help"
        >${single ? 'One tenant identifier' : 'Tenant identifiers, separated by commas'} (letters, digits, . _ : @
        -).</small
      >
    </p>
    <p>
      <label class="inline" for="${id}-all"
        ><input type="checkbox" id="${id}-all" name="allTenants" value="yes" ${chosen === null ? 'checked' : ''} /> All
        tenants</label
      >
    </p>`;
}

/** Tenants for people: `all tenants`, or the list. */
export const tenantsText = (tenants: readonly string[] | null): string => tenants?.join(', ') ?? 'all tenants';
