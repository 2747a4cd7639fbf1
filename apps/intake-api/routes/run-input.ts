import { WorkflowNotFoundError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { RunUpdateResponse } from '../../../src/contract/index.js';
import { supplyRunInputUpdate } from '../../../workflows/verification/verification.js';
import { audited } from '../audit.js';
import { toOpenWorkflow } from '../closed.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import {
  ErrorResponse,
  IDEMPOTENCY_HEADER,
  IdempotencyHeaders,
  RunInputParams,
  RunInputRequest,
  RunInputResponse,
} from '../schemas.js';
import { callerClient } from '../caller-client.js';

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
        tags: [TAGS.verifications.name],
        summary: 'Answer a run that waits for input (e.g. an authorization number): the payer’s answer comes back',
        params: RunInputParams,
        body: RunInputRequest,
        headers: IdempotencyHeaders,
        response: {
          ...bodyAnswers,
          200: answer('The service accepted the input', RunInputResponse),
          400: answer(
            'Refused by the verification or the service; `param` names the field (e.g. `input`, `flowRunId`)',
            ErrorResponse,
          ),
          404: answer('No such verification or run (or another tenant’s)', ErrorResponse),
          409: answer('The verification has ended already (`workflow_closed`); `outcome` says how', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'runs:answer' }, owns: 'workflow', audit: 'run.answer' },
    },
    async (request, reply) => {
      const { workflowId, flowRunId } = request.params;
      const updateId = request.headers[IDEMPOTENCY_HEADER];
      const handle = callerClient(deps, request).workflow.getHandle(workflowId);
      // The names of the keys sent, never their values: the input may hold patient data.
      const answered = (outcome: string) =>
        audited(deps.access, request, {
          fields: Object.keys(request.body.input).map((name) => `input.${name}`),
          outcome,
        });
      const earlier = updateId ? await withDeadline(deps, () => earlierAnswer(handle, updateId)) : undefined;
      if (earlier) {
        request.log.info({ workflowId, flowRunId, status: earlier.status }, 'run input repeated');
        await answered('repeated');
        return reply.code(200).send(earlier);
      }
      const consequence =
        'it takes no more input (a run that asks for input later gets its own run-<flowRunId> workflow)';
      let result;
      try {
        result = await toOpenWorkflow(deps, workflowId, consequence, () =>
          withDeadline(deps, () =>
            handle.executeUpdate(supplyRunInputUpdate, {
              args: [{ flowRunId, input: request.body.input }],
              ...(updateId ? { updateId } : {}),
            }),
          ),
        );
      } catch (err) {
        // Refused by the workflow's validator or the service: recorded as the console records it, then answered 400.
        if (err instanceof WorkflowUpdateFailedError) await answered('refused');
        throw err;
      }
      request.log.info({ workflowId, flowRunId, status: result.status }, 'run input accepted');
      await answered('ok');
      return reply.code(200).send(result);
    },
  );
}

/**
 * The answer an update with this `Idempotency-Key` already had, if one completed: Temporal answers a repeat with it
 * unchanged, so this is how a repeat is told from a first answer (for the audit trail). Temporal knows no such update
 * (NOT_FOUND, also for a workflow it does not know) when it is a first answer, or one refused before it was accepted;
 * a failed one is left for the update to answer again.
 */
async function earlierAnswer(handle: WorkflowHandle, updateId: string): Promise<RunUpdateResponse | undefined> {
  try {
    return await handle.getUpdateHandle<RunUpdateResponse>(updateId).result();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError || err instanceof WorkflowUpdateFailedError) return undefined;
    throw err;
  }
}
