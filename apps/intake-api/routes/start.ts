import { splitTenant, startVerification } from '../../../src/temporal/start-verification.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { patientFields } from '../../../src/audit/patient-fields.js';
import { tenantToStart } from '../tenancy.js';
import { replyWithError } from '../errors.js';
import { answer, commonAnswers } from '../openapi.js';
import { ErrorResponse, StartedResponse, VerificationIntakeRequest } from '../schemas.js';

/**
 * `POST /verifications`: validates with the contract and starts the verification. A caller id seen before, running
 * or closed, starts nothing: the answer names the existing workflow (200, `duplicate: true`) instead of 202.
 */
export function startRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/verifications',
    {
      schema: {
        operationId: 'startVerification',
        summary: 'Start the verification of one patient',
        body: VerificationIntakeRequest,
        response: {
          202: answer('Started; the workflow id names it from now on', StartedResponse),
          200: answer(
            'This caller id was seen before: nothing started, the existing workflow is named',
            StartedResponse,
          ),
          400: answer(
            'Invalid request, never worth retrying as is: `param` names the field (a dotted path); without `param`, Temporal refused it as invalid',
            ErrorResponse,
          ),
          ...commonAnswers,
          403: answer(
            "The client lacks the scope `verifications:write`, or `tenant` names another tenant than the client's",
            ErrorResponse,
          ),
        },
      },
      // The body schema documents the request; the request is validated by `startVerification` with the contract's
      // `validateIntake`, the one validation of intake requests (the CLI and intake files use it too).
      validatorCompiler: () => (value: unknown) => ({ value }),
      config: { scope: 'verifications:write' },
    },
    async (request, reply) => {
      try {
        const { request: intake, tenant: named } = splitTenant(request.body);
        const owner = tenantToStart(request, named);
        if ('refused' in owner) {
          return reply.code(403).send({ error: 'forbidden', param: 'tenant', message: owner.refused });
        }
        const { tenant } = owner;
        const { workflowId, started } = await withDeadline(deps, () =>
          startVerification(deps.client, intake, {
            taskQueue: deps.taskQueue,
            lane: 'front-desk',
            ...(tenant !== undefined ? { tenant } : {}),
            ...(deps.tenantWeights ? { tenantWeights: deps.tenantWeights } : {}),
            ...(deps.timing ? { timing: deps.timing } : {}),
          }),
        );
        request.log.info({ workflowId, started }, started ? 'verification started' : 'duplicate submission');
        await audit(deps.access, request, {
          action: 'verification.start',
          workflowId,
          tenant: tenant ?? null,
          fields: patientFields(intake),
          outcome: started ? 'ok' : 'duplicate',
        });
        return reply
          .code(started ? 202 : 200)
          .header('location', `/verifications/${encodeURIComponent(workflowId)}`)
          .send(started ? { workflowId } : { workflowId, duplicate: true });
      } catch (err) {
        return replyWithError(request, reply, err);
      }
    },
  );
}
