import { WorkflowNotFoundError } from '@temporalio/client';
import { cancelBatch, resubmitBatch } from '../../../src/batches/actions.js';
import { describeBatch } from '../../../src/batches/describe.js';
import { BatchCancelResponse, BatchIdParams, ResubmitBody, ResubmitResponse } from '../../../src/batches/schemas.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { IntakeAnswer, notFound } from '../errors.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { ErrorResponse, IDEMPOTENCY_HEADER, IdempotencyHeaders } from '../schemas.js';
import { callerClient } from '../caller-client.js';

/**
 * An action on a batch: one whose workflow is gone by the time it is sent has closed (409 `batch_closed`, with its
 * state), or never existed (404). A cancelled batch's refusal is the error handler's 409 `batch_cancelled`.
 */
async function toOpenBatch<T>(deps: IntakeDeps, batchId: string, act: () => Promise<T>): Promise<T> {
  try {
    return await withDeadline(deps, act);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const view = await withDeadline(deps, () => describeBatch(deps.client, batchId)).catch(() => undefined);
    if (!view) throw notFound('no such batch');
    throw new IntakeAnswer(409, {
      error: 'batch_closed',
      message: `batch ${batchId} has closed (${view.state})`,
      state: view.state,
    });
  }
}

/**
 * `POST /batches/:batchId/resubmit` `{outcomes}` (default failed): starts again the items whose latest attempt ended
 * so. 202 when a new round starts; 200 `accepted: false` when the request repeats one already taken (the same
 * `Idempotency-Key`, or a round resubmitted since the caller looked). `POST /batches/:batchId/cancel`: 202.
 */
export function actOnBatchRoutes(app: IntakeApp, deps: IntakeDeps): void {
  const access = { scope: 'batches:write' } as const;
  const refused = {
    400: answer('`param` names the invalid field', ErrorResponse),
    404: answer('No such batch (or another tenant’s)', ErrorResponse),
    409: answer(
      'The batch is cancelled (`batch_cancelled`), has closed (`batch_closed`, with `state`), or no item has the outcomes asked for (`nothing_to_resubmit`)',
      ErrorResponse,
    ),
    ...commonAnswers,
  };
  app.post(
    '/batches/:batchId/resubmit',
    {
      config: { access, owns: 'batch', audit: 'batch.resubmit' },
      schema: {
        operationId: 'resubmitBatch',
        tags: [TAGS.batches.name],
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
      const answer = await toOpenBatch(deps, batchId, () =>
        resubmitBatch(callerClient(deps, request), batchId, outcomes, idempotencyKey ? { idempotencyKey } : {}),
      );
      request.log.info({ batchId, round: answer.round, accepted: answer.accepted }, 'batch resubmission');
      await audited(deps.access, request, { outcome: answer.accepted ? 'ok' : 'repeat' });
      return reply.code(answer.accepted ? 202 : 200).send({ batchId, ...answer });
    },
  );

  app.post(
    '/batches/:batchId/cancel',
    {
      config: { access, owns: 'batch', audit: 'batch.cancel' },
      schema: {
        operationId: 'cancelBatch',
        tags: [TAGS.batches.name],
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
      const memo = await toOpenBatch(deps, batchId, () => cancelBatch(callerClient(deps, request), batchId));
      request.log.info({ batchId }, 'batch cancel');
      return reply.code(202).send({ batchId, state: memo.phase });
    },
  );
}
