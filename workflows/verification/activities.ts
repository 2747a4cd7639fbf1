import type {
  Discovery,
  LegacyPatient,
  Payer,
  ProviderGroupRequest,
  ProviderGroupResponse,
  RunInput,
  RunUpdateResponse,
  VerificationRequestV1,
  VerificationRequestV2,
  VerificationResponseV1,
  VerificationResponseV2,
  WebhookEndpoint,
} from '../../src/contract/index.js';
import type { CallPolicy } from '../shared/activity-options.js';
import type { Timing } from '../shared/timing.js';
import type { DiscoveryRegistration } from './verification.js';

/**
 * The service calls these workflows make, one activity each. The workflows own this port and `activities/` implements
 * it (`createActivities(...): VerificationActivities`), so the activities may import what workflows share (ids,
 * failure types) without a cycle, and an implementation that drifts from it does not compile.
 */
export interface VerificationActivities {
  /** `policy`: the verification's retry window (without one, the default; a call with a deadline passes none). */
  lookupPayer: (payerId: string, policy?: CallPolicy) => Promise<Payer>;
  fetchDiscovery: (discoveryId: string) => Promise<Discovery>;
  /**
   * Looks at the discovery once and, while it is not complete, registers `waiterId` with `discovery-<id>`
   * (update-with-start on this task queue, `timing` for a workflow it starts): that workflow hands the result over.
   * Its look is one of the verification's calls: `policy` is the verification's retry window (decision 71).
   */
  registerDiscoveryWaiter: (
    discoveryId: string,
    waiterId: string,
    timing?: Partial<Pick<Timing, 'pollInitialSeconds' | 'pollMaxSeconds' | 'discoveryDeadlineSeconds'>>,
    policy?: CallPolicy,
  ) => Promise<DiscoveryRegistration>;
  /** `idempotencyKey` comes from the workflow (`uuid4()`), so every attempt and replay sends the same one. */
  createVerificationV2: (
    request: VerificationRequestV2,
    idempotencyKey: string,
    policy?: CallPolicy,
  ) => Promise<VerificationResponseV2>;
  /** Not idempotent: an outcome the service did not state fails as `AmbiguousOutcome`, for a person to decide. */
  createVerificationV1: (request: VerificationRequestV1) => Promise<VerificationResponseV1>;
  updateRun: (flowRunId: string, input: RunInput) => Promise<RunUpdateResponse>;
  fetchLegacyPatient: (patientId: string) => Promise<LegacyPatient>;
  createProviderGroup: (request: ProviderGroupRequest) => Promise<ProviderGroupResponse>;
  registerWebhook: (url: string) => Promise<WebhookEndpoint>;
  subscribeWebhookEvent: (endpointId: string, event: string) => Promise<WebhookEndpoint>;
}
