import type { FastifyInstance } from 'fastify';
import { startVerification } from '../../temporal/start-verification.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import type { StartedResponse } from '../schemas.js';
import type { z } from 'zod';

/**
 * `POST /verifications`: validates with the contract and starts the verification. A caller id seen before, running
 * or closed, starts nothing: the answer names the existing workflow (200, `duplicate: true`) instead of 202.
 */
export function startRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.post('/verifications', async (request, reply) => {
    try {
      const { workflowId, started } = await withDeadline(deps, () =>
        startVerification(deps.client, request.body, {
          taskQueue: deps.taskQueue,
          ...(deps.timing ? { timing: deps.timing } : {}),
        }),
      );
      const body: z.infer<typeof StartedResponse> = started ? { workflowId } : { workflowId, duplicate: true };
      request.log.info({ workflowId, started }, started ? 'verification started' : 'duplicate submission');
      return reply
        .code(started ? 202 : 200)
        .header('location', `/verifications/${encodeURIComponent(workflowId)}`)
        .send(body);
    } catch (err) {
      return replyWithError(request, reply, err);
    }
  });
}
