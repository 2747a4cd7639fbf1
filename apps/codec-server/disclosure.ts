import type { Payload } from '@temporalio/common';
import type { CodecPerson } from '../../src/access/codec-tokens.js';
import { sees } from '../../src/access/tenancy.js';
import { patientFields } from '../../src/audit/patient-fields.js';
import { isEncrypted, payloadWorkflowId } from '../../src/codec/encryption-codec.js';
import type { TenantOf } from './tenant-cache.js';

/** Whose payloads a decode request holds: each workflow with its tenant, and `unnamed` (encrypted before the tag). */
export interface Owners {
  workflows: { workflowId: string; tenant: string | null }[];
  unnamed: boolean;
}

export async function ownersOf(payloads: readonly Payload[], tenantOf: TenantOf): Promise<Owners> {
  const encrypted = payloads.filter(isEncrypted);
  const ids = [...new Set(encrypted.map(payloadWorkflowId).filter((id) => id !== undefined))];
  const workflows = await Promise.all(
    ids.map(async (workflowId) => ({ workflowId, tenant: await tenantOf(workflowId) })),
  );
  return { workflows, unnamed: encrypted.some((p) => payloadWorkflowId(p) === undefined) };
}

/**
 * Whether the person may read these payloads: never a viewer (the console masks what a viewer sees; Temporal UI cannot),
 * and a person of some tenants only their workflows'. A payload of no tenant's workflow, or one that names no
 * workflow, is for people of every tenant only.
 */
export function mayDecode(person: CodecPerson, owners: Owners): boolean {
  if (person.role === 'viewer') return false;
  if (owners.unnamed && person.tenants !== null) return false;
  return owners.workflows.every((w) => sees(person.tenants, w.tenant));
}

const MAX_DEPTH = 4;

function collect(value: unknown, depth: number, into: Set<string>): void {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return;
  for (const field of patientFields(value)) into.add(field);
  for (const inner of Array.isArray(value) ? value : Object.values(value)) collect(inner, depth + 1, into);
}

/**
 * The names of the patient data decoded payloads hold (`patient.dateOfBirth`, `memberId`), for the audit trail; a
 * payload whose fields are not known ones is named `payload`, since its content was shown all the same.
 */
export function disclosedFields(decoded: readonly Payload[]): string[] {
  const fields = new Set<string>();
  for (const payload of decoded) {
    try {
      collect(JSON.parse(Buffer.from(payload.data ?? new Uint8Array()).toString('utf8')), 0, fields);
    } catch {
      // Not JSON (binary/null, protobuf): shown all the same, named as a whole below.
    }
  }
  return fields.size > 0 ? [...fields].sort() : decoded.length > 0 ? ['payload'] : [];
}
