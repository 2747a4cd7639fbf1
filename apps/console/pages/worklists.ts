import type { FastifyInstance } from 'fastify';
import { payerNames, sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { groupCounts, PAGE_SIZE, readFailed, readNewestStarted } from '../reads/worklists.js';
import { checksOf } from '../patient-rows.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import { groupLinks, listTable } from '../views/lists.js';
import { pageParam, paged } from '../views/paging.js';
import { payer } from '../views/payer.js';

/** A filter value from the URL: an identifier (payer ids, field names), anything else ignored. */
const filterParam = (query: unknown, name: string): string | undefined => {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && /^[A-Za-z0-9._:@ -]{1,100}$/.test(value) ? value : undefined;
};

/**
 * The failed list (the newest failures, grouped by payer and by the field their last error named, each group a
 * filter) and the recent list (every verification, newest started first). Both page by 25 from visibility; the patient
 * and visit beside a patient's check come from its copy, each patient shown a `patient.read` entry of its own.
 */
export function worklistPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const list = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'identifiers, stages, payers, error fields; each patient of a check shown is its own patient.read' },
  } as const;
  app.get('/failed', { config: list }, async (request, reply) => {
    const { tenants } = operatorOf(request);
    const all = await withDeadline(deps, () => readFailed(deps.client, tenants));
    const payerId = filterParam(request.query, 'payer');
    const field = filterParam(request.query, 'field');
    const rows = all.filter((r) => (!payerId || r.payerId === payerId) && (!field || r.errorField === field));
    const names = await payerNames(
      deps,
      all.map((r) => r.payerId),
    );
    const params = { ...(payerId ? { payer: payerId } : {}), ...(field ? { field } : {}) };
    const shown = paged(rows, pageParam(request.query));
    const checks = await checksOf(
      deps,
      request,
      shown.rows.map((r) => r.workflowId),
    );
    const byPayer = groupCounts(all, (r) => r.payerId ?? 'none');
    const byField = groupCounts(all, (r) => r.errorField);
    const withParam = (name: string, value: string) =>
      `/failed?${new URLSearchParams({ ...params, [name]: value }).toString()}`;
    return sendPage(request, reply, { title: 'Failed verifications', section: '/failed' }, () => {
      const filters = payerId || field ? html`<p><a href="/failed">Show every failure</a></p>` : '';
      return html`<p class="lead">
          Verifications that ended failed or ran out of time, newest first. Open one to see its last error; a batch's
          failures can be resubmitted from the batch.
        </p>
        <div class="columns narrow-first">
          <div>
            ${groupLinks(
              'By payer',
              byPayer,
              (v) => withParam('payer', v),
              (v) => payer(v, names) ?? v,
              payerId,
            )}
            ${groupLinks(
              'By error field',
              byField,
              (v) => withParam('field', v),
              (v) => html`<code>${v}</code>`,
              field,
            )}
          </div>
          <div>
            ${filters}
            ${listTable(shown, names, {
              caption: 'Failed verifications',
              empty: 'No verification has failed.',
              path: '/failed',
              params,
              errorField: true,
              checks,
            })}
          </div>
        </div>`;
    });
  });

  app.get('/recent', { config: list }, async (request, reply) => {
    const { tenants } = operatorOf(request);
    const page = pageParam(request.query);
    // Newest started first: read as far as this page and one row more, to know whether another page follows.
    const rows = await withDeadline(deps, () => readNewestStarted(deps.client, tenants, page * PAGE_SIZE + 1));
    const names = await payerNames(
      deps,
      rows.map((r) => r.payerId),
    );
    const shown = paged(rows, page);
    const pages = rows.length > page * PAGE_SIZE ? page + 1 : shown.pages;
    const checks = await checksOf(
      deps,
      request,
      shown.rows.map((r) => r.workflowId),
    );
    return sendPage(request, reply, { title: 'Recent verifications', section: '/recent' }, () =>
      listTable({ ...shown, pages, total: shown.total }, names, {
        caption: 'Verifications, newest started first',
        empty: 'No verification yet.',
        path: '/recent',
        checks,
      }),
    );
  });
}
