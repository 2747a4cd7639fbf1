import { statusQuery } from '../../../workflows/shared/messages.js';
import { statusFields } from '../../../src/audit/patient-fields.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { ownWorkflow } from '../tenancy.js';
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
          400: answer(
            '`param` names the invalid path parameter (e.g. a workflow id over 1,000 characters)',
            ErrorResponse,
          ),
          404: answer('No such verification workflow', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:read' },
    },
    async (request, reply) => {
      try {
        const { workflowId } = request.params;
        await ownWorkflow(deps, request, workflowId);
        const status = await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).query(statusQuery));
        const fields = statusFields(status);
        await audit(deps.access, request, { action: 'verification.read', workflowId, fields, outcome: 'ok' });
        return reply.send(status);
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );
}
