import type { FastifyInstance, FastifyRequest } from 'fastify';
import { verificationWorkflowId } from '../../../workflows/shared/ids.js';
import { mayAct } from '../../../src/access/operators.js';
import { seenBatch, seenWorkflow } from '../../../src/access/tenancy.js';
import { auditRead } from '../audit.js';
import { detailFor } from '../masking.js';
import { operatorOf } from '../session.js';
import { requireCsrf } from '../csrf.js';
import { payerNames, sendPage, withDeadline, workflowUiUrl, type ConsoleDeps } from '../deps.js';
import { newerAttempt } from '../reads/newer-attempt.js';
import { verificationDetail } from '../reads/verification.js';
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
  const form = { access: { role: 'viewer' }, owns: 'none', audit: { none: 'the search forms' } } as const;
  app.get('/verifications', { config: form }, async (request, reply) =>
    sendPage(request, reply, frame, (csrf) => forms(request, csrf)),
  );

  // A found id is answered with a redirect to its page, which records what it shows.
  const find = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'a redirect to the page found' },
  } as const;
  app.post<{ Body: { q?: string } }>(
    '/verifications',
    { preHandler: requireCsrf(app), config: find },
    async (request, reply) => {
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
      const { tenants } = operatorOf(request);
      const batch =
        batchId && (await withDeadline(deps, () => seenBatch(deps.client, tenants, batchId)).catch(() => undefined));
      if (batch) return reply.redirect(`/batches/${encodeURIComponent(batchId)}`, 303);
      const candidates = WORKFLOW_ID.test(q) ? [q, verificationWorkflowId(q)] : [verificationWorkflowId(q), q];
      for (const workflowId of candidates) {
        const found = await withDeadline(deps, () => seenWorkflow(deps.client, tenants, workflowId)).catch(
          () => undefined,
        );
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
    },
  );

  const read = { access: { role: 'viewer' }, owns: 'workflow', audit: 'verification.read' } as const;
  app.get<{ Params: { workflowId: string } }>(
    '/verifications/:workflowId',
    { config: read },
    async (request, reply) => {
      const { workflowId } = request.params;
      // The wall found the workflow within the operator's tenants before the handler ran.
      const found = await withDeadline(deps, () => verificationDetail(deps.client, workflowId));
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
    },
  );
}
