import { z } from 'zod';
import { markChangeSeen, unseenChanges, type ChangeItem } from '../../../src/patients/coverage-changes.js';
import { CHANGE_ID_PATTERN } from '../../../workflows/patient/patient.js';
import { keysetPager } from '../../../src/pages.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { PageQuery, pageOf } from '../pagination.js';
import { changeAnswer } from '../patient-answers.js';
import { CoverageChangeResponse } from '../patient-schemas.js';
import { scopeOf } from '../owned.js';
import { ErrorResponse } from '../schemas.js';

const ChangeList = pageOf('changes', CoverageChangeResponse.extend({ patientId: z.string() })).meta({
  id: 'CoverageChangeList',
});
const ChangeIdParams = z.object({ changeId: z.string().regex(CHANGE_ID_PATTERN, 'expected a change id (chg_…)') });

/**
 * The Changes list (issue 35): coverage changes nobody has marked seen yet, the caller's tenant only, and marking one
 * seen. Items hold identifiers and kinds of change, never a patient value; both entries (the list read, the mark) are
 * written by the audit hook.
 */
export function coverageChangeRoutes(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/coverage-changes',
    {
      schema: {
        operationId: 'listCoverageChanges',
        tags: [TAGS.coverageChanges.name],
        summary: 'Coverage changes not yet marked seen, newest first',
        querystring: PageQuery,
        response: {
          200: answer('A page of the unseen changes', ChangeList),
          400: answer('`param` names the invalid path or query parameter (an unknown one too)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:read' }, owns: 'own-tenant', audit: 'coverage-changes.read' },
    },
    async (request, reply) => {
      // Read whole and paged by time and change id: a change marked seen between pages moves no other one.
      const paged = keysetPager<ChangeItem>('coverage-changes', request.query, (c) => [c.at, c.changeId], 'desc');
      const unseen = await withDeadline(deps, () => unseenChanges(deps.client, scopeOf(request)));
      const { items, ...next } = paged(unseen);
      return reply.send({ changes: items.map(changeAnswer), ...next });
    },
  );

  app.post(
    '/coverage-changes/:changeId/seen',
    {
      schema: {
        operationId: 'markCoverageChangeSeen',
        tags: [TAGS.coverageChanges.name],
        summary: 'Mark a coverage change seen: it leaves the Changes list',
        params: ChangeIdParams,
        response: {
          ...bodyAnswers,
          200: answer('Marked (`seen: 0` when it already was)', z.object({ seen: z.number() })),
          404: answer('No such coverage change (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:write' }, owns: 'coverage-change', audit: 'coverage-change.seen' },
    },
    async (request, reply) =>
      reply.send(await withDeadline(deps, () => markChangeSeen(deps.client, request.params.changeId))),
  );
}
