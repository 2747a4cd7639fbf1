import { patientViewFields } from '../../../src/patients/disclosed-fields.js';
import { patientIdFor, readPatient } from '../../../src/patients/patients.js';
import { patientWorkflowId } from '../../../workflows/shared/ids.js';
import { audit } from '../access.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { answer, bodyAnswers, commonAnswers } from '../openapi.js';
import { patientsOf, replyWithPatientError } from '../patient-access.js';
import { PatientIdParams, PatientLookupRequest, PatientLookupResponse, PatientResponse } from '../patient-schemas.js';
import { ErrorResponse } from '../schemas.js';
import { ownWorkflow, tenantToStart } from '../tenancy.js';

/**
 * `GET /patients/:patientId` (the opaque id the product assigns) and `POST /patients/lookup` (the practice's own
 * reference, in the body, never in a URL). Tenant-scoped: another tenant's patient is a 404, as one that does not exist.
 */
export function patientRoutes(app: IntakeApp, deps: IntakeDeps): void {
  app.get(
    '/patients/:patientId',
    {
      schema: {
        operationId: 'getPatient',
        summary: 'A patient: its details, upcoming appointments, coverage timeline and changes',
        params: PatientIdParams,
        response: {
          400: answer('`param` names the invalid path or query parameter (an unknown one too)', ErrorResponse),
          200: answer('The patient', PatientResponse),
          404: answer('No such patient (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:read' },
    },
    async (request, reply) => {
      try {
        const patients = patientsOf(deps);
        const workflowId = patientWorkflowId(request.params.patientId);
        await ownWorkflow(deps, request, workflowId);
        const view = await withDeadline(deps, () => readPatient(patients, request.params.patientId));
        // Written before the answer: a disclosure whose entry cannot be written is not made.
        await audit(deps.access, request, {
          action: 'patient.read',
          workflowId,
          fields: patientViewFields(view),
          outcome: 'ok',
        });
        return reply.send(view);
      } catch (err) {
        return replyWithPatientError(request, reply, err);
      }
    },
  );

  app.post(
    '/patients/lookup',
    {
      schema: {
        operationId: 'lookupPatient',
        summary: "The patient id of the practice's patient reference",
        body: PatientLookupRequest,
        response: {
          ...bodyAnswers,
          200: answer('The patient exists', PatientLookupResponse),
          404: answer('No patient with this reference in this tenant', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { scope: 'verifications:read' },
    },
    async (request, reply) => {
      try {
        const patients = patientsOf(deps);
        const owner = tenantToStart(request, request.body.tenant);
        if ('refused' in owner) {
          return reply.code(403).send({ error: 'forbidden', param: 'tenant', message: owner.refused });
        }
        const patientId = patientIdFor(patients, owner.tenant, request.body.patientRef);
        const workflowId = patientWorkflowId(patientId);
        await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).describe());
        await audit(deps.access, request, { action: 'patient.lookup', workflowId, fields: [], outcome: 'ok' });
        return reply.send({ patientId });
      } catch (err) {
        return replyWithPatientError(request, reply, err);
      }
    },
  );
}
