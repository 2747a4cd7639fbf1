import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Uuid } from '../../../src/contract/index.js';
import { closedMessage, closedWorkflow } from '../../../src/temporal/closed-workflow.js';
import { failureDetails } from '../../../workflows/shared/failure-details.js';
import { resolveReviewUpdate } from '../../../workflows/verification/verification.js';
import type { ReviewDecision } from '../../../workflows/verification/verification.js';
import { operatorOf } from '../session.js';
import { mayAct } from '../../../src/access/operators.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { payerNames, sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { pageParam, paged } from '../views/paging.js';
import { operatorIdentity } from '../operator-client.js';
import { queue } from '../reads/queue.js';
import { html } from '../views/html.js';
import { queueTable } from '../views/queue.js';
import { reviewForms } from '../views/review.js';
import { checksOf } from '../patient-rows.js';

interface ReviewBody {
  action?: string;
  verificationId?: string;
  acceptDuplicateRisk?: string;
}

/** The decision a form sent, or what is wrong with it (naming the field). */
function decisionOf(body: ReviewBody): ReviewDecision | { param: string; reason: string } {
  switch (body.action) {
    case 'record':
      return Uuid.safeParse(body.verificationId).success
        ? { action: 'record', verificationId: body.verificationId! }
        : { param: 'verificationId', reason: 'the verification id found at the service is a UUID' };
    case 'retry':
      return body.acceptDuplicateRisk === 'yes'
        ? { action: 'retry' }
        : { param: 'acceptDuplicateRisk', reason: 'a retry may create a duplicate: tick the box to accept that' };
    case 'abandon':
      return { action: 'abandon' };
    default:
      return { param: 'action', reason: 'choose record, retry or abandon' };
  }
}

/** The entry of a decision names it (`review.retry`, `review.record`, `review.abandon`); `review` when none is valid. */
const reviewAction = (request: FastifyRequest) => {
  const decision = decisionOf(request.body ?? {});
  return 'param' in decision ? 'review' : `review.${decision.action}`;
};

const DONE: Record<ReviewDecision['action'], string> = {
  retry: 'retry accepted; the workflow calls the service again',
  record: 'verification id recorded, no call made; it continues as created',
  abandon: 'abandoned; it closes as abandoned (a verification may exist at the service)',
};

/**
 * Needs review: v1 creations whose outcome is unknown (the Temporal UI view `needs-review`, oldest first), each with
 * the three decisions, sent as the `resolveReview` update in the operator's name (as `eligibility review` does).
 */
export function needsReviewPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const queueConfig = {
    access: { role: 'viewer' },
    owns: 'own-tenant',
    audit: { none: 'identifiers, stages and payers; each patient of a check shown is its own patient.read entry' },
  } as const;
  app.get('/needs-review', { config: queueConfig }, async (request, reply) => {
    const operator = operatorOf(request);
    const rows = await withDeadline(deps, () => queue(deps.client, 'needs-review', operator.tenants));
    // A viewer sees the queue with a link to each verification, not the decisions.
    const action = (workflowId: string, csrf: string) =>
      mayAct(operator)
        ? reviewForms(workflowId, csrf)
        : html`<a class="button" href="/verifications/${encodeURIComponent(workflowId)}">View</a>`;
    const shown = paged(rows, pageParam(request.query));
    const names = await payerNames(
      deps,
      shown.rows.map((r) => r.payerId),
    );
    const checks = await checksOf(
      deps,
      request,
      shown.rows.map((r) => r.workflowId),
    );
    return sendPage(
      request,
      reply,
      { title: 'Needs review', section: '/needs-review' },
      (csrf) =>
        html`<p class="lead">
            A v1 creation that got no answer from the service is never retried by itself: the service cannot tell a
            repeated v1 request from a new one, so a retry could create a second verification. Check at the service
            whether the verification exists, then decide. The reason and deadline of each are on its verification page.
          </p>
          ${queueTable(
            shown,
            {
              caption: 'Verifications needing review',
              empty: 'No verification needs review.',
              path: '/needs-review',
              names,
              checks,
            },
            (r) => action(r.workflowId, csrf),
          )}`,
    );
  });

  app.post<{ Params: { workflowId: string }; Body: ReviewBody }>(
    '/verifications/:workflowId/review',
    {
      preHandler: requireCsrf(app),
      config: { access: { role: 'operator', to: 'decide reviews' }, owns: 'workflow', audit: reviewAction },
    },
    async (request, reply) => {
      const { workflowId } = request.params;
      const back = `/verifications/${encodeURIComponent(workflowId)}`;
      const decision = decisionOf(request.body ?? {});
      const operator = operatorOf(request).name;
      if ('param' in decision) {
        request.session.notice = `Not sent (field ${decision.param}): ${decision.reason}.`;
        return reply.redirect(back, 303);
      }
      const client = deps.operators.for(operator);
      let outcome = 'ok';
      try {
        await withDeadline(deps, () =>
          client.workflow.getHandle(workflowId).executeUpdate(resolveReviewUpdate, { args: [decision] }),
        );
        request.log.info({ workflowId, action: decision.action, operator }, 'review decision accepted');
        request.session.notice = `${workflowId}: ${DONE[decision.action]}. Recorded as sent by ${operatorIdentity(operator)}.`;
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
          const { param } = failureDetails(err.cause);
          outcome = 'refused';
          request.session.notice = `Decision refused${param ? ` (field ${param})` : ''}: ${err.cause.message}`;
        } else {
          const closed = await withDeadline(deps, () => closedWorkflow(deps.client, workflowId)).catch(() => undefined);
          if (!closed) throw err;
          outcome = 'closed';
          request.session.notice = `${closedMessage(closed)}: it takes no more decisions.`;
        }
      }
      await audited(deps.audit, request, { outcome });
      return reply.redirect(back, 303);
    },
  );
}
