import { listVerifications } from '../../../src/temporal/list-verifications.js';
import { principalOf } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { replyWithError } from '../errors.js';
import { answer, commonAnswers } from '../openapi.js';
import { ErrorResponse, ListQuery, VerificationList } from '../schemas.js';

/**
 * `GET /verifications?stage=<stage>&limit=<n>`: a visibility query over `VerificationStage`, newest first. Only
 * search attributes are read, so nothing here can carry patient data; visibility lags the workflows by a moment.
 */
export function listRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/verifications',
    {
      schema: {
        operationId: 'listVerifications',
        summary: 'List verifications by stage (search attributes only, newest first)',
        querystring: ListQuery,
        response: {
          200: answer('Verifications', VerificationList),
          400: answer('`param` names the invalid query parameter', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:read' },
    },
    async (request, reply) => {
      const { stage, limit } = request.query;
      // A client of one tenant lists that tenant's verifications only.
      const { tenant } = principalOf(request);
      try {
        const items = await withDeadline(deps, () =>
          listVerifications(deps.client, {
            ...(stage ? { stage } : {}),
            ...(tenant !== null ? { tenant } : {}),
            limit,
          }),
        );
        return reply.code(200).send(items);
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );
}
