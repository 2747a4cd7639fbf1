import { z } from 'zod';
import { CallerId, PersonName, RealDateOfBirth, StateCode, Uuid } from './common.js';

/**
 * The sandbox's own endpoints (`/sandbox/...`), which are not part of the service: tests and benchmarks use them to
 * create discoveries, inject faults and count calls. Kept in the contract so both sides parse one shape.
 */

/** `POST /sandbox/discoveries`. `delayMs` -1 = the discovery never completes on its own. */
export const SandboxDiscoveryRequest = z.object({
  firstName: PersonName,
  lastName: PersonName,
  dateOfBirth: RealDateOfBirth,
  state: StateCode,
  id: CallerId.optional(),
  payerId: z.string().min(1).optional(),
  delayMs: z.number().int().min(-1).optional(),
});
export type SandboxDiscoveryRequest = z.infer<typeof SandboxDiscoveryRequest>;

/**
 * What the product sends to create a discovery (decision 0051: the spec does not show creation; the sandbox's shape,
 * without its timing control).
 */
export const DiscoveryCreateRequest = SandboxDiscoveryRequest.omit({ delayMs: true });
export type DiscoveryCreateRequest = z.infer<typeof DiscoveryCreateRequest>;

/** `POST /sandbox/discoveries/{discoveryId}/complete`; without `successful` the magic values decide. */
export const SandboxDiscoveryCompleteRequest = z.object({ successful: z.boolean().optional() });
export type SandboxDiscoveryCompleteRequest = z.infer<typeof SandboxDiscoveryCompleteRequest>;

/** What `POST /sandbox/coverage` does to a patient's coverage from the next check on. */
export const COVERAGE_CONTROLS = ['lose', 'restore', 'move-payer', 'new-member-id', 'fail', 'recover'] as const;

/**
 * `POST /sandbox/coverage`: changes one patient's coverage between checks. The patient is named in the body (never a
 * URL) by name and date of birth, as the service's requests carry them; `payerId` is the payer `move-payer` moves to.
 */
export const SandboxCoverageChange = z
  .object({
    patient: z.object({ firstName: PersonName, lastName: PersonName, dateOfBirth: RealDateOfBirth }),
    change: z.enum(COVERAGE_CONTROLS),
    payerId: z.string().min(1).optional(),
  })
  .strict();
export type SandboxCoverageChange = z.infer<typeof SandboxCoverageChange>;

/** The patient's coverage as the sandbox now answers it: no member id (the answer carries no patient value). */
export const SandboxCoverageState = z.object({
  covered: z.boolean(),
  failing: z.boolean(),
  payerId: z.string().optional(),
  /** Member id changes made so far (a discovery's member id is otherwise the same at every check). */
  memberIdChanges: z.number().int().min(0),
});
export type SandboxCoverageState = z.infer<typeof SandboxCoverageState>;

const rate = z.number().min(0).max(1);

/** Fault injection, as configured (`SANDBOX_FAULT_*`) and as `GET /sandbox/faults` shows it. */
export const FaultSettings = z.object({
  /** Probability of an injected 500 on a service call (not on /oauth/token). */
  error500Rate: rate,
  /** Probability of an injected 429 on a service call (not on /oauth/token). */
  error429Rate: rate,
  /** Added before every call, /oauth/token included. */
  latencyMs: z.number().int().min(0).max(60_000),
  /** `Retry-After` of injected 429s. */
  retryAfterSeconds: z.number().int().positive(),
  /** The next N responses of verification creation (v1 and v2) are dropped after the request was processed. */
  dropResponses: z.number().int().min(0),
  webhookDuplicateRate: rate,
  webhookDropRate: rate,
  /** Deliveries are held briefly and sent in reverse order. */
  webhookReorder: z.boolean(),
});
export type FaultSettings = z.infer<typeof FaultSettings>;

/** `POST /sandbox/faults`: a partial update; an unknown field is rejected by name. */
export const FaultUpdate = FaultSettings.partial().strict();
export type FaultUpdate = z.infer<typeof FaultUpdate>;

/** The sandbox's rate limit per client (`SANDBOX_RATE_*`), as `GET /sandbox/rate-limit` shows it. */
export const RateLimitSettings = z.object({
  /** Tokens added to each client id's bucket per second: the sustained limit R. */
  ratePerSecond: z.number().positive().max(1_000_000),
  /** Bucket size: calls a client may make at once after being idle. */
  burst: z.number().int().positive().max(1_000_000),
});
export type RateLimitSettings = z.infer<typeof RateLimitSettings>;

/** `POST /sandbox/rate-limit`: a partial update, applied from the next call on; an unknown field is rejected by name. */
export const RateLimitUpdate = RateLimitSettings.partial().strict();
export type RateLimitUpdate = z.infer<typeof RateLimitUpdate>;

/** A run as `GET /sandbox/runs?verificationId=…` lists it. `id` is the caller's id of the verification, when given. */
export const SandboxRun = z.object({
  flowRunId: Uuid,
  status: z.string().min(1),
  verificationId: Uuid,
  id: z.string().optional(),
});
export type SandboxRun = z.infer<typeof SandboxRun>;
export const SandboxRunList = z.array(SandboxRun);

const count = z.number().int().min(0);

/** `GET /sandbox/stats`. Calls to `/sandbox/...` itself are not counted. */
export const SandboxStats = z.object({
  /** `"<METHOD> <route pattern>"` -> `"<status>"` -> count, e.g. `{"GET /v1/payers/:payerId": {"200": 3}}`. */
  calls: z.record(z.string(), z.record(z.string(), count)),
  /** Verifications created (v1 and v2); an idempotent replay creates none. */
  verificationsCreated: count,
  idempotentReplays: count,
  /** Every 429 sent, from the rate limit and from fault injection. */
  tooManyRequestsSent: count,
  tokensIssued: count,
  /** Responses destroyed by the `dropResponses` fault (their calls are counted under the status not sent). */
  responsesDropped: count,
  webhookDeliveries: z.object({
    /** HTTP attempts made; every attempt ends as succeeded (2xx) or failed (other status, timeout, network). */
    attempted: count,
    succeeded: count,
    failed: count,
    /** Events given up after the last attempt failed. */
    abandoned: count,
    /** Events never sent because of the `webhookDropRate` fault. */
    dropped: count,
  }),
});
export type SandboxStats = z.infer<typeof SandboxStats>;
