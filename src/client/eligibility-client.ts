import type { KyInstance } from 'ky';
import type { z } from 'zod';
import type { ServiceConfig } from '../config.js';
import {
  DiscoveryCreateRequest,
  AccessToken,
  Discovery,
  EndpointId,
  EventSubscriptionRequest,
  FlowRunId,
  IdempotencyKey,
  INVALID_REQUEST,
  LegacyPatient,
  Payer,
  ProviderGroupRequest,
  ProviderGroupResponse,
  RunUpdateRequest,
  RunUpdateResponse,
  VerificationRequestV2,
  VerificationResponseV1,
  VerificationResponseV2,
  WebhookCreateRequest,
  WebhookEndpoint,
  toV1Wire,
  v1WireSchema,
  type RunInput,
  type VerificationRequestV1,
} from '../contract/index.js';
import { AuthenticationError, EligibilityError, InvalidRequestError, NetworkError } from './errors.js';
import {
  callerId,
  createHttp,
  readResponse,
  saysTooManyRequests,
  send,
  validateRequest,
  type RawResponse,
  type SendOptions,
} from './http.js';
import { encodePathParam } from './path.js';
import { TokenManager } from './token-manager.js';

/** One HTTP exchange with the service, as reported to `onExchange` (the worker counts them in its metrics). */
export interface ServiceExchange {
  /** `GET /v1/payers/{payerId}`: the method and route template, never the path with its ids. */
  endpoint: string;
  /** The HTTP status, or the network error's code (`TIMEOUT`, `ECONNREFUSED`…) when no answer came. */
  status: number | string;
  seconds: number;
  /** The service refused it as too many requests (429, or its `Too many requests` body). */
  rateLimited: boolean;
}

export interface EligibilityClientOptions {
  /** What ky sends each request with (tests inject a fake service or a spy); default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Told of every exchange, answered or not (a cancelled call is not one). */
  onExchange?: (exchange: ServiceExchange) => void;
}

export interface CallOptions {
  /** Aborts the call (an activity passes its cancellation signal). */
  signal?: AbortSignal;
}

export interface CreateVerificationV2Options extends CallOptions {
  /** A UUID v4 fixed once by the caller and reused by every retry, so the service never creates a duplicate. */
  idempotencyKey: string;
}

interface Call extends Pick<SendOptions, 'method' | 'path' | 'json' | 'headers'> {
  /** The route pattern (`/v1/payers/{payerId}`): errors name it, never the ids of the path. */
  route: string;
}

/**
 * The eligibility service (docs/eligibility-service.openapi.json), one method per endpoint, contract types in and out.
 * Requests are checked before sending and responses after receiving; failures are typed errors (`./errors.ts`). The
 * client never retries beyond one token refresh: Temporal is the only retry layer.
 */
export class EligibilityClient {
  readonly #config: ServiceConfig;
  readonly #http: KyInstance;
  readonly #tokens: TokenManager;
  readonly #onExchange: ((exchange: ServiceExchange) => void) | undefined;

  /**
   * @param config the service settings of `loadConfig()` (base URL, credentials, header and field names, timeout); the
   *   client never reads the environment itself.
   * @param [options.fetch=globalThis.fetch] what ky sends each request with.
   */
  constructor(config: ServiceConfig, options: EligibilityClientOptions = {}) {
    this.#config = config;
    this.#http = createHttp({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, fetch: options.fetch });
    this.#tokens = new TokenManager(() => this.#fetchToken());
    this.#onExchange = options.onExchange;
  }

  /** `send`, reported to `onExchange`. */
  async #send(endpoint: string, opts: SendOptions): Promise<RawResponse> {
    const started = performance.now();
    const report = (status: number | string, rateLimited: boolean) =>
      this.#onExchange?.({ endpoint, status, seconds: (performance.now() - started) / 1000, rateLimited });
    try {
      const raw = await send(this.#http, endpoint, opts);
      report(raw.status, raw.status === 429 || saysTooManyRequests(raw.body));
      return raw;
    } catch (err) {
      if (err instanceof NetworkError) report(err.code, false);
      throw err;
    }
  }

