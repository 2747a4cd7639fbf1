import { WorkflowNotFoundError, WorkflowUpdateFailedError, ApplicationFailure } from '@temporalio/client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PatientsUnavailableError } from '../../src/patients/errors.js';
import type { Patients } from '../../src/patients/patients.js';
import { PatientRefusal } from '../../workflows/shared/patient-types.js';
import type { IntakeDeps } from './deps.js';
import { replyWithError } from './errors.js';

/** The patients of this API, or PatientsUnavailableError without PATIENT_ID_KEY. */
export function patientsOf(deps: IntakeDeps): Patients {
  if (!deps.patients) throw new PatientsUnavailableError();
  return { ...deps.patients, client: deps.client, taskQueue: deps.taskQueue };
}

/**
 * The patient routes' errors: no key is 503 naming the setting; a patient or appointment that does not exist (or is
 * another tenant's) is 404, a cancelled appointment 409; the rest as every intake route answers them.
 */
export function replyWithPatientError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof PatientsUnavailableError) {
    return reply.code(503).send({ error: 'patients_unavailable', message: err.message });
  }
  if (err instanceof WorkflowNotFoundError)
    return reply.code(404).send({ error: 'not_found', message: 'no such patient' });
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    if (err.cause.type === PatientRefusal.NotFound) {
      return reply.code(404).send({ error: 'not_found', message: 'no such appointment' });
    }
    if (err.cause.type === PatientRefusal.Cancelled) {
      return reply.code(409).send({ error: 'appointment_cancelled', param: 'appointmentId', message: 'cancelled' });
    }
  }
  return replyWithError(request, reply, err);
}
