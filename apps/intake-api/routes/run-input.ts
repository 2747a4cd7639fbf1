import { supplyRunInputUpdate } from '../../../workflows/verification/verification.js';
import { audited } from '../audit.js';
import { toOpenWorkflow } from '../closed.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import {
  ErrorResponse,
  IDEMPOTENCY_HEADER,
  IdempotencyHeaders,
  RunInputParams,
  RunInputRequest,
  RunInputResponse,
} from '../schemas.js';

/**
 * `POST /verifications/:workflowId/runs/:flowRunId/input`: the `supplyRunInput` update, which answers synchronously
 * with the service's `{flowRunId, status}` or a failure naming the bad `param` (400). The same route serves a
 * standalone `run-<flowRunId>` workflow, which answers the same update.
 */
export function runInputRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/verifications/:workflowId/runs/:flowRunId/input',
    {
      schema: {
        operationId: 'supplyRunInput',
        summary: 'Supply the input a pending run asks for (the `supplyRunInput` update)',
        params: RunInputParams,
        body: RunInputRequest,
        headers: IdempotencyHeaders,
        response: {
          ...bodyAnswers,
          200: answer('The service accepted the input', RunInputResponse),
          400: answer(
            'Refused by the workflow or the service; `param` names the field (e.g. `input`, `flowRunId`)',
            ErrorResponse,
          ),
          404: answer('No such workflow', ErrorResponse),
          409: answer('The workflow has closed (`workflow_closed`); `outcome` says how it ended', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'runs:answer' }, owns: 'workflow', audit: 'run.answer' },
    },
    async (request, reply) => {
      const { workflowId, flowRunId } = request.params;
      const updateId = request.headers[IDEMPOTENCY_HEADER];
      const handle = deps.client.workflow.getHandle(workflowId);
      const consequence =
        'it takes no more input (a run that asks for input later gets its own run-<flowRunId> workflow)';
      const result = await toOpenWorkflow(deps, workflowId, consequence, () =>
        withDeadline(deps, () =>
          handle.executeUpdate(supplyRunInputUpdate, {
            args: [{ flowRunId, input: request.body.input }],
            ...(updateId ? { updateId } : {}),
          }),
        ),
      );
      request.log.info({ workflowId, flowRunId, status: result.status }, 'run input accepted');
      await audited(deps.access, request, { fields: Object.keys(request.body.input).map((name) => `input.${name}`) });
      return reply.code(200).send(result);
    },
  );
}
