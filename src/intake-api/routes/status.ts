import type { FastifyInstance } from 'fastify';
import { statusQuery } from '../../../workflows/messages.js';
import { firstInvalidParam } from '../../contract/index.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody, WorkflowIdParams } from '../schemas.js';

/** `GET /verifications/:workflowId`: the workflow's `status` query (closed workflows answer it too). */
export function statusRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.get('/verifications/:workflowId', async (request, reply) => {
    const params = WorkflowIdParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    try {
      const handle = deps.client.workflow.getHandle(params.data.workflowId);
      return await withDeadline(deps, () => handle.query(statusQuery));
    } catch (err) {
      return replyWithError(request, reply, err);
    }
  });
}
