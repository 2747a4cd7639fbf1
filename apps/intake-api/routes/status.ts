import { statusQuery } from '../../../workflows/verification/verification.js';
import { statusFields } from '../../../src/audit/patient-fields.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, commonAnswers, TAGS } from '../openapi.js';
import { ErrorResponse, VerificationStatusResponse, WorkflowIdParams } from '../schemas.js';

/** `GET /verifications/:workflowId`: the workflow's `status` query (closed workflows answer it too). */
export function statusRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/verifications/:workflowId',
    {
      schema: {
        operationId: 'getVerificationStatus',
        tags: [TAGS.verifications.name],
        summary:
          'Where a verification stands: its stage, the payer, its runs and the input they wait for, its last error',
        params: WorkflowIdParams,
        response: {
          200: answer('The verification', VerificationStatusResponse),
          400: answer(
            '`param` names the invalid path parameter (e.g. a `workflowId` over 1,000 characters)',
            ErrorResponse,
          ),
          404: answer('No such verification (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:read' }, owns: 'workflow', audit: 'verification.read' },
    },
    async (request, reply) => {
      const { workflowId } = request.params;
      const status = await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).query(statusQuery));
      await audited(deps.access, request, { fields: statusFields(status) });
      return reply.send(status);
    },
  );
}
