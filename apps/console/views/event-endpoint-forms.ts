import type { EndpointView } from '../../../src/events/endpoints.js';
import { ROTATION_GRACE } from '../../../src/events/endpoint-rules.js';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../../workflows/shared/event-catalogue.js';
import { formError, invalidIf, tenantFields, type FieldError } from './admin-form.js';
import { endpointFacts, endpointPath } from './event-endpoints.js';
import { html, type Html } from './html.js';
import { hiddenCsrf } from './layout.js';

/** What was typed in the form, to show it again beside a refusal (an endpoint's form holds no secret). */
export interface EndpointForm {
  url: string;
  events: string[];
  description: string;
  tenant: string;
}

export const EMPTY_ENDPOINT_FORM: EndpointForm = { url: '', events: [], description: '', tenant: '' };

/** The tenant field: none for an administrator of one tenant, a choice of theirs, or any tenant for one of every. */
function tenantField(adminTenants: readonly string[] | null, form: EndpointForm, error: FieldError | undefined) {
  if (adminTenants !== null) {
    if (adminTenants.length === 1) return html`<p>Tenant: <strong>${adminTenants[0]}</strong></p>`;
    const chosen = form.tenant ? [form.tenant] : [];
    return tenantFields({ id: 'endpoint-tenant', field: 'tenant', adminTenants, chosen, single: true, error });
  }
  return html`<p>
    <label for="endpoint-tenant">Tenant</label>
    <input
      id="endpoint-tenant"
      name="tenant"
      value="${form.tenant}"
      maxlength="64"
      aria-describedby="endpoint-tenant-help"
      ${invalidIf(error, 'tenant')}
    />
    <small class="help" id="endpoint-tenant-help"
      >Whose events it receives (letters, digits, . _ : @ -). Empty: <code>default</code>, the verifications started
      without a tenant.</small
    >
  </p>`;
}

export function createEndpointForm(
  csrf: string,
  adminTenants: readonly string[] | null,
  form: EndpointForm,
  error?: FieldError,
): Html {
  return html`<form method="post" action="/event-endpoints" class="card">
    ${hiddenCsrf(csrf)} ${formError('endpoint-error', 'Not added', error)}
    <p>
      <label for="endpoint-url">URL</label>
      <input
        id="endpoint-url"
        name="url"
        type="url"
        value="${form.url}"
        required
        maxlength="2048"
        placeholder="https://pms.example/hooks"
        aria-describedby="endpoint-url-help"
        ${invalidIf(error, 'url')}
      />
      <small class="help" id="endpoint-url-help">Where events are POSTed: http or https, no user or password.</small>
    </p>
    <fieldset ${invalidIf(error, 'events')}>
      <legend>Events</legend>
      ${EVENT_TYPES.map(
        (type, i) =>
          html`<label class="inline" for="event-${i}"
            ><input
              type="checkbox"
              id="event-${i}"
              name="events"
              value="${type}"
              ${form.events.includes(type) ? 'checked' : ''}
            />
            <code>${type}</code>: ${EVENT_CATALOGUE[type].description}</label
          >`,
      )}
    </fieldset>
    <p>
      <label for="endpoint-description">Description</label>
      <input
        id="endpoint-description"
        name="description"
        value="${form.description}"
        maxlength="500"
        placeholder="e.g. Clinic 42 PMS"
        ${invalidIf(error, 'description')}
      />
    </p>
    ${tenantField(adminTenants, form, error)}
    <p><button type="submit">Add the endpoint</button> <a href="/event-endpoints">Back to the endpoints</a></p>
  </form>`;
}

/** The one page that shows a signing secret: after the endpoint is added or its secret rotated. */
export function secretView(endpoint: EndpointView, secret: string, rotated: boolean): Html {
  return html`<p role="alert" class="error">
      Copy this signing secret now: it is shown only this once. The console keeps it sealed and cannot show it again; if
      it is lost, rotate the secret for a new one.
    </p>
    <p>
      ${rotated ? 'New signing secret' : 'Signing secret'} of <code>${endpoint.url}</code> (the receiver verifies each
      delivery with it: Standard Webhooks, <code>new Webhook(secret).verify(body, headers)</code>):
    </p>
    <p><code class="secret">${secret}</code></p>
    ${
      rotated && endpoint.previousSecretExpiresAt
        ? html`<p>The previous secret keeps signing beside it until ${endpoint.previousSecretExpiresAt}.</p>`
        : rotated
          ? html`<p>The previous secret stopped signing at once.</p>`
          : ''
    }
    <p><a href="${endpointPath(endpoint)}">Back to the endpoint</a></p>`;
}

/** The confirmation step of a rotation or a deletion: what it does, and one button that does it. */
export function confirmEndpointView(
  csrf: string,
  endpoint: EndpointView,
  act: 'rotate' | 'delete',
  error?: FieldError,
): Html {
  const path = endpointPath(endpoint);
  const grace = html`<p>
    <label for="grace-hours">Hours the current secret keeps signing beside the new one</label>
    <input
      id="grace-hours"
      name="graceHours"
      type="number"
      min="0"
      max="${String(ROTATION_GRACE.maxSeconds / 3600)}"
      step="1"
      value="${String(ROTATION_GRACE.defaultSeconds / 3600)}"
      required
      ${invalidIf(error, 'graceHours')}
    />
  </p>`;
  const does =
    act === 'rotate'
      ? 'A new signing secret is made and shown once. The current one keeps signing beside it for the hours below, so the receiver can take the new one without refusing a delivery (0: it stops at once).'
      : 'The endpoint and its deliveries log are deleted; no event is delivered to it any more. This cannot be undone.';
  return html`${endpointFacts(endpoint)}
    <p>${does}</p>
    <form method="post" action="${path}/${act}">
      ${hiddenCsrf(csrf)} ${formError('confirm-error', 'Not rotated', error)}
      <input type="hidden" name="confirm" value="yes" />
      ${act === 'rotate' ? grace : ''}
      <button type="submit" class="danger">${act === 'rotate' ? 'Rotate the secret' : 'Delete the endpoint'}</button>
      <a class="button secondary" href="${path}">Keep it as it is</a>
    </form>`;
}
