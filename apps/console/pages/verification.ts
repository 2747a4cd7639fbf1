import type { FastifyInstance, FastifyRequest } from 'fastify';
import { verificationWorkflowId } from '../../../workflows/shared/ids.js';
import { mayAct, seesWorkflow, visibleBatch, visibleDetail } from '../access.js';
import { auditRead } from '../audit.js';
import { detailFor } from '../masking.js';
import { operatorOf } from '../session.js';
import { requireCsrf } from '../csrf.js';
import { payerNames, sendPage, withDeadline, workflowUiUrl, type ConsoleDeps } from '../deps.js';
import { newerAttempt } from '../reads/newer-attempt.js';
import { patientSearchForm } from '../views/find-patient.js';
import { html } from '../views/html.js';
import { searchForm, verificationView } from '../views/verification.js';
import { notFoundPage } from './not-found.js';
import { patientLink } from './patient.js';

/** Prefixes of the project's workflow ids (workflows/shared/ids.ts, batch-ids.ts); any other text is a caller id. */
const WORKFLOW_ID = /^(verification|run|batch)-/;

/**
 * Find: a patient (`find-patient.ts`), or a verification by caller id or workflow id (posted: the text typed stays
 * out of URLs); and one workflow's page: patient, identifiers, outcome, discovery, runs, last error, timeline, a link
 * to Temporal UI, and to the newer attempt when a resubmission started its batch row again.
 */
export function verificationPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const frame = { title: 'Find a patient or a verification', section: '/verifications' } as const;
  const forms = (request: FastifyRequest, csrf: string, q = '', problem?: string) =>
    html`${patientSearchForm(csrf, {}, undefined, operatorOf(request).tenants === null)}${searchForm(csrf, q, problem)}`;
  app.get('/verifications', async (request, reply) => sendPage(request, reply, frame, (csrf) => forms(request, csrf)));

  app.post<{ Body: { q?: string } }>('/verifications', { preHandler: requireCsrf(app) }, async (request, reply) => {
    const q = typeof request.body?.q === 'string' ? request.body.q.trim() : '';
    if (q === '')
      return sendPage(
        request,
        reply,
        frame,
        (csrf) => forms(request, csrf, '', 'Type a caller id or a workflow id.'),
        400,
      );
    const batchId = /^batch-[^.]+$/.test(q) ? q.slice('batch-'.length) : undefined;
    // Only what the operator sees is found: another tenant's verification or batch is not there for them.
    if (batchId && (await visibleBatch(deps, request, batchId).catch(() => undefined))) {
      return reply.redirect(`/batches/${encodeURIComponent(batchId)}`, 303);
    }
    const candidates = WORKFLOW_ID.test(q) ? [q, verificationWorkflowId(q)] : [verificationWorkflowId(q), q];
    for (const workflowId of candidates) {
      const found = await seesWorkflow(deps, request, workflowId).catch(() => undefined);
      if (found) return reply.redirect(`/verifications/${encodeURIComponent(workflowId)}`, 303);
    }
    return sendPage(
      request,
      reply,
      frame,
      (csrf) =>
        forms(
          request,
          csrf,
          q,
          'No verification has this caller id or workflow id. To find a patient by name, use the form above.',
        ),
      404,
    );
  });

  app.get<{ Params: { workflowId: string } }>('/verifications/:workflowId', async (request, reply) => {
    const { workflowId } = request.params;
    const found = await visibleDetail(deps, request, workflowId);
    if (!found) return notFoundPage(request, reply, `There is no workflow ${workflowId}.`);
    await auditRead(deps.audit, request, found);
    const operator = operatorOf(request);
    const [names, newer] = await Promise.all([
      payerNames(deps, [found.payerId, found.status?.payerId]),
      found.batchId ? withDeadline(deps, () => newerAttempt(deps.client, workflowId)) : undefined,
    ]);
    return sendPage(
      request,
      reply,
      { title: workflowId, section: '/verifications' },
      (csrf) =>
        html`${patientLink(workflowId)}${verificationView(
          detailFor(operator, found),
          csrf,
          workflowUiUrl(deps, workflowId),
          mayAct(operator),
          names,
          newer,
        )}`,
    );
  });
}
