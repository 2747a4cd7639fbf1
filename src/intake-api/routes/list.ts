import type { FastifyInstance } from 'fastify';
import { firstInvalidParam } from '../../contract/index.js';
import { listVerifications } from '../../temporal/list-verifications.js';
import { withDeadline, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { invalidRequestBody, ListQuery } from '../schemas.js';

/**
 * `GET /verifications?stage=<stage>&limit=<n>`: a visibility query over `VerificationStage`, newest first. Only
 * search attributes are read, so nothing here can carry patient data; visibility lags the workflows by a moment.
 */
export function listRoute(app: FastifyInstance, deps: IntakeDeps): void {
  app.get('/verifications', async (request, reply) => {
    const query = ListQuery.safeParse(request.query);
    if (!query.success) return reply.code(400).send(invalidRequestBody(firstInvalidParam(query.error)));
    const { stage, limit } = query.data;
    try {
      const items = await withDeadline(deps, () =>
        listVerifications(deps.client, { ...(stage ? { stage } : {}), limit }),
      );
      return reply.code(200).send(items);
    } catch (err) {
      return replyWithError(request, reply, err);
    }
  });
}
