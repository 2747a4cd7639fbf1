import { resolveReviewUpdate } from '../../../workflows/verification/verification.js';
import { audited } from '../audit.js';
import { toOpenWorkflow } from '../closed.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import {
  ErrorResponse,
  IDEMPOTENCY_HEADER,
  IdempotencyHeaders,
  ReviewRequest,
  ReviewResponse,
  WorkflowIdParams,
} from '../schemas.js';
import { callerClient } from '../caller-client.js';

/**
 * `POST /verifications/:workflowId/review`: a person's decision on a v1 verification in `needs-review` (the
 * `resolveReview` update): `{"action":"retry"}` (may create a duplicate), `{"action":"record","verificationId"}` or
 * `{"action":"abandon"}`. 200 `{accepted}`; 409 when the verification awaits no review or has closed.
 */
export function reviewRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/verifications/:workflowId/review',
    {
      schema: {
        operationId: 'resolveReview',
        tags: [TAGS.verifications.name],
        summary: 'Decide what becomes of a v1 verification in stage `needs-review`: retry, record or abandon',
        description:
          'A v1 verification the service may or may not have created is never retried on its own: the v1 service cannot tell a repeated creation from a new one. `retry` calls the service again and may create a duplicate; `record` takes the verification id found at the service, with no call; `abandon` closes the verification as `abandoned`.',
        params: WorkflowIdParams.extend({
          workflowId: WorkflowIdParams.shape.workflowId.describe('A verification in stage `needs-review`'),
        }),
        body: ReviewRequest,
        headers: IdempotencyHeaders,
        response: {
          ...bodyAnswers,
          200: answer('The decision was accepted', ReviewResponse),
          400: answer('`param` names the invalid field (`action`, `verificationId`)', ErrorResponse),
          404: answer('No such verification (or another tenant’s)', ErrorResponse),
          409: answer(
            'Not awaiting review (`not_awaiting_review`), or ended already (`workflow_closed`, with `outcome`)',
            ErrorResponse,
          ),
          ...commonAnswers,
        },
      },
      // The entry names the decision: `review.retry`, `review.record`, `review.abandon`.
      config: { access: { scope: 'verifications:write' }, owns: 'workflow', audit: 'review' },
    },
    async (request, reply) => {
      const { workflowId } = request.params;
      const updateId = request.headers[IDEMPOTENCY_HEADER];
      const handle = callerClient(deps, request).workflow.getHandle(workflowId);
      const result = await toOpenWorkflow(deps, workflowId, 'it takes no more decisions', () =>
        withDeadline(deps, () =>
          handle.executeUpdate(resolveReviewUpdate, { args: [request.body], ...(updateId ? { updateId } : {}) }),
        ),
      );
      request.log.info({ workflowId, action: result.accepted }, 'review decision accepted');
      await audited(deps.access, request, { action: `review.${result.accepted}` });
      return reply.code(200).send(result);
    },
  );
}
