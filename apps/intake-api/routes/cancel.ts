import { cancelSignal } from '../../../workflows/shared/messages.js';
import { replyIfClosed } from '../closed.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { ownWorkflow } from '../tenancy.js';
import { replyWithError } from '../errors.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { CancelResponse, ErrorResponse, WorkflowIdParams } from '../schemas.js';

/**
 * `POST /verifications/:workflowId/cancel`: the `cancel` signal. 202: the workflow ends as `cancelled` at its next
 * step (a service call under way finishes first); 409 with `outcome` when it has closed already.
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
      config: { scope: 'verifications:write' },
    },
    async (request, reply) => {
      const { workflowId } = request.params;
      // Another tenant's workflow is answered as one that does not exist, before anything could tell it has closed.
      try {
        await ownWorkflow(deps, request, workflowId);
      } catch (err) {
        return replyWithError(request, reply, err);
      }
      try {
        const handle = deps.client.workflow.getHandle(workflowId);
        await withDeadline(deps, () => handle.signal(cancelSignal, { reason: 'intake API' }));
        await audit(deps.access, request, { action: 'verification.cancel', workflowId, outcome: 'ok' });
        request.log.info({ workflowId }, 'cancel sent');
        return reply.code(202).send({ workflowId, cancelling: true });
      } catch (err) {
        if (await replyIfClosed(deps, reply, workflowId, err, 'there is nothing to cancel')) return reply;
        return replyWithError(request, reply, err);
      }
    },
  );
}
