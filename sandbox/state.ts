import type { Discovery, LegacyPatient, Payer, ProviderGroupRequest, WebhookEndpoint } from '../src/contract/index.js';
import { CoverageControl } from './coverage.js';
import { SEED_PATIENTS, SEED_PAYERS, SEED_PROVIDER_GROUPS } from './seed.js';

export interface ProviderGroup extends ProviderGroupRequest {
  providerGroupId: string;
}

export interface VerificationRecord {
  verificationId: string;
  version: 'v1' | 'v2';
  payerId: string;
  /** The caller's identifier, when given. */
  id?: string;
  created: string;
}

export type RunStatus = 'PENDING' | 'CREATED';

export interface RunRecord {
  flowRunId: string;
  status: RunStatus;
  verificationId: string;
  id?: string;
  /** The callback state context that `PUT /v1/runs/{flowRunId}` patches. */
  context: Record<string, unknown>;
}

/** Everything the sandbox knows, in memory; `reset()` restores the seed. */
export class SandboxState {
  /** Every payer by its id and by each alias id. */
  readonly payers = new Map<string, Payer>();
  readonly patients = new Map<string, LegacyPatient>();
  readonly providerGroups = new Map<string, ProviderGroup>();
  readonly discoveries = new Map<string, Discovery>();
  readonly verifications = new Map<string, VerificationRecord>();
  readonly runs = new Map<string, RunRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpoint>();
  /** Patients' coverage as scripted by `POST /sandbox/coverage`. */
  readonly coverage = new CoverageControl();

  constructor() {
    this.reset();
  }

  reset(): void {
    for (const map of [
      this.payers,
      this.patients,
      this.providerGroups,
      this.discoveries,
      this.verifications,
      this.runs,
      this.webhookEndpoints,
    ]) {
      map.clear();
    }
    this.coverage.clear();
    for (const payer of SEED_PAYERS) {
      for (const id of [payer.payerId, ...payer.aliasPayerIds]) this.payers.set(id, structuredClone(payer));
    }
    for (const patient of SEED_PATIENTS) this.patients.set(patient.patientId, structuredClone(patient));
    for (const group of SEED_PROVIDER_GROUPS) this.providerGroups.set(group.providerGroupId, { ...group });
  }

  /** A payer found by its id or any alias id. */
  findPayer(payerIdOrAlias: string): Payer | undefined {
    return this.payers.get(payerIdOrAlias);
  }

  pendingRuns(): RunRecord[] {
    return [...this.runs.values()].filter((run) => run.status === 'PENDING');
  }
}