  async createVerificationV2(
    request: VerificationRequestV2,
    opts: CreateVerificationV2Options,
  ): Promise<VerificationResponseV2> {
    const json = validateRequest(VerificationRequestV2, request);
    const header = this.#config.idempotencyHeader;
    if (!IdempotencyKey.safeParse(opts?.idempotencyKey).success) {
      throw new InvalidRequestError(
        { error: INVALID_REQUEST, param: header, id: callerId(request) },
        `${INVALID_REQUEST} (param ${header}): expected a UUID v4 idempotency key; not sent`,
      );
    }
    return this.#call(
      {
        method: 'POST',
        route: '/v2/verifications',
        path: 'v2/verifications',
        json,
        headers: { [header]: opts.idempotencyKey },
      },
      VerificationResponseV2,
      opts.signal,
    );
  }

  /** Legacy. Takes the canonical request (`npi`, `taxonomyCode`) and sends the configured wire field names. */
  async createVerificationV1(request: VerificationRequestV1, opts: CallOptions = {}): Promise<VerificationResponseV1> {
    const names = { npi: this.#config.v1NpiField, taxonomy: this.#config.v1TaxonomyField };
    // Checked in wire form, so a bad NPI is named by the field name the service knows, as the service would name it.
    const wire = typeof request === 'object' && request !== null ? toV1Wire(request, names) : request;
    const json = validateRequest(v1WireSchema(names), wire);
    return this.#call(
      { method: 'POST', route: '/v1/verifications', path: 'v1/verifications', json },
      VerificationResponseV1,
      opts.signal,
    );
  }

  /**
   * Creates a discovery of a patient's coverage, at `ELIGIBILITY_DISCOVERY_CREATE_PATH` (the spec does not show how;
   * decision 0051). Undefined when no path is configured: nothing is sent.
   */
  async createDiscovery(request: DiscoveryCreateRequest, opts: CallOptions = {}): Promise<Discovery | undefined> {
    const route = this.#config.discoveryCreatePath;
    if (route === undefined) return undefined;
    const json = validateRequest(DiscoveryCreateRequest, request);
    return this.#call({ method: 'POST', route, path: route.slice(1), json }, Discovery, opts.signal);
  }

  async getDiscovery(discoveryId: string, opts: CallOptions = {}): Promise<Discovery> {
    const path = `v1/discovery/${encodePathParam('discoveryId', discoveryId)}`;
    return this.#call({ method: 'GET', route: '/v1/discovery/{discoveryId}', path }, Discovery, opts.signal);
  }

  async getPayer(payerId: string, opts: CallOptions = {}): Promise<Payer> {
    const path = `v1/payers/${encodePathParam('payerId', payerId)}`;
    return this.#call({ method: 'GET', route: '/v1/payers/{payerId}', path }, Payer, opts.signal);
  }

  /** Legacy. */
  async getLegacyPatient(patientId: string, opts: CallOptions = {}): Promise<LegacyPatient> {
    const path = `v1/patients/${encodePathParam('patientId', patientId)}`;
    return this.#call({ method: 'GET', route: '/v1/patients/{patientId}', path }, LegacyPatient, opts.signal);
  }

  async createProviderGroup(request: ProviderGroupRequest, opts: CallOptions = {}): Promise<ProviderGroupResponse> {
    const json = validateRequest(ProviderGroupRequest, request);
    return this.#call(
      { method: 'POST', route: '/v1/providers/groups', path: 'v1/providers/groups', json },
      ProviderGroupResponse,
      opts.signal,
    );
  }

  async updateRun(flowRunId: string, input: RunInput, opts: CallOptions = {}): Promise<RunUpdateResponse> {
    const path = `v1/runs/${encodePathParam('flowRunId', flowRunId, FlowRunId)}`;
    const json = validateRequest(RunUpdateRequest, { input });
    return this.#call({ method: 'PUT', route: '/v1/runs/{flowRunId}', path, json }, RunUpdateResponse, opts.signal);
  }

  async registerWebhook(url: string, opts: CallOptions = {}): Promise<WebhookEndpoint> {
    const json = validateRequest(WebhookCreateRequest, { url });
    return this.#call(
      { method: 'POST', route: '/v1/webhooks', path: 'v1/webhooks', json },
      WebhookEndpoint,
      opts.signal,
    );
  }

  async subscribeWebhookEvent(endpointId: string, event: string, opts: CallOptions = {}): Promise<WebhookEndpoint> {
    const path = `v1/webhooks/${encodePathParam('endpointId', endpointId, EndpointId)}/events`;
    const json = validateRequest(EventSubscriptionRequest, { event });
    const route = '/v1/webhooks/{endpointId}/events';
    return this.#call({ method: 'POST', route, path, json }, WebhookEndpoint, opts.signal);
  }

  /** One authenticated call; on 401/403 the token is dropped, refreshed once and the call repeated once. */
  async #call<T>(call: Call, schema: z.ZodType<T>, signal: AbortSignal | undefined): Promise<T> {
    const endpoint = `${call.method} ${call.route}`;
    const attempt = async (token: string) => this.#send(endpoint, { ...call, token, signal });
    const token = await this.#tokens.get();
    let raw = await attempt(token);
    if ((raw.status === 401 || raw.status === 403) && !saysTooManyRequests(raw.body)) {
      this.#tokens.invalidate(token);
      raw = await attempt(await this.#tokens.get());
    }
    return readResponse(raw, schema, endpoint);
  }

  async #fetchToken(): Promise<AccessToken> {
    const endpoint = 'POST /oauth/token';
    const { clientId: client_id, clientSecret: client_secret } = this.#config;
    const raw = await this.#send(endpoint, {
      method: 'POST',
      path: 'oauth/token',
      json: { client_id, client_secret },
    });
    if ([400, 401, 403].includes(raw.status) && !saysTooManyRequests(raw.body)) {
      // The token endpoint answers bad credentials with `invalid_request_error`: for the caller that is an
      // authentication failure, not a field of their request. The message names the variables, never their values.
      const { status, error } = EligibilityError.generate(raw.status, raw.body, raw.headers, endpoint);
      throw new AuthenticationError(
        { status, error, endpoint },
        `${status} ${error ?? 'no error body'} (token request refused: check ELIGIBILITY_CLIENT_ID and ELIGIBILITY_CLIENT_SECRET)`,
      );
    }
    return readResponse(raw, AccessToken, endpoint);
  }
}
