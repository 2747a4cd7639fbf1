// PLACEHOLDER until the client issue lands: the signatures are the agreed interface between workflows and
// activities; the bodies are written by the client/activities work.
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
} from '../src/contract/index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EligibilityClient = any;

export function createActivities(_client: EligibilityClient) {
  const notYet = () => Promise.reject(new Error('not implemented yet'));
  return {
    lookupPayer: (_payerId: string): Promise<Payer> => notYet(),
    fetchDiscovery: (_discoveryId: string): Promise<Discovery> => notYet(),
    createVerificationV2: (_request: VerificationRequestV2, _idempotencyKey: string): Promise<VerificationResponseV2> =>
      notYet(),
    createVerificationV1: (_request: VerificationRequestV1): Promise<VerificationResponseV1> => notYet(),
    updateRun: (_flowRunId: string, _input: RunInput): Promise<RunUpdateResponse> => notYet(),
    fetchLegacyPatient: (_patientId: string): Promise<LegacyPatient> => notYet(),
    createProviderGroup: (_request: ProviderGroupRequest): Promise<ProviderGroupResponse> => notYet(),
    registerWebhook: (_url: string): Promise<WebhookEndpoint> => notYet(),
    subscribeWebhookEvent: (_endpointId: string, _event: string): Promise<WebhookEndpoint> => notYet(),
  };
}

export type Activities = ReturnType<typeof createActivities>;
