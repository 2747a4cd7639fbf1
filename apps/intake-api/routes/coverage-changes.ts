import { z } from 'zod';
import { markChangeSeen, patientOfChange, unseenChanges } from '../../../src/patients/coverage-changes.js';
import { CHANGE_ID_PATTERN } from '../../../workflows/shared/patient-types.js';
import { audit, principalOf } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { replyWithPatientError } from '../patient-access.js';
import { CoverageChangeResponse } from '../patient-schemas.js';
import { ErrorResponse } from '../schemas.js';
import { ownWorkflow } from '../tenancy.js';

const ChangeList = z
  .object({ changes: z.array(CoverageChangeResponse.extend({ patientId: z.string() })) })
  .meta({ id: 'CoverageChangeList' });
const ChangeIdParams = z.object({ changeId: z.string().regex(CHANGE_ID_PATTERN, 'expected a change id (chg_…)') });

/**
 * The Changes list (issue 35): coverage changes nobody has marked seen yet, the caller's tenant only, and marking one
 * seen. Items hold identifiers and kinds of change, never a patient value.
 */
export function coverageChangeRoutes(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/coverage-changes',
    {
      schema: {
        operationId: 'listCoverageChanges',
        summary: 'Coverage changes not yet marked seen, newest first',
        response: {
          200: answer('The unseen changes', ChangeList),
          400: answer('`param` names the invalid path or query parameter (an unknown one too)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:read' },
    },
    async (request, reply) => {
      try {
        const changes = await withDeadline(deps, () => unseenChanges(deps.client, principalOf(request).tenant));
        await audit(deps.access, request, { action: 'coverage-changes.read', fields: [], outcome: 'ok' });
        return reply.send({ changes });
      } catch (err) {
        return replyWithPatientError(request, reply, err);
      }
    },
  );

  app.post(
    '/coverage-changes/:changeId/seen',
    {
      schema: {
        operationId: 'markCoverageChangeSeen',
        summary: 'Take a change off the Changes list',
        params: ChangeIdParams,
        response: {
          ...bodyAnswers,
          200: answer('Marked (`seen: 0` when it already was)', z.object({ seen: z.number() })),
          404: answer('No such patient (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:write' },
    },
    async (request, reply) => {
      try {
        const workflowId = patientOfChange(request.params.changeId);
        await ownWorkflow(deps, request, workflowId);
        const answered = await withDeadline(deps, () => markChangeSeen(deps.client, request.params.changeId));
        await audit(deps.access, request, { action: 'coverage-change.seen', workflowId, fields: [], outcome: 'ok' });
        return reply.send(answered);
      } catch (err) {
        return replyWithPatientError(request, reply, err);
      }
    },
  );
}
