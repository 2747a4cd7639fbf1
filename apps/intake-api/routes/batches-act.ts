import { ApplicationFailure, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BatchNotFoundError, cancelBatch, resubmitBatch } from '../../../src/batches/actions.js';
import { describeBatch } from '../../../src/batches/describe.js';
import { FailureType } from '../../../workflows/shared/failure-types.js';
import { BatchCancelResponse, BatchIdParams, ResubmitBody, ResubmitResponse } from '../../../src/batches/schemas.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { requireOwnBatch } from '../tenancy.js';
import { replyWithError } from '../errors.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { ErrorResponse, IDEMPOTENCY_HEADER, IdempotencyHeaders } from '../schemas.js';

/** A batch that refuses because it is cancelled, or has closed, is a 409; one that does not exist a 404. */
async function replyRefused(
  deps: IntakeDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  batchId: string,
  err: unknown,
): Promise<FastifyReply> {
  if (err instanceof BatchNotFoundError) return reply.code(404).send({ error: 'not_found', message: err.message });
  const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.type === FailureType.BatchCancelled) {
    return reply.code(409).send({ error: 'batch_cancelled', message: cause.message });
  }
  if (err instanceof WorkflowNotFoundError) {
    const view = await withDeadline(deps, () => describeBatch(deps.client, batchId)).catch(() => undefined);
    if (!view) return reply.code(404).send({ error: 'not_found', message: `no batch ${batchId}` });
    return reply
      .code(409)
      .send({ error: 'batch_closed', message: `batch ${batchId} has closed (${view.state})`, state: view.state });
  }
  return replyWithError(request, reply, err);
}

/**
 * `POST /batches/:batchId/resubmit` `{outcomes}` (default failed): starts again the items whose latest attempt ended
 * so. 202 when a new round starts; 200 `accepted: false` when the request repeats one already taken (the same
 * `Idempotency-Key`, or a round resubmitted since the caller looked). `POST /batches/:batchId/cancel`: 202.
 */
export function actOnBatchRoutes(app: IntakeApp, deps: IntakeDeps): void {
  const act = { config: { scope: 'batches:write' as const } };
  const refused = {
    400: answer('`param` names the invalid field', ErrorResponse),
    404: answer('No such batch (or another tenant’s)', ErrorResponse),
    409: answer(
      'The batch is cancelled (`batch_cancelled`) or has closed (`batch_closed`, with `state`)',
      ErrorResponse,
    ),
    ...commonAnswers,
  };
  app.post(
    '/batches/:batchId/resubmit',
    {
      ...act,
      schema: {
        operationId: 'resubmitBatch',
        summary: 'Start again the items whose latest attempt ended so (default: failed)',
        params: BatchIdParams,
        body: ResubmitBody.optional(),
        headers: IdempotencyHeaders,
        response: {
          ...bodyAnswers,
          202: answer('A new round started', ResubmitResponse),
          200: answer('That round was resubmitted already (`accepted: false`): nothing started', ResubmitResponse),
          ...refused,
        },
      },
    },
    async (request, reply) => {
      const outcomes = request.body?.outcomes ?? ResubmitBody.parse({}).outcomes;
      const idempotencyKey = request.headers[IDEMPOTENCY_HEADER];
      const { batchId } = request.params;
      try {
        await withDeadline(deps, () => requireOwnBatch(deps, request, batchId));
        const answer = await withDeadline(deps, () =>
          resubmitBatch(deps.client, batchId, outcomes, idempotencyKey ? { idempotencyKey } : {}),
        );
        request.log.info({ batchId, round: answer.round, accepted: answer.accepted }, 'batch resubmission');
        await audit(deps.access, request, {
          action: 'batch.resubmit',
          batchId,
          outcome: answer.accepted ? 'ok' : 'repeat',
        });
        return reply.code(answer.accepted ? 202 : 200).send({ batchId, ...answer });
      } catch (err) {
        return replyRefused(deps, request, reply, batchId, err);
      }
    },
  );

  app.post(
    '/batches/:batchId/cancel',
    {
      ...act,
      schema: {
        operationId: 'cancelBatch',
        summary: 'Cancel a batch: items not started never start, running ones are cancelled',
        params: BatchIdParams,
        response: {
          ...bodyAnswers,
          202: answer('Cancelling', BatchCancelResponse),
          ...refused,
        },
      },
    },
    async (request, reply) => {
      const { batchId } = request.params;
      try {
        await withDeadline(deps, () => requireOwnBatch(deps, request, batchId));
        const memo = await withDeadline(deps, () => cancelBatch(deps.client, batchId));
        request.log.info({ batchId }, 'batch cancel');
        await audit(deps.access, request, { action: 'batch.cancel', batchId, outcome: 'ok' });
        return reply.code(202).send({ batchId, state: memo.phase });
      } catch (err) {
        return replyRefused(deps, request, reply, batchId, err);
      }
    },
  );
}
