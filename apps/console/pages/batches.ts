import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { BatchNotFoundError, cancelBatch, resubmitBatch } from '../../../src/batches/actions.js';
import { RESULTS_MEDIA_TYPE, resultsCsv, resultsJsonl } from '../../../src/batches/results-format.js';
import { batchResults } from '../../../src/batches/results.js';
import { operatorOf } from '../session.js';
import { resultPatientFields } from '../../../src/batches/results.js';
import { mayAct } from '../../../src/access/operators.js';
import { audited } from '../audit.js';
import { ownedBatch } from '../../../src/access/owned-object.js';
import { resultsFor } from '../../../src/access/masking.js';
import { batchesOf } from '../reads/batches.js';
import { requireCsrf } from '../csrf.js';
import { payerNames, sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { batchRows, hopelessFailures } from '../reads/batch-page.js';
import { batchDetail, batchesList, batchName } from '../views/batches.js';
import { pageParam, paged } from '../views/paging.js';

/** Batches on one page of the list, and items on one page of a batch. */
const BATCHES_PER_PAGE = 20;
const ITEMS_PER_PAGE = 50;
import { notFoundPage } from './not-found.js';

/** A results export reads every item's close event: far longer than one page's usual Temporal deadline. */
const RESULTS_TIMEOUT_MS = 10 * 60_000;
/** The failed group's outcomes a person may start again (`abandoned` was a person's decision). */
const RESUBMIT_FAILED = ['failed', 'timed-out', 'terminated'] as const;

/**
 * Batches: the list with progress by outcome, one batch's page (progress, items, downloads, resubmit failed,
 * cancel). The same functions serve `eligibility batches` and the intake API's batch routes (src/batches).
 */
export function batchPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const list = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'counts and states of the operator’s tenants’ batches, no patient data' },
  } as const;
  app.get('/batches', { config: list }, async (request, reply) => {
    const page = pageParam(request.query);
    // Read as far as this page and one batch more; newest first by submission, whatever changed one since.
    const batches = await withDeadline(deps, () =>
      batchesOf(deps.client, operatorOf(request).tenants, page * BATCHES_PER_PAGE + 1),
    );
    batches.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const shown = paged(batches, page, BATCHES_PER_PAGE);
    const pages = batches.length > page * BATCHES_PER_PAGE ? page + 1 : shown.pages;
    return sendPage(request, reply, { title: 'Batches', section: '/batches' }, () => batchesList({ ...shown, pages }));
  });

  const page = {
    access: { role: 'viewer' },
    owns: 'batch',
    audit: { none: 'progress, identifiers and outcomes of items, no patient data (the downloads are recorded)' },
  } as const;
  app.get<{ Params: { batchId: string } }>('/batches/:batchId', { config: page }, async (request, reply) => {
    const view = ownedBatch(request);
    const { items, invalid } = await withDeadline(deps, () => batchRows(deps.client, view));
    const shown = paged(items, pageParam(request.query), ITEMS_PER_PAGE);
    const [names, hopeless] = await Promise.all([
      payerNames(
        deps,
        shown.rows.map((i) => i.payerId),
      ),
      withDeadline(deps, () => hopelessFailures(deps.client, items)),
    ]);
    return sendPage(request, reply, { title: `Batch ${batchName(view)}`, section: '/batches' }, (csrf) =>
      batchDetail(view, { items: shown, invalid, hopeless, names }, csrf, mayAct(operatorOf(request))),
    );
  });

  const results = { access: { role: 'viewer' }, owns: 'batch', audit: 'batch.results' } as const;
  app.get<{ Params: { batchId: string; format: string } }>(
    '/batches/:batchId/results.:format',
    { config: results },
    async (request, reply) => {
      const format = request.params.format;
      if (format !== 'csv' && format !== 'jsonl') return notFoundPage(request, reply, 'There is no such download.');
      // The wall found the batch within the operator's tenants before any of its items is read.
      const view = ownedBatch(request);
      const { batchId } = view;
      const operator = operatorOf(request);
      // A viewer's download shows member ids by their last four characters only.
      const rows = resultsFor(
        operator,
        await deps.client.withDeadline(Date.now() + RESULTS_TIMEOUT_MS, () =>
          batchResults(deps.client, batchId, view.pages, deps.payers),
        ),
      );
      request.log.info({ batchId, rows: rows.length, format, operator: operator.name }, 'batch results exported');
      await audited(deps.audit, request, { fields: resultPatientFields(rows) });
      return reply
        .header('content-type', RESULTS_MEDIA_TYPE[format])
        .header('content-disposition', `attachment; filename="batch-${batchId}-results.${format}"`)
        .header('cache-control', 'no-store')
        .send(format === 'csv' ? resultsCsv(rows) : resultsJsonl(rows));
    },
  );

  for (const act of ['resubmit', 'cancel'] as const) {
    app.post<{ Params: { batchId: string }; Body: { confirm?: string } }>(
      `/batches/:batchId/${act}`,
      {
        preHandler: requireCsrf(app),
        config: {
          access: { role: 'operator', to: act === 'cancel' ? 'cancel batches' : 'resubmit batches' },
          owns: 'batch',
          audit: `batch.${act}`,
        },
      },
      async (request, reply) => {
        const view = ownedBatch(request);
        const { batchId } = view;
        const operator = operatorOf(request).name;
        const client = deps.operators.for(operator);
        // Undefined while nothing was sent (a cancel not confirmed): that is no change, and gets no entry.
        let outcome: string | undefined;
        try {
          if (act === 'cancel') {
            if (request.body?.confirm !== 'yes') {
              request.session.notice = 'Not cancelled: tick the box to confirm.';
            } else {
              await withDeadline(deps, () => cancelBatch(client, batchId));
              request.session.notice = `Batch ${batchId} is being cancelled.`;
              outcome = 'ok';
            }
          } else if (
            request.body?.confirm !== 'yes' &&
            (await withDeadline(deps, async () =>
              hopelessFailures(deps.client, (await batchRows(deps.client, view)).items),
            )) > 0
          ) {
            request.session.notice =
              'Not resubmitted: some failures cannot succeed again; tick the box to resubmit anyway.';
          } else {
            const answer = await withDeadline(deps, () => resubmitBatch(client, batchId, RESUBMIT_FAILED));
            request.session.notice = answer.accepted
              ? `The failed items are being started again (attempt ${answer.round + 1}).`
              : 'Nothing new: these items were already started again.';
            outcome = answer.accepted ? 'ok' : 'repeat';
          }
          request.log.info({ batchId, act, operator }, 'batch action');
        } catch (err) {
          const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
          if (err instanceof BatchNotFoundError) {
            request.session.notice = err.message;
            outcome = 'not-found';
          } else if (cause instanceof ApplicationFailure) {
            request.session.notice = `Refused: ${cause.message}`;
            outcome = 'refused';
          } else throw err;
        }
        if (outcome) await audited(deps.audit, request, { outcome });
        return reply.redirect(`/batches/${encodeURIComponent(batchId)}`, 303);
      },
    );
  }
}
