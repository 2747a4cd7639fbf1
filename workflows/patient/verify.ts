import { ChildWorkflowFailure, startChild } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import type { VerificationIntake, VerificationPatient } from '../../src/contract/index.js';
import { patientRefreshVerificationId, patientVerificationWorkflowId } from '../shared/ids.js';
import type { AppointmentDetails, CoverageEntry, CoverageState } from './patient.js';
import { lanePriority } from '../shared/priority.js';
import {
  BatchId,
  PatientIndex,
  PayerId,
  SpecialtyCode,
  Tenant,
  VerificationStage,
} from '../shared/search-attributes.js';
import type { Outcome } from '../shared/stages.js';
import type { Timing } from '../shared/timing.js';
import type { VerificationResult } from '../verification/verification.js';
import { DEFAULT_EVENT_TENANT } from '../shared/search-attributes.js';
import { WorkflowType } from '../shared/workflow-types.js';
import type { verificationWorkflow } from '../verification/index.js';
import { verificationStartMetadata } from '../verification/verification.js';

export interface CheckRequest {
  patientId: string;
  tenant: string;
  /** The patient's n-th verification: its workflow id. */
  n: number;
  patient: VerificationPatient;
  visit: Omit<AppointmentDetails, 'dateOfService' | 'timeZone' | 'dayStartsAt'>;
  /** The payer to verify with: the visit's, else the one the patient's last answer named. */
  payerId: string;
  appointmentId?: string;
  timing?: Partial<Timing>;
  /** A refresh's verification: its id derives from the refresh instead of the counter, and it carries the refresh's
   * `BatchId` so the refresh counts it like a batch's item. */
  refresh?: { refreshId: string; batchId: string };
  /** A discovery of the patient's coverage: the verification takes payer and member id from it. */
  discoveryId?: string;
  /** The patient's blind-index tokens: the verification carries them, so Find finds it like any other. */
  index?: string[];
}

const COVERAGE: Partial<Record<Outcome, CoverageState>> = { completed: 'covered', 'no-coverage': 'no-coverage' };

/**
 * Runs one verification of the patient as a child workflow (decision 0048): its id is derived from the patient and a
 * counter the history carries, so a replay or a retry never starts a second one, and the patient awaits its result
 * instead of the verification workflow learning about patients. Bulk lane: nobody waits at a desk for it.
 */
export async function verifyPatient(request: CheckRequest): Promise<CoverageEntry> {
  const workflowId = request.refresh
    ? patientRefreshVerificationId(request.patientId, request.refresh.refreshId)
    : patientVerificationWorkflowId(request.patientId, request.n);
  // With a discovery, neither the held payer nor the member id is sent: the discovery's answer is what is compared.
  const { memberId: _heldMemberId, ...identity } = request.patient;
  const intake: VerificationIntake = {
    version: 'v2',
    ...(request.discoveryId
      ? { patient: identity, discoveryId: request.discoveryId }
      : { patient: request.patient, payerId: request.payerId }),
    specialtyCode: request.visit.specialtyCode,
    placeOfServiceCode: request.visit.placeOfServiceCode,
    ...(request.visit.providerGroupId ? { providerGroupId: request.visit.providerGroupId } : {}),
    // The service's own record names a refresh's verifications by patient (an opaque id), so duplicates show there.
    ...(request.refresh ? { id: request.patientId } : {}),
  };
  const tenant = request.tenant === DEFAULT_EVENT_TENANT ? undefined : request.tenant;
  const searchAttributes: SearchAttributePair[] = [
    { key: VerificationStage, value: 'creating' },
    { key: PayerId, value: request.payerId },
    { key: SpecialtyCode, value: request.visit.specialtyCode },
  ];
  if (tenant) searchAttributes.push({ key: Tenant, value: tenant });
  if (request.refresh) searchAttributes.push({ key: BatchId, value: request.refresh.batchId });
  if (request.index?.length) searchAttributes.push({ key: PatientIndex, value: request.index });
  let result: VerificationResult;
  try {
    const child = await startChild<typeof verificationWorkflow>(WorkflowType.verification, {
      workflowId,
      args: [{ request: intake, ...(tenant ? { tenant } : {}), ...(request.timing ? { timing: request.timing } : {}) }],
      typedSearchAttributes: searchAttributes,
      priority: lanePriority('bulk', tenant),
      // The verification outlives a patient that continues as new; its own deadlines end it.
      parentClosePolicy: 'ABANDON',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      ...verificationStartMetadata(intake, {
        lane: 'bulk',
        ...(tenant ? { tenant } : {}),
        ...(request.visit.payerId === request.payerId && request.visit.payerName
          ? { payerName: request.visit.payerName }
          : {}),
      }),
    });
    result = await child.result();
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure)) throw err;
    result = { outcome: 'failed', runs: [] };
  }
  const coverage = COVERAGE[result.outcome] ?? 'failed';
  const memberId = result.discovery?.memberId ?? undefined;
  return {
    at: Date.now(),
    outcome: result.outcome,
    coverage,
    payerId: result.discovery?.payerId ?? request.payerId,
    ...(memberId ? { memberId } : {}),
    ...(result.verificationId ? { verificationId: result.verificationId } : {}),
    workflowId,
    ...(request.appointmentId ? { appointmentId: request.appointmentId } : {}),
    ...(request.refresh ? { refreshId: request.refresh.refreshId } : {}),
  };
}
