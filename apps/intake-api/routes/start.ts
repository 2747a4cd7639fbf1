import { splitTenant, startVerification } from '../../../src/temporal/start-verification.js';
import { mayDo } from '../../../src/access/principal.js';
import { statusFields } from '../../../src/audit/patient-fields.js';
import { awaitSettled } from '../../../src/temporal/await-settled.js';
import { principalOf } from '../access.js';
import { audited } from '../audit.js';
import { preferredWait } from '../prefer-wait.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { patientFields } from '../../../src/audit/patient-fields.js';
import { startTenant } from '../owned.js';
import { answer, bodyAnswers, commonAnswers, PreferWaitHeaders, TAGS } from '../openapi.js';
import { ErrorResponse, StartedResponse, VerificationIntakeRequest } from '../schemas.js';
import { callerClient } from '../caller-client.js';

/**
 * `POST /verifications`: validates with the contract and starts the verification. A caller id seen before, running
 * or closed, starts nothing: the answer names the existing workflow (200, `duplicate: true`) instead of 202. With
 * `Prefer: wait=<seconds>` (the front desk), the answer waits up to that long for the verification to settle and is
 * then 200 with its status; a request retried with the same id waits on the same verification.
 */
export function startRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/verifications',
    {
      schema: {
        operationId: 'startVerification',
        tags: [TAGS.verifications.name],
        summary: 'Start the verification of one patient; with `Prefer: wait=<seconds>`, answer with where it stands',
        body: VerificationIntakeRequest,
        headers: PreferWaitHeaders,
        response: {
          ...bodyAnswers,
          202: answer(
            'Started (or, with `duplicate`, seen before); with `Prefer: wait`, not settled within the wait. `workflowId` names it from now on (`Location` too)',
            StartedResponse,
          ),
          200: answer(
            'With `Prefer: wait`: settled within the wait, `status` holds where it stands. Without it: this caller id was seen before, nothing started, `workflowId` names the existing verification',
            StartedResponse,
          ),
          400: answer(
            'Invalid request, never worth retrying as is: `param` names the field (a dotted path; a date of birth in the future too); without `param`, the verification engine refused it as invalid',
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
      config: { access: { scope: 'verifications:write' }, owns: 'own-tenant', audit: 'verification.start' },
    },
    async (request, reply) => {
      const { request: intake, tenant: named } = splitTenant(request.body);
      const tenant = startTenant(request, named);
      const { workflowId, started } = await withDeadline(deps, () =>
        startVerification(callerClient(deps, request), intake, {
          taskQueue: deps.taskQueue,
          ...(deps.blindIndex ? { blindIndex: deps.blindIndex } : {}),
          ...(deps.payers ? { payerNames: deps.payers } : {}),
          lane: 'front-desk',
          ...(tenant !== undefined ? { tenant } : {}),
          ...(deps.tenantWeights ? { tenantWeights: deps.tenantWeights } : {}),
          ...(deps.timing ? { timing: deps.timing } : {}),
        }),
      );
      request.log.info({ workflowId, started }, started ? 'verification started' : 'duplicate submission');
      await audited(deps.access, request, {
        workflowId,
        tenant: tenant ?? null,
        fields: patientFields(intake),
        outcome: started ? 'ok' : 'duplicate',
      });
      const answered = started ? { workflowId } : { workflowId, duplicate: true as const };
      reply.header('location', `/verifications/${encodeURIComponent(workflowId)}`);
      // The status is a read: a client without `verifications:read` is answered as if it had not asked to wait.
      const wait = mayDo(principalOf(request), 'verifications:read')
        ? preferredWait(request.headers.prefer)
        : undefined;
      if (wait === undefined) return reply.code(started ? 202 : 200).send(answered);
      reply.header('preference-applied', `wait=${wait}`);
      const status = await awaitSettled(callerClient(deps, request), workflowId, wait * 1000);
      if (!status) return reply.code(202).send(answered);
      // A second entry: the status the answer discloses.
      await audited(deps.access, request, {
        action: 'verification.read',
        workflowId,
        tenant: tenant ?? null,
        fields: statusFields(status),
      });
      return reply.code(200).send({ ...answered, status });
    },
  );
}
