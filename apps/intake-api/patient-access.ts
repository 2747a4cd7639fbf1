import type { FastifyRequest } from 'fastify';
import { PatientsUnavailableError } from '../../src/patients/errors.js';
import type { Patients } from '../../src/patients/patients.js';
import { callerClient } from './caller-client.js';
import type { IntakeDeps } from './deps.js';

/**
 * The patients of this API, or PatientsUnavailableError (503 naming the setting) without PATIENT_ID_KEY. Given the
 * request, what they start and signal is recorded in history as the caller (caller-client.ts).
 */
export function patientsOf(deps: IntakeDeps, request?: FastifyRequest): Patients {
  if (!deps.patients) throw new PatientsUnavailableError();
  const client = request ? callerClient(deps, request) : deps.client;
  return { ...deps.patients, client, taskQueue: deps.taskQueue };
}
