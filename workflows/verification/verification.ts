import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Discovery, RunInput, RunUpdateResponse, VerificationIntake } from '../../src/contract/index.js';
import { startMetadata, type StartContext, type StartMetadata } from '../shared/start-metadata.js';
import type { Outcome, Stage } from '../shared/stages.js';
import type { Timing } from '../shared/timing.js';

/*
 * The verification family's vocabulary: its input, `status` query, result, messages and start metadata, defined once
 * for the workflows and every client (workflow code takes no zod); the intake API's schemas describe them and are
 * checked against them when compiling (apps/intake-api/schemas.ts).
 */

export interface VerificationWorkflowInput {
  /**
   * The intake request, validated by the starter (`startVerification`) with the contract; the workflow only guards
   * its structure (`intake-guard.ts`), for starts that bypass the edges.
   */
  request: VerificationIntake;
  timing?: Partial<Timing>;
  /** Carried across continue-as-new or given by a caller that already holds one; otherwise `uuid4()`. */
  idempotencyKey?: string;
  /**
   * The submitter's tenant (also its `Tenant` search attribute and the fairness key of its priority:
   * docs/developing/traffic.md); the workflow needs nothing of it: its tasks inherit the priority it was started with.
   */
  tenant?: string;
  /**
   * How long failing service calls are retried from their first failure (docs/developing/service-calls.md); absent: 24
   * h.
   */
  retryWindowSeconds?: number;
}

/** What a discovery found, without patient identity (names and date of birth stay with the service). */
export interface DiscoverySummary {
  discoveryId: string;
  status: 'pending' | 'complete';
  successful: boolean;
  payerId: string | null;
  payerName: string | null;
}

export const RUN_STATES = ['pending', 'submitting', 'answered'] as const;
export type RunState = (typeof RUN_STATES)[number];

/**
 * What a run asks for, when the service's run event says so (the spec shows no such field; the sandbox sends
 * `requestedInput`): the names of the fields it expects and a sentence for the person answering. Never patient data.
 */
export interface RequestedInput {
  fields?: string[];
  description?: string;
}

export interface RunSummary {
  flowRunId: string;
  state: RunState;
  /** What the run asks for, when its event said so. */
  requested?: RequestedInput;
  /** The service's run status after the input was accepted (e.g. `CREATED`). */
  serviceStatus?: string;
}

export interface LastError {
  type: string;
  message: string;
  param?: string;
  flowRunId?: string;
}

/**
 * A person's decision on a v1 creation whose outcome is unknown (stage `needs-review`): `retry` calls the service again,
 * accepting that a duplicate may be created; `record` takes the id of the verification the person found at the
 * service, with no call; `abandon` closes the verification as `abandoned`.
 */
export type ReviewDecision = { action: 'retry' } | { action: 'record'; verificationId: string } | { action: 'abandon' };
export const REVIEW_ACTIONS = ['retry', 'record', 'abandon'] as const satisfies readonly ReviewDecision['action'][];
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export interface ReviewAnswer {
  accepted: ReviewAction;
}

/** Why a verification needs review, since when, and until when a decision is awaited. */
export interface ReviewStatus {
  reason: string;
  /** ISO 8601. */
  since: string;
  /** ISO 8601: without a decision by then the verification ends as `timed-out`. */
  decideBy: string;
}

/** The `status` query: identifiers and progress, no patient data. */
export interface VerificationStatus {
  stage: Stage;
  callerId?: string;
  version: 'v1' | 'v2';
  payerId?: string;
  specialtyCode?: string;
  discoveryId?: string;
  verificationId?: string;
  discovery?: DiscoverySummary;
  runs: RunSummary[];
  pendingRuns: string[];
  /** Present in stage `needs-review`. */
  review?: ReviewStatus;
  lastError?: LastError;
}

export interface VerificationResult {
  outcome: Outcome;
  callerId?: string;
  verificationId?: string;
  discovery?: DiscoverySummary & { memberId: string | null };
  runs: RunSummary[];
  lastError?: LastError;
}

export interface SupplyRunInput {
  flowRunId: string;
  input: RunInput;
}

export interface RunAwaitingInput {
  flowRunId: string;
  /** What the run asks for, when the run event said so. */
  requested?: RequestedInput;
  /** The webhook event's id: a repeated delivery of the same event has no second effect. Absent from operators. */
  eventId?: string;
}

export interface RunInputWorkflowInput {
  flowRunId: string;
  /** What the run asks for, when the run event said so. */
  requested?: RequestedInput;
  verificationId?: string;
  callerId?: string;
  timing?: Partial<Pick<Timing, 'inputDeadlineSeconds'>>;
}

export interface RunInputWorkflowResult {
  outcome: 'completed' | 'timed-out' | 'cancelled';
  runs: RunSummary[];
  lastError?: LastError;
}

export interface WebhookSetupInput {
  url: string;
  events: string[];
  /** The endpoint an earlier setup registered: given, it is reused and only missing events are subscribed. */
  existing?: { endpointId: string; url: string; events: string[] };
}

export interface WebhookSetupResult {
  endpointId: string;
  url: string;
  events: string[];
  registered: boolean;
  subscribed: string[];
}

