import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { FailureType } from '../../../workflows/failure-types.js';
import { resolveReviewUpdate } from '../../../workflows/messages.js';
import { firstInvalidParam } from '../../contract/index.js';
import { replyIfClosed } from '../closed.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody, ReviewRequest, WorkflowIdParams } from '../schemas.js';
import { updateIdOf } from './run-input.js';

/**
 * `POST /verifications/:workflowId/review`: a person's decision on a v1 verification in `needs-review` (the
 * `resolveReview` update): `{"action":"retry"}` (may create a duplicate), `{"action":"record","verificationId"}` or
 * `{"action":"abandon"}`. 200 `{accepted}`; 409 when the verification awaits no review or has closed.
 */
export function reviewRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.post('/verifications/:workflowId/review', async (request, reply) => {
    const params = WorkflowIdParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    const body = ReviewRequest.safeParse(request.body);
    if (!body.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(body.error)));
    const updateId = updateIdOf(request.headers);
    if (updateId === null) return reply.code(400).send(invalidRequestBody('idempotency-key'));
    const { workflowId } = params.data;
    try {
      const handle = deps.client.workflow.getHandle(workflowId);
      const answer = await withDeadline(deps, () =>
        handle.executeUpdate(resolveReviewUpdate, { args: [body.data], ...(updateId ? { updateId } : {}) }),
      );
      request.log.info({ workflowId, action: answer.accepted }, 'review decision accepted');
      return reply.code(200).send(answer);
    } catch (err) {
      const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
      if (cause instanceof ApplicationFailure && cause.type === FailureType.NotAwaitingReview) {
        return reply.code(409).send({ error: 'not_awaiting_review', message: cause.message });
      }
      return (
        (await replyIfClosed(deps, reply, workflowId, err, 'it takes no more decisions').catch(() => undefined)) ??
        replyWithError(request, reply, err)
      );
    }
  });
}
