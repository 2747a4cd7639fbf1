import type { FastifyInstance } from 'fastify';
import { cancelSignal } from '../../../workflows/messages.js';
import { firstInvalidParam } from '../../contract/index.js';
import { replyIfClosed } from '../closed.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody, WorkflowIdParams } from '../schemas.js';

/**
 * `POST /verifications/:workflowId/cancel`: the `cancel` signal. 202: the workflow ends as `cancelled` at its next
 * step (a service call under way finishes first); 409 with `outcome` when it has closed already.
 */
export function cancelRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.post('/verifications/:workflowId/cancel', async (request, reply) => {
    const params = WorkflowIdParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    const { workflowId } = params.data;
    try {
      const handle = deps.client.workflow.getHandle(workflowId);
      await withDeadline(deps, () => handle.signal(cancelSignal, { reason: 'intake API' }));
      request.log.info({ workflowId }, 'cancel sent');
      return reply.code(202).send({ workflowId, cancelling: true });
    } catch (err) {
      return (
        (await replyIfClosed(deps, reply, workflowId, err, 'there is nothing to cancel').catch(() => undefined)) ??
        replyWithError(request, reply, err)
      );
    }
  });
}