// Messages, used by the workflows and by every client (webhook receiver, intake API, CLI, tests).

/** The webhook receiver or an operator: a run of this verification awaits callback input. */
export const runAwaitingInputSignal = defineSignal<[RunAwaitingInput]>('runAwaitingInput');
/** Run input from Temporal UI, which sends signals only; a rejection shows in `status().lastError`. */
export const runInputSignal = defineSignal<[SupplyRunInput]>('runInput');
export const cancelSignal = defineSignal<[{ reason?: string }?]>('cancel');

/** Run input with an answer: the service's `{flowRunId, status}`, or a failure naming the bad `param`. */
export const supplyRunInputUpdate = defineUpdate<RunUpdateResponse, [SupplyRunInput]>('supplyRunInput');

/**
 * A person's decision on a v1 creation in `needs-review` (retry, record the verification id found, or abandon). The
 * validator refuses a verification not awaiting review and a malformed decision before anything is recorded.
 */
export const resolveReviewUpdate = defineUpdate<ReviewAnswer, [ReviewDecision]>('resolveReview');
/** The same decision from Temporal UI, which sends signals only; a rejection shows in `status().lastError`. */
export const reviewDecisionSignal = defineSignal<[ReviewDecision]>('reviewDecision');

export const statusQuery = defineQuery<VerificationStatus>('status');

/**
 * The front desk's wait (`Prefer: wait`, `eligibility start --wait`): completes with the status once the verification
 * is settled (`isSettled`). One update instead of polling the status query, each poll of which a worker answers.
 */
export const awaitSettledUpdate = defineUpdate<VerificationStatus>('awaitSettled');

// What the workflow and its starter read of an intake request (plain functions: the workflow bundle never pulls zod in).
/** The member id, wherever this version carries it. */
export function intakeMemberId(intake: VerificationIntake): string | undefined {
  return intake.version === 'v1' ? intake.memberId : intake.patient.memberId;
}

/** True when the payer or the member id is unknown and a discovery will tell: the workflow waits for it first. */
export function waitsForDiscovery(intake: VerificationIntake): boolean {
  return intake.discoveryId !== undefined && (intake.payerId === undefined || intakeMemberId(intake) === undefined);
}

// Temporal UI's summary and details from the start.

/** A string field of a request that its type does not declare (`lane`, `batchId`, `tenant`), when it carries one. */
function optionalString(request: object, key: string): string | undefined {
  const value = (request as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

export function verificationStartMetadata(intake: VerificationIntake, context: StartContext = {}): StartMetadata {
  return startMetadata(`Verification ${intake.version}`, {
    payerId: intake.payerId,
    payerName: context.payerName,
    ...(intake.version === 'v2' ? { specialtyCode: intake.specialtyCode } : {}),
    discoveryId: intake.discoveryId,
    lane: context.lane ?? optionalString(intake, 'lane'),
    batchId: context.batchId ?? optionalString(intake, 'batchId'),
    tenant: context.tenant ?? optionalString(intake, 'tenant'),
    callerId: intake.id,
  });
}

export function runInputStartMetadata(input: RunInputWorkflowInput): StartMetadata {
  return startMetadata('Run awaiting input (its verification had closed)', {
    flowRunId: input.flowRunId,
    verificationId: input.verificationId,
    callerId: input.callerId,
  });
}

export function webhookSetupStartMetadata(input: WebhookSetupInput): StartMetadata {
  return startMetadata('Webhook setup', {
    url: input.url,
    events: input.events.join(', '),
    endpointId: input.existing?.endpointId,
  });
}

// How a verification waits on `discovery-<id>` (decision 54): it registers, and is handed the discovery's end.

/** A verification that waits on a discovery, registering with `discovery-<id>` (its workflow id). */
export interface DiscoveryWaiter {
  waiterId: string;
}

/** What `discovery-<id>` hands every waiter once the wait ends: the discovery as last fetched (PHI: encrypted). */
export interface DiscoveryHandout {
  discoveryId: string;
  /**
   * `failed`: the service refused the fetch for good, and `error` says how. A verification of an earlier version reads
   * it as `timed-out`.
   */
  outcome: 'complete' | 'timed-out' | 'cancelled' | 'failed';
  discovery?: Discovery;
  error?: LastError;
}

/**
 * A registration's answer: the handout at once when the discovery had already ended, or nothing yet (the handout
 * follows as a signal). `looked`: this run of `discovery-<id>` has fetched the discovery since it started, so a
 * completion before the registration is not missed.
 */
export interface DiscoveryRegistration {
  handout?: DiscoveryHandout;
  looked?: boolean;
}

/**
 * A verification registers with `discovery-<id>` (update-with-start from its activity): the discovery's workflow keeps
 * the exact set of its waiters and answers with the handout at once when the discovery already ended.
 */
export const registerDiscoveryWaiterUpdate = defineUpdate<DiscoveryRegistration, [DiscoveryWaiter]>(
  'registerDiscoveryWaiter',
);
/** `discovery-<id>` to each registered verification: the discovery's end, fetched once for all of them. */
export const discoveryHandoutSignal = defineSignal<[DiscoveryHandout]>('discoveryHandout');
