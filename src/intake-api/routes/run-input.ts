import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { supplyRunInputUpdate } from '../../../workflows/messages.js';
import { firstInvalidParam } from '../../contract/index.js';
import { replyIfClosed } from '../closed.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody, RunInputParams, RunInputRequest } from '../schemas.js';

/** An optional request header whose value becomes the update id: a retried request then runs the update once. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const UPDATE_ID = /^[\x21-\x7e]{1,200}$/;

/** The update id a request asks for: undefined without the header, null when it is malformed. */
export function updateIdOf(headers: IncomingHttpHeaders): string | undefined | null {
  const updateId = headers[IDEMPOTENCY_HEADER];
  if (updateId === undefined) return undefined;
  return typeof updateId === 'string' && UPDATE_ID.test(updateId) ? updateId : null;
}

/**
 * `POST /verifications/:workflowId/runs/:flowRunId/input`: the `supplyRunInput` update, which answers synchronously
 * with the service's `{flowRunId, status}` or a failure naming the bad `param` (400). The same route serves a
 * standalone `run-<flowRunId>` workflow, which answers the same update.
 */
export function runInputRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.post('/verifications/:workflowId/runs/:flowRunId/input', async (request, reply) => {
    const params = RunInputParams.safeParse(request.params);
    if (!params.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(params.error)));
    const body = RunInputRequest.safeParse(request.body);
    if (!body.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(body.error)));
    const updateId = updateIdOf(request.headers);
    if (updateId === null) return reply.code(400).send(invalidRequestBody(IDEMPOTENCY_HEADER));
    const { workflowId, flowRunId } = params.data;
    try {
      const handle = deps.client.workflow.getHandle(workflowId);
      const answer = await withDeadline(deps, () =>
        handle.executeUpdate(supplyRunInputUpdate, {
          args: [{ flowRunId, input: body.data.input }],
          ...(updateId ? { updateId } : {}),
        }),
      );
      request.log.info({ workflowId, flowRunId, status: answer.status }, 'run input accepted');
      return reply.code(200).send(answer);
    } catch (err) {
      const consequence =
        'it takes no more input (a run that asks for input later gets its own run-<flowRunId> workflow)';
      return (
        (await replyIfClosed(deps, reply, workflowId, err, consequence).catch(() => undefined)) ??
        replyWithError(request, reply, err)
      );
    }
  });
}
