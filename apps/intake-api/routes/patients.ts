import { WorkflowNotFoundError } from '@temporalio/client';
import { patientViewFields } from '../../../src/patients/disclosed-fields.js';
import { patientIdFor, readPatient } from '../../../src/patients/patients.js';
import { patientWorkflowId } from '../../../workflows/shared/ids.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { notFound } from '../errors.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { startTenant } from '../owned.js';
import { patientsOf } from '../patient-access.js';
import { patientAnswer } from '../patient-answers.js';
import { PatientIdParams, PatientLookupRequest, PatientLookupResponse, PatientResponse } from '../patient-schemas.js';
import { ErrorResponse } from '../schemas.js';

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
        tags: [TAGS.patients.name],
        summary: 'A patient: its details, upcoming appointments, coverage timeline and changes',
        params: PatientIdParams,
        response: {
          400: answer('`param` names the invalid path or query parameter (an unknown one too)', ErrorResponse),
          200: answer('The patient', PatientResponse),
          404: answer('No such patient (or another tenant’s)', ErrorResponse),
          ...commonAnswers,
        },
      },
      config: { access: { scope: 'verifications:read' }, owns: 'patient', audit: 'patient.read' },
    },
    async (request, reply) => {
      const view = await withDeadline(deps, () => readPatient(patientsOf(deps), request.params.patientId));
      await audited(deps.access, request, { fields: patientViewFields(view) });
      return reply.send(patientAnswer(view));
    },
  );

  app.post(
    '/patients/lookup',
    {
      schema: {
        operationId: 'lookupPatient',
        tags: [TAGS.patients.name],
        summary: "The patient id of the practice's patient reference",
        body: PatientLookupRequest,
        response: {
          ...bodyAnswers,
          200: answer('The patient exists', PatientLookupResponse),
          404: answer('No patient with this reference in this tenant', ErrorResponse),
          ...commonAnswers,
        },
      },
      // The reference is looked up within the caller's tenant: the patient found is its own by construction.
      config: { access: { scope: 'verifications:read' }, owns: 'own-tenant', audit: 'patient.lookup' },
    },
    async (request, reply) => {
      const patients = patientsOf(deps);
      const tenant = startTenant(request, request.body.tenant);
      const patientId = patientIdFor(patients, tenant, request.body.patientRef);
      const workflowId = patientWorkflowId(patientId);
      await withDeadline(deps, () => deps.client.workflow.getHandle(workflowId).describe()).catch((err: unknown) => {
        throw err instanceof WorkflowNotFoundError ? notFound('no such patient') : err;
      });
      await audited(deps.access, request, { workflowId });
      return reply.send({ patientId });
    },
  );
}
