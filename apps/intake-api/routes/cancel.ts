import { cancelSignal } from '../../../workflows/verification/verification.js';
import { toOpenWorkflow } from '../closed.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { CancelResponse, ErrorResponse, WorkflowIdParams } from '../schemas.js';
import { callerClient } from '../caller-client.js';

/**
 * `POST /verifications/:workflowId/cancel`: the `cancel` signal. 202: the workflow ends as `cancelled` at its next
 * step (a service call under way finishes first); 409 with `outcome` when it has closed already. Its audit entry is
 * written by the hook, before the answer.
 */
export function cancelRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/verifications/:workflowId/cancel',
    {
      schema: {
        operationId: 'cancelVerification',
        tags: [TAGS.verifications.name],
        summary: 'Cancel a verification: it ends as `cancelled` at its next step',
        params: WorkflowIdParams.extend({
          workflowId: WorkflowIdParams.shape.workflowId.describe('A verification, or a discovery or run workflow'),
        }),
        response: {
          ...bodyAnswers,
          202: answer('Cancelling: the verification stops at its next step', CancelResponse),
          404: answer('No such verification (or another tenant’s)', ErrorResponse),
          409: answer('The verification has ended already (`workflow_closed`); `outcome` says how', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:write' }, owns: 'workflow', audit: 'verification.cancel' },
    },
    async (request, reply) => {
      const { workflowId } = request.params;
      const handle = callerClient(deps, request).workflow.getHandle(workflowId);
      await toOpenWorkflow(deps, workflowId, 'there is nothing to cancel', () =>
        withDeadline(deps, () => handle.signal(cancelSignal, { reason: 'intake API' })),
      );
      request.log.info({ workflowId }, 'cancel sent');
      return reply.code(202).send({ workflowId, cancelling: true });
    },
  );
}
