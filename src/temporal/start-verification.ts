import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { validateIntake } from '../contract/index.js';
import { TenantSchema } from './tenant.js';
import type { BlindIndexKeys } from '../blind-index/keys.js';
import { indexTokens, intakePatientKeys } from '../blind-index/tokens.js';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import { waitsForDiscovery } from '../../workflows/verification/verification.js';
import { BATCH_ITEM_MEMO_KEY, type BatchItemMemo } from '../../workflows/batch/batch.js';
import {
  BatchId,
  DiscoveryId,
  PatientIndex,
  PayerId,
  SpecialtyCode,
  Tenant,
  VerificationStage,
} from '../../workflows/shared/search-attributes.js';
import { lanePriority, type Lane, type TenantWeights } from '../../workflows/shared/priority.js';
import type { Timing } from '../../workflows/shared/timing.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import { verificationStartMetadata } from '../../workflows/verification/verification.js';
import type { PayerNamesNow } from '../payers/payer-names.js';

/** A request that would fail the workflow's `validating` stage, caught before anything starts. */
export class IntakeValidationError extends Error {
  override name = 'IntakeValidationError';
  constructor(
    readonly param: string,
    /** What was expected, without the field's name (an answer naming `param` says it once). */
    readonly detail: string,
  ) {
    super(`${param}: ${detail}`);
  }
}

export interface StartedVerification {
  workflowId: string;
  /** false when a verification with this caller id already ran or runs: nothing new was started. */
  started: boolean;
}

export interface StartVerificationOptions {
  taskQueue: string;
  timing?: Partial<Timing>;
  /**
   * The workflow id's suffix when the request has no caller id (default: a new UUID per call). A caller that retries
   * the same request passes the same value, so a start that reached Temporal before its answer was lost is found as
   * the same workflow instead of starting a second one.
   */
  anonymousId?: string;
  /** How long failing service calls are retried from their first failure (default 24 h; a batch carries its own). */
  retryWindowSeconds?: number;
  /**
   * An item of a batch (docs/integrating/batches.md): its derived workflow id, and what the batch carries onto every
   * item.
   */
  batch?: Omit<BatchItemMemo, 'callerId'> & { workflowId: string; tenant?: string; retryWindowSeconds: number };
  /**
   * The task-queue lane (docs/developing/traffic.md): bulk for a batch item and for `lane: 'bulk'`, the front desk
   * otherwise.
   */
  lane?: Lane;
  /** The submitter's tenant (a provider group or clinic id, never PHI): the fairness key within its lane. */
  tenant?: string;
  /** Fairness weights by tenant (`ELIGIBILITY_TENANT_WEIGHTS`). */
  tenantWeights?: TenantWeights;
  /** The patient search index's keys: the start carries the patient's keyed hashes (none without keys). */
  blindIndex?: BlindIndexKeys;
  /** Payer names known now (src/payers): Temporal UI shows the payer by name beside its id. */
  payerNames?: PayerNamesNow;
}

/**
 * An intake body (the intake API's, a `start --file`) as the request and its tenant: the tenant sits beside the
 * request's fields but routes it (its fairness key: docs/developing/traffic.md) and is never sent to the service.
 * Checked, with the field named, by `startVerification`.
 */
export function splitTenant(body: unknown): { request: unknown; tenant?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('tenant' in body)) return { request: body };
  const { tenant, ...request } = body as Record<string, unknown>;
  // A tenant that is not a string is kept as given, for startVerification to refuse by name.
  return { request, tenant: tenant as string };
}

/**
 * Validates an intake request with the contract and starts its verification with the parsed request: the workflow
 * trusts it and re-checks only its structure (workflows/verification/intake-guard.ts). The same caller id never
 * starts a second one.
 */
export async function startVerification(
  client: Client,
  request: unknown,
  options: StartVerificationOptions,
): Promise<StartedVerification> {
  const validation = validateIntake(request);
  if (!validation.ok) throw new IntakeValidationError(validation.param, validation.message);
  const intake = validation.intake;
  const { batch } = options;
  const tenant = batch?.tenant ?? options.tenant;
  // Checked here, not only at the edges: it becomes a fairness key and a search attribute, where a patient value
  // must never land. The message names the field, never the value.
  const tenantCheck = tenant === undefined ? undefined : TenantSchema.safeParse(tenant);
  if (tenantCheck?.success === false) {
    throw new IntakeValidationError('tenant', tenantCheck.error.issues[0]?.message ?? 'expected a tenant identifier');
  }
  const lane: Lane = batch ? 'bulk' : (options.lane ?? 'front-desk');
  const workflowId = batch?.workflowId ?? verificationWorkflowId(intake.id ?? options.anonymousId ?? randomUUID());
  // Set at start, where they are free; the workflow upserts only when the stage changes. Never patient data.
  const typedSearchAttributes: SearchAttributePair[] = [
    { key: VerificationStage, value: waitsForDiscovery(intake) ? 'awaiting-discovery' : 'creating' },
  ];
  if (intake.payerId) typedSearchAttributes.push({ key: PayerId, value: intake.payerId });
  if (intake.version === 'v2') typedSearchAttributes.push({ key: SpecialtyCode, value: intake.specialtyCode });
  if (intake.discoveryId) typedSearchAttributes.push({ key: DiscoveryId, value: intake.discoveryId });
  if (batch) typedSearchAttributes.push({ key: BatchId, value: batch.batchId });
  if (tenant) typedSearchAttributes.push({ key: Tenant, value: tenant });
  // Keyed hashes, set here with the rest so no workflow code changes: how a person finds this patient again.
  const index = options.blindIndex && indexTokens(options.blindIndex, tenant, intakePatientKeys(intake));
  if (index?.length) typedSearchAttributes.push({ key: PatientIndex, value: index });
  const payerName = intake.payerId ? options.payerNames?.nameNow(intake.payerId) : undefined;
  const item: BatchItemMemo | undefined = batch && {
    batchId: batch.batchId,
    row: batch.row,
    round: batch.round,
    ...(intake.id ? { callerId: intake.id } : {}),
  };
  try {
    await client.workflow.start<typeof verificationWorkflow>(WorkflowType.verification, {
      workflowId,
      taskQueue: options.taskQueue,
      args: [
        {
          request: intake,
          ...(options.timing ? { timing: options.timing } : {}),
          ...(tenant ? { tenant } : {}),
          ...(batch ? { retryWindowSeconds: batch.retryWindowSeconds } : {}),
          ...(!batch && options.retryWindowSeconds ? { retryWindowSeconds: options.retryWindowSeconds } : {}),
        },
      ],
      typedSearchAttributes,
      // Its workflow tasks and service calls inherit it: the whole verification keeps its lane and its tenant.
      priority: lanePriority(lane, tenant, options.tenantWeights),
      // What Temporal UI shows of it from the start: identifiers and codes only, never a patient value.
      ...verificationStartMetadata(intake, {
        lane,
        ...(batch ? { batchId: batch.batchId } : {}),
        ...(tenant ? { tenant } : {}),
        ...(payerName ? { payerName } : {}),
      }),
      ...(item ? { memo: { [BATCH_ITEM_MEMO_KEY]: item } } : {}),
      // A caller id seen before, running or closed, is a duplicate submission: nothing new starts.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
    });
    return { workflowId, started: true };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return { workflowId, started: false };
    throw err;
  }
}
