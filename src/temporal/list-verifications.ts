import type { Client } from '@temporalio/client';
import {
  DiscoveryId,
  PayerId,
  Tenant,
  VerificationId,
  VerificationStage,
} from '../../workflows/shared/search-attributes.js';
import type { Stage } from '../../workflows/shared/stages.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { PageRequest } from '../pages.js';
import { and, isTenant, noTenant, ofType, type TenantFilter } from './visibility-query.js';
import { visibilityPage } from './visibility-page.js';
import { atStage, indexedStage } from './workflow-ending.js';

/** One verification as visibility shows it: search attributes only, never patient data. */
export interface VerificationSummary {
  workflowId: string;
  stage: string | null;
  payerId: string | null;
  verificationId: string | null;
  discoveryId: string | null;
  /** Temporal's execution status: `RUNNING`, `COMPLETED`, `FAILED`, … */
  status: string;
  /** ISO 8601. */
  startTime: string;
}

/**
 * The visibility query of verifications, optionally at one stage and of one tenant (or of any of several): the same
 * text works in Temporal UI.
 */
export function verificationsQuery(stage?: Stage, tenant?: TenantFilter): string {
  const conditions = [ofType(WorkflowType.verification)];
  if (stage) conditions.push(atStage(stage));
  if (tenant !== undefined) conditions.push(isTenant(Tenant, tenant));
  return and(...conditions);
}

/**
 * A page of verifications, newest first (the CLI's `list` and the intake API's `GET /verifications`). Only search
 * attributes are read; visibility lags the workflows by a moment.
 */
export async function listVerifications(
  client: Client,
  options: { stage?: Stage; tenant?: TenantFilter } & PageRequest,
): Promise<{ verifications: VerificationSummary[]; nextPageToken?: string }> {
  if (noTenant(options.tenant)) return { verifications: [] };
  const query = verificationsQuery(options.stage, options.tenant);
  const page = await visibilityPage(client, query, 'verifications', options);
  const verifications = page.infos.map((info) => {
    const attributes = info.typedSearchAttributes;
    return {
      workflowId: info.workflowId,
      stage: indexedStage(info.status.name, attributes.get(VerificationStage)) ?? null,
      payerId: attributes.get(PayerId) ?? null,
      verificationId: attributes.get(VerificationId) ?? null,
      discoveryId: attributes.get(DiscoveryId) ?? null,
      status: info.status.name,
      startTime: info.startTime.toISOString(),
    };
  });
  return { verifications, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
}
