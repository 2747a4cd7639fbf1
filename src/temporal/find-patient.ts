import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { BlindIndexKeys } from '../blind-index/keys.js';
import { searchTokens, type PatientKeys } from '../blind-index/tokens.js';
import { BATCH_ITEM_MEMO_KEY, type BatchItemMemo } from '../../workflows/batch/batch.js';
import { BatchId, PatientIndex, PayerId, Tenant, VerificationStage } from '../../workflows/shared/search-attributes.js';
import { isRunningStage } from '../../workflows/shared/stages.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { PageRequest } from '../pages.js';
import { and, hasAnyOf, ofType } from './visibility-query.js';
import { visibilityPage } from './visibility-page.js';
import { howItEnded } from './workflow-ending.js';

/** One verification of the patient searched for: identifiers and where it stands, never a patient value. */
export interface PatientMatch {
  workflowId: string;
  /** The stage while it runs, else how it ended (`completed`, `failed`, `cancelled`…). */
  stage: string;
  running: boolean;
  payerId: string | null;
  batchId: string | null;
  tenant: string | null;
  /** ISO 8601. */
  startTime: string;
  /** A later attempt of the same batch row (a resubmission), when there is one: the one to look at. */
  supersededBy?: string;
}

export interface PatientSearch {
  /** The tenants searched: the searcher's own; `undefined` stands for verifications of no tenant. */
  tenants: readonly (string | undefined)[];
  patient: PatientKeys;
  /** At most this many, newest first. */
  limit: number;
}

/** The visibility query of a patient's verifications, or undefined when nothing can match (no key, no tenant). */
export function patientQuery(keys: BlindIndexKeys, search: Omit<PatientSearch, 'limit'>): string | undefined {
  const tokens = searchTokens(keys, search.tenants, search.patient);
  return tokens.length === 0 ? undefined : and(ofType(WorkflowType.verification), hasAnyOf(PatientIndex, tokens));
}

/** The batch row and round a verification is (its memo), when it is a batch item. */
const rowOf = (info: WorkflowExecutionInfo) => info.memo?.[BATCH_ITEM_MEMO_KEY] as Partial<BatchItemMemo> | undefined;

function match(info: WorkflowExecutionInfo): PatientMatch {
  const a = info.typedSearchAttributes;
  const stage = a.get(VerificationStage);
  const running = info.status.name === 'RUNNING';
  return {
    workflowId: info.workflowId,
    stage: running ? (isRunningStage(stage) ? stage : 'validating') : howItEnded(info.status.name, stage),
    running,
    payerId: a.get(PayerId) ?? null,
    batchId: a.get(BatchId) ?? null,
    tenant: a.get(Tenant) ?? null,
    startTime: info.startTime.toISOString(),
  };
}

/**
 * A page of a patient's verifications, newest first, found by keyed hashes alone (the blind index): visibility never
 * sees the name, the date of birth or the member id, and the page token holds only Temporal's sort position. A batch
 * row resubmitted is found in each attempt; within a page, the older ones point to the latest.
 */
export async function findPatientPage(
  client: Client,
  keys: BlindIndexKeys,
  search: Omit<PatientSearch, 'limit'> & PageRequest,
): Promise<{ matches: PatientMatch[]; nextPageToken?: string }> {
  const query = patientQuery(keys, search);
  if (!query) return { matches: [] };
  const page = await visibilityPage(client, query, 'verification-search', search);
  const found = page.infos.map((info) => ({ info, match: match(info) }));
  const latest = new Map<string, { round: number; workflowId: string }>();
  for (const { info } of found) {
    const memo = rowOf(info);
    if (typeof memo?.batchId !== 'string' || typeof memo.row !== 'number' || typeof memo.round !== 'number') continue;
    const row = `${memo.batchId}#${memo.row}`;
    if ((latest.get(row)?.round ?? -1) < memo.round)
      latest.set(row, { round: memo.round, workflowId: info.workflowId });
  }
  const matches = found.map(({ info, match: m }) => {
    const memo = rowOf(info);
    const newer = memo && latest.get(`${memo.batchId}#${memo.row}`);
    return newer && newer.workflowId !== m.workflowId ? { ...m, supersededBy: newer.workflowId } : m;
  });
  return { matches, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
}

/** The first page of a patient's verifications (the console's search, the lab's). */
export async function findPatient(
  client: Client,
  keys: BlindIndexKeys,
  search: PatientSearch,
): Promise<PatientMatch[]> {
  return (await findPatientPage(client, keys, search)).matches;
}
