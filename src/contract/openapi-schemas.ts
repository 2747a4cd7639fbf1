import { z } from 'zod';
import { AccessToken, TokenRequest } from './auth.js';
import { DateOfBirth, SpecialtyCode, StateCode } from './common.js';
import { Discovery } from './discovery.js';
import {
  ErrorBody,
  InvalidParamBody,
  InvalidRequestBody,
  InvalidRequestOptionalParamBody,
  InvalidVerificationBody,
  TooManyRequestsBody,
} from './errors.js';
import { LegacyPatient, Subscriber, VerificationPatient } from './patient.js';
import { Payer } from './payer.js';
import { ProviderGroupRequest, ProviderGroupResponse } from './provider-group.js';
import { FlowRunId, RunInput, RunUpdateRequest, RunUpdateResponse } from './run.js';
import {
  IdempotencyKey,
  type V1FieldNames,
  VerificationRequestV2,
  VerificationResponseV1,
  VerificationResponseV2,
  v1WireSchema,
} from './verification.js';
import {
  DiscoveryUpdatedData,
  EndpointId,
  EventSubscriptionRequest,
  RunPendingData,
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhook.js';

export const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
export const json = (schemaId: string) => ({ 'application/json': { schema: ref(schemaId) } });

/** Every contract schema as a named component, converted by `z.toJSONSchema`; shared schemas become `$ref`s. */
export function componentSchemas(v1FieldNames: V1FieldNames): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const named: Record<string, z.ZodType> = {
    StateCode,
    DateOfBirth,
    SpecialtyCode,
    IdempotencyKey,
    FlowRunId,
    EndpointId,
    TokenRequest,
    AccessToken,
    LegacyPatient,
    VerificationPatient,
    Subscriber,
    Discovery,
    Payer,
    ProviderGroupRequest,
    ProviderGroupResponse,
    VerificationRequestV2,
    VerificationResponseV2,
    VerificationRequestV1: v1WireSchema(v1FieldNames),
    VerificationResponseV1,
    RunInput,
    RunUpdateRequest,
    RunUpdateResponse,
    WebhookCreateRequest,
    WebhookEndpoint,
    EventSubscriptionRequest,
    WebhookDelivery,
    DiscoveryUpdatedData,
    RunPendingData,
    InvalidRequestBody,
    InvalidRequestOptionalParamBody,
    InvalidParamBody,
    InvalidVerificationBody,
    TooManyRequestsBody,
    ErrorBody,
  };
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  // Requests are what the schemas accept (input); the schemas have no transforms, so responses read the same.
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'input' });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema as unknown]),
  );
}
