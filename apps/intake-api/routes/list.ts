import { listVerifications } from '../../../src/temporal/list-verifications.js';
import { tenantsToList } from '../../../src/access/tenancy.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { scopeOf } from '../owned.js';
import { answer, commonAnswers, TAGS } from '../openapi.js';
import { ErrorResponse, ListQuery, VerificationList } from '../schemas.js';

/**
 * `GET /verifications?stage=<stage>&limit=<n>&pageToken=<token>`: a page of a visibility query over
 * `VerificationStage`, newest first. Only search attributes are read, so nothing here can carry patient data;
 * visibility lags the workflows by a moment.
 */
export function listRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/verifications',
    {
      schema: {
        operationId: 'listVerifications',
        tags: [TAGS.verifications.name],
        summary: 'List verifications, newest first, optionally by stage (identifiers and stages only: no patient data)',
        querystring: ListQuery,
        response: {
          200: answer('A page of verifications', VerificationList),
          400: answer('`param` names the invalid query parameter', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: {
        access: { scope: 'verifications:read' },
        owns: 'own-tenant',
        audit: { none: 'search attributes only: identifiers and stages, no patient data' },
      },
    },
    async (request, reply) => {
      const { stage, limit, pageToken } = request.query;
      // A client of one tenant lists that tenant's verifications only.
      const tenant = tenantsToList(scopeOf(request));
      const page = await withDeadline(deps, () =>
        listVerifications(deps.client, {
          ...(stage ? { stage } : {}),
          ...(tenant !== undefined ? { tenant } : {}),
          limit,
          ...(pageToken ? { pageToken } : {}),
        }),
      );
      return reply.code(200).send(page);
    },
  );
}
