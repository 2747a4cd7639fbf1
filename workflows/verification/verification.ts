import type { Discovery, RunInput, VerificationIntake } from '../../src/contract/index.js';
import type { Timing } from './timing.js';

/*
 * The shapes workflows exchange with their callers: inputs, messages, the `status` query and results. This file is
 * their one definition (workflow code takes no zod); the intake API's schemas describe them and are checked against
 * them when compiling (apps/intake-api/schemas.ts).
 */

import type { Outcome, Stage } from './stages.js';

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

export interface DiscoveryUpdated {
  discoveryId: string;
  /** The webhook event's id: a repeated delivery of the same event fetches nothing more. Absent from operators. */
  eventId?: string;
}

export interface DiscoveryWorkflowInput {
  discoveryId: string;
  timing?: Partial<Pick<Timing, 'pollInitialSeconds' | 'pollMaxSeconds' | 'discoveryDeadlineSeconds'>>;
  /** Started by a waiter that fetched the discovery a moment before: no first look, the first poll comes next. */
  looked?: boolean;
  /** The waiters that started it, registered before anything else happens (a start costs no update). */
  waiters?: string[];
}

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
 * completion before the registration is not missed. `earlierOwner`: an earlier version runs it, which keeps no waiters.
 */
export interface DiscoveryRegistration {
  handout?: DiscoveryHandout;
  looked?: boolean;
  earlierOwner?: boolean;
}

export interface DiscoveryWorkflowResult {
  outcome: DiscoveryHandout['outcome'];
  discovery?: DiscoverySummary;
  error?: LastError;
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
