import type { EndpointView } from '../../../src/events/endpoints.js';
import type { DeliveryView } from '../../../src/events/event-log.js';
import { formError, type FieldError } from './admin-form.js';
import { html, type Html } from './html.js';
import { hiddenCsrf, time } from './layout.js';

const dash = html`<span class="muted">–</span>`;

/** Why an endpoint stopped, in plain words (the reasons of src/events/endpoints.ts and the dispatcher's). */
export function disabledReason(reason: string | undefined): string {
  switch (reason) {
    case 'gone':
      return 'answered 410 Gone';
    case 'failing':
      return 'every delivery failed for the whole retry window';
    case 'disabled':
      return 'disabled by a person';
    default:
      return reason ?? 'disabled';
  }
}

const status = (e: EndpointView): Html =>
  e.status === 'active'
    ? html`active`
    : html`<strong>disabled</strong>:
        ${disabledReason(e.disabledReason)}${
          e.disabledAt ? html`<br /><small class="muted">since ${time(e.disabledAt)}</small>` : ''
        }`;

export const endpointPath = (e: Pick<EndpointView, 'id'>) => `/event-endpoints/${encodeURIComponent(e.id)}`;

/** The notice at the top of the list: no event reaches a disabled endpoint, so it must not be missed. */
export function disabledNotice(endpoints: readonly EndpointView[]): Html | '' {
  const disabled = endpoints.filter((e) => e.status !== 'active');
  if (disabled.length === 0) return '';
  const count = disabled.length === 1 ? '1 endpoint is disabled' : `${disabled.length} endpoints are disabled`;
  return html`<div class="error" id="disabled-endpoints">
    <p><strong>${count}</strong>: no events are delivered to ${disabled.length === 1 ? 'it' : 'them'}.</p>
    <ul>
      ${disabled.map(
        (e) =>
          html`<li><a href="${endpointPath(e)}">${e.url}</a> (${e.tenant}): ${disabledReason(e.disabledReason)}</li>`,
      )}
    </ul>
  </div>`;
}

function endpointRow(e: EndpointView): Html {
  return html`<tr>
    <td><code>${e.url}</code></td>
    <td>${e.tenant}</td>
    <td>${e.events.join(', ')}</td>
    <td>${e.description ?? dash}</td>
    <td>${status(e)}</td>
    <td>${time(e.createdAt)}</td>
    <td>
      <a href="${endpointPath(e)}">Deliveries<span class="visually-hidden"> to ${e.url}</span></a>
    </td>
  </tr>`;
}

export function endpointsTable(endpoints: readonly EndpointView[]): Html {
  if (endpoints.length === 0) return html`<p class="empty">No event endpoints yet.</p>`;
  return html`<table>
    <caption>
      Event endpoints: ${endpoints.length}
    </caption>
    <thead>
      <tr>
        <th scope="col">URL</th>
        <th scope="col">Tenant</th>
        <th scope="col">Events</th>
        <th scope="col">Description</th>
        <th scope="col">Status</th>
        <th scope="col">Created</th>
        <th scope="col"><span class="visually-hidden">Deliveries</span></th>
      </tr>
    </thead>
    <tbody>
      ${endpoints.map(endpointRow)}
    </tbody>
  </table>`;
}

export function endpointFacts(e: EndpointView): Html {
  return html`<dl class="facts">
    <dt>Id</dt>
    <dd><code>${e.id}</code></dd>
    <dt>URL</dt>
    <dd><code>${e.url}</code></dd>
    <dt>Tenant</dt>
    <dd>${e.tenant}</dd>
    <dt>Events</dt>
    <dd>${e.events.join(', ')}</dd>
    <dt>Description</dt>
    <dd>${e.description ?? dash}</dd>
    <dt>Status</dt>
    <dd>${status(e)}</dd>
    <dt>Created</dt>
    <dd>${time(e.createdAt)}</dd>
    ${
      e.previousSecretExpiresAt
        ? html`<dt>Previous secret</dt>
            <dd>still signs beside the new one until ${time(e.previousSecretExpiresAt)}</dd>`
        : ''
    }
  </dl>`;
}

/** What an administrator may do to one endpoint: enable or disable it, rotate its secret, delete it, redeliver. */
export function endpointActions(csrf: string, e: EndpointView, redeliverError?: FieldError): Html {
  const path = endpointPath(e);
  const toggle = e.status === 'active' ? 'disable' : 'enable';
  return html`<section class="card" aria-labelledby="actions-heading">
    <h2 id="actions-heading">Change it</h2>
    <form method="post" action="${path}/${toggle}">
      ${hiddenCsrf(csrf)}
      <button type="submit" ${toggle === 'disable' ? html`class="danger"` : ''}>
        ${toggle === 'disable' ? 'Disable it' : 'Enable it'}
      </button>
      <a class="button secondary" href="${path}/rotate">Rotate the secret</a>
      <a class="button secondary" href="${path}/delete">Delete it</a>
    </form>
    <h3>Redeliver</h3>
    ${formError('redeliver-error', 'Not redelivered', redeliverError)}
    ${
      e.status === 'active'
        ? html`<form method="post" action="${path}/redeliver">
            ${hiddenCsrf(csrf)}
            <p>
              <label for="failed-since">Every event it did not acknowledge since (UTC)</label>
              <input
                id="failed-since"
                name="failedSince"
                type="datetime-local"
                required
                ${redeliverError ? html`aria-invalid="true"` : ''}
              />
            </p>
            <p><button type="submit">Redeliver them</button></p>
          </form>`
        : html`<p>Enable it first: a disabled endpoint gets no deliveries, redelivered ones neither.</p>`
    }
  </section>`;
}

function deliveryRow(d: DeliveryView): Html {
  return html`<tr>
    <td>
      ${d.eventType}<br /><small class="muted"><code>${d.eventId}</code></small>
    </td>
    <td>${d.attempt === 0 ? html`<span class="muted">never tried</span>` : String(d.attempt)}</td>
    <td>${d.status}</td>
    <td>${d.statusCode !== undefined ? String(d.statusCode) : (d.errorType ?? dash)}</td>
    <td>${d.latencyMs !== undefined ? `${d.latencyMs} ms` : dash}</td>
    <td>${time(d.attemptedAt)}</td>
    <td>${d.nextRetryAt ? time(d.nextRetryAt) : dash}</td>
  </tr>`;
}

export function deliveriesTable(deliveries: readonly DeliveryView[], limit: number): Html {
  if (deliveries.length === 0) return html`<p class="empty">No delivery attempts yet.</p>`;
  return html`<table>
    <caption>
      The last ${deliveries.length === limit ? `${limit}` : `${deliveries.length}`} attempts, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Event</th>
        <th scope="col">Attempt</th>
        <th scope="col">Result</th>
        <th scope="col">Status code or error</th>
        <th scope="col">Latency</th>
        <th scope="col">When</th>
        <th scope="col">Next retry</th>
      </tr>
    </thead>
    <tbody>
      ${deliveries.map(deliveryRow)}
    </tbody>
  </table>`;
}
