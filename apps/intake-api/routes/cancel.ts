import { cancelSignal } from '../../../workflows/verification/verification.js';
import { toOpenWorkflow } from '../closed.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { CancelResponse, ErrorResponse, WorkflowIdParams } from '../schemas.js';

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
        summary: 'Cancel a verification (the `cancel` signal); it ends as `cancelled` at its next step',
        params: WorkflowIdParams.extend({
          workflowId: WorkflowIdParams.shape.workflowId.describe('A verification, or a discovery or run workflow'),
        }),
        response: {
          ...bodyAnswers,
          202: answer('The cancel signal was recorded', CancelResponse),
          404: answer('No such workflow', ErrorResponse),
          409: answer('The workflow has closed (`workflow_closed`); `outcome` says how it ended', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:write' }, owns: 'workflow', audit: 'verification.cancel' },
    },
    async (request, reply) => {
      const { workflowId } = request.params;
      const handle = deps.client.workflow.getHandle(workflowId);
      await toOpenWorkflow(deps, workflowId, 'there is nothing to cancel', () =>
        withDeadline(deps, () => handle.signal(cancelSignal, { reason: 'intake API' })),
      );
      request.log.info({ workflowId }, 'cancel sent');
      return reply.code(202).send({ workflowId, cancelling: true });
    },
  );
}
