import { QueryNotRegisteredError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { startInput } from '../../../src/batches/start-input.js';
import { statusQuery } from '../../../workflows/verification/verification.js';
import {
  BatchId,
  PayerId,
  SpecialtyCode,
  Tenant,
  VerificationStage,
} from '../../../workflows/shared/search-attributes.js';
import type {
  RequestedInput,
  RunInputWorkflowInput,
  VerificationResult,
  VerificationStatus,
  VerificationWorkflowInput,
} from '../../../workflows/verification/verification.js';
import { timeline, type TimelineEntry } from './timeline.js';
import { indexedStage } from '../../../src/temporal/workflow-ending.js';
import { WorkflowType } from '../../../workflows/shared/workflow-types.js';

/** A query needs a worker to answer it (a closed workflow is replayed); without one the page still shows the rest. */
const QUERY_TIMEOUT_MS = 5000;

/**
 * Who the verification is for, decrypted from the workflow's input: shown to signed-in operators only, in the page's
 * body, never in a URL, a title or a log line.
 */
export interface PatientView {
  name?: string;
  dateOfBirth?: string;
  memberId?: string;
  /** A v1 request names a legacy patient record instead. */
  patientId?: string;
  state?: string;
  /** The member id a discovery found (the request had none), once the verification has closed with it. */
  discoveredMemberId?: string;
  /** The names of the request's fields shown here (`patient.dateOfBirth`, `memberId`), for the audit trail. */
  fields: string[];
}

export interface VerificationDetail {
  workflowId: string;
  runId: string;
  type: string;
  /** Temporal's execution status. */
  execution: string;
  startedAt: string;
  closedAt?: string;
  /** The stage search attribute (the outcome once closed); the status query's stage when it answered. */
  stage?: string;
  payerId?: string;
  specialtyCode?: string;
  batchId?: string;
  tenant?: string;
  status?: VerificationStatus;
  /** Why the status query is missing (no worker answered in time, or the workflow has none). */
  statusProblem?: string;
  patient?: PatientView;
  /** For a standalone run workflow: the verification and caller it belongs to. */
  runOf?: { verificationId?: string; callerId?: string; requested?: RequestedInput };
  timeline: TimelineEntry[];
}

function patientOf(input: VerificationWorkflowInput): PatientView | undefined {
  const request = input?.request;
  if (!request) return undefined;
  const named = <T extends object>(record: T, keys: readonly (keyof T & string)[], prefix = '') =>
    keys.filter((key) => record[key] !== undefined).map((key) => `${prefix}${key}`);
  if (request.version === 'v1') {
    return {
      patientId: request.patientId,
      memberId: request.memberId,
      fields: named(request, ['patientId', 'memberId']),
    };
  }
  const p = request.patient;
  return {
    name: `${p.firstName} ${p.lastName}`,
    dateOfBirth: p.dateOfBirth,
    memberId: p.memberId,
    state: p.state,
    fields: named(p, ['firstName', 'lastName', 'dateOfBirth', 'memberId', 'state'], 'patient.'),
  };
}

/** The member id the verification's discovery found, from its result (closed verifications only). */
async function discoveredMemberId(client: Client, workflowId: string): Promise<string | undefined> {
  try {
    const result = (await client.workflow.getHandle(workflowId).result()) as VerificationResult | undefined;
    return result?.discovery?.memberId ?? undefined;
  } catch {
    return undefined; // it failed: no result, and no member id to show
  }
}

async function statusOf(client: Client, workflowId: string) {
  try {
    const status = await client.withDeadline(Date.now() + QUERY_TIMEOUT_MS, () =>
      client.workflow.getHandle(workflowId).query(statusQuery),
    );
    return { status };
  } catch (err) {
    if (err instanceof QueryNotRegisteredError) return { statusProblem: 'this workflow has no status query' };
    return { statusProblem: 'no worker answered the status query in time; the rest is from Temporal itself' };
  }
}

/**
 * Everything the console shows of one workflow; undefined when there is no such workflow. Its tenant is the wall's to
 * check (apps/console/owned.ts) before this reads anything of it.
 */
export async function verificationDetail(client: Client, workflowId: string): Promise<VerificationDetail | undefined> {
  let described;
  try {
    described = await client.workflow.getHandle(workflowId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  const a = described.typedSearchAttributes;
  const isVerification = described.type === WorkflowType.verification;
  const isRun = described.type === WorkflowType.runInput;
  const [status, input, entries] = await Promise.all([
    isVerification || isRun ? statusOf(client, workflowId) : Promise.resolve({ statusProblem: undefined }),
    isVerification || isRun
      ? startInput<VerificationWorkflowInput & RunInputWorkflowInput>(client, workflowId, described.runId)
      : Promise.resolve(undefined),
    timeline(client, workflowId),
  ]);
  const optional = <K extends string>(name: K, value: string | undefined) => (value ? { [name]: value } : {});
  const patient = isVerification && input ? patientOf(input) : undefined;
  const discovered =
    patient && !patient.memberId && described.closeTime ? await discoveredMemberId(client, workflowId) : undefined;
  return {
    workflowId,
    runId: described.runId,
    type: described.type,
    execution: described.status.name,
    startedAt: described.startTime.toISOString(),
    ...(described.closeTime ? { closedAt: described.closeTime.toISOString() } : {}),
    ...optional(
      'stage',
      ('status' in status && status.status?.stage) || indexedStage(described.status.name, a.get(VerificationStage)),
    ),
    ...optional('payerId', a.get(PayerId)),
    ...optional('specialtyCode', a.get(SpecialtyCode)),
    ...optional('batchId', a.get(BatchId)),
    ...optional('tenant', a.get(Tenant)),
    ...status,
    ...(patient
      ? {
          patient: discovered
            ? { ...patient, discoveredMemberId: discovered, fields: [...patient.fields, 'discovery.memberId'] }
            : patient,
        }
      : {}),
    ...(isRun && input
      ? { runOf: { verificationId: input.verificationId, callerId: input.callerId, requested: input.requested } }
      : {}),
    timeline: entries,
  };
}
