import { statusQuery } from '../../../workflows/shared/messages.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { answer, commonAnswers } from '../openapi.js';
import { ErrorResponse, VerificationStatusResponse, WorkflowIdParams } from '../schemas.js';

/** `GET /verifications/:workflowId`: the workflow's `status` query (closed workflows answer it too). */
export function statusRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/verifications/:workflowId',
    {
      schema: {
        operationId: 'getVerificationStatus',
        summary: 'The status of a verification (its `status` query)',
        params: WorkflowIdParams,
        response: {
          200: answer('Status', VerificationStatusResponse),
          404: answer('No such verification workflow', ErrorResponse),
          ...commonAnswers,
        },
      },
    },
    async (request, reply) => {
      try {
        const handle = deps.client.workflow.getHandle(request.params.workflowId);
        return reply.send(await withDeadline(deps, () => handle.query(statusQuery)));
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );
}
