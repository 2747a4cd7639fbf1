import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';

/** The gRPC status codes this project tells apart (numbers, so no direct dependency on @grpc/grpc-js is needed). */
export const GrpcStatus = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  UNAVAILABLE: 14,
} as const;

/** The gRPC status of a failed Temporal call, on the error itself or on its cause (the client wraps it). */
export function grpcCode(err: unknown): number | undefined {
  if (isGrpcServiceError(err)) return err.code;
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return isGrpcServiceError(cause) ? cause.code : undefined;
}

/** Temporal's own explanation of a refused call (no values of ours: it names limits and fields). */
export function grpcDetails(err: unknown): string | undefined {
  const source = isGrpcServiceError(err) ? err : (err as { cause?: unknown } | undefined)?.cause;
  return isGrpcServiceError(source) ? source.details : undefined;
}

/**
 * Why a Temporal call failed, the one mapping every edge answers from (the CLI's line, the intake API's status, the
 * batch starter's retry):
 * - `unreachable`, `no-answer` (the deadline passed), `overloaded` (it sheds load): the same call can succeed later;
 * - `refused`: Temporal refused the request itself (`INVALID_ARGUMENT`, e.g. a value over one of its limits, an
 *   unregistered search attribute); sending it again cannot help;
 * - `other`: anything else (a bug, a misconfiguration such as a wrong namespace or credentials).
 */
export type TemporalFailureReason = 'unreachable' | 'no-answer' | 'overloaded' | 'refused' | 'other';

export function temporalFailureReason(err: unknown): TemporalFailureReason {
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return 'no-answer';
  switch (grpcCode(err)) {
    case GrpcStatus.UNAVAILABLE:
      return 'unreachable';
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 'no-answer';
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 'overloaded';
    case GrpcStatus.INVALID_ARGUMENT:
      return 'refused';
    default:
      return 'other';
  }
}

/** The reasons as an answer: try again later (HTTP 503, `batch` retries), not again (HTTP 400), or a fault (500). */
export type TemporalFailureKind = 'unavailable' | 'invalid' | 'other';

const KIND_OF: Record<TemporalFailureReason, TemporalFailureKind> = {
  unreachable: 'unavailable',
  'no-answer': 'unavailable',
  overloaded: 'unavailable',
  refused: 'invalid',
  other: 'other',
};

export function temporalFailureKind(err: unknown): TemporalFailureKind {
  return KIND_OF[temporalFailureReason(err)];
}

const MISSING_SEARCH_ATTRIBUTE = [
  /no mapping defined for search attribute ([A-Za-z0-9_]+)/i,
  /search attribute ([A-Za-z0-9_]+) is not defined/i,
  // A visibility query naming one (`eligibility list --stage failed`): "invalid query: invalid search attribute: X".
  /invalid search attribute:? ([A-Za-z0-9_]+)/i,
];

/**
 * The search attribute a refusal says the namespace lacks (Temporal: "Namespace … has no mapping defined for search
 * attribute BatchId"), so that the caller is told which one and how to fix it (`eligibility setup`), not only that
 * the request was invalid. Undefined for any other failure.
 */
export function missingSearchAttribute(err: unknown): string | undefined {
  if (grpcCode(err) !== GrpcStatus.INVALID_ARGUMENT) return undefined;
  const details = grpcDetails(err) ?? (err instanceof Error ? err.message : '');
  for (const pattern of MISSING_SEARCH_ATTRIBUTE) {
    const name = pattern.exec(details)?.[1];
    if (name) return name;
  }
  return undefined;
}

/** What to tell a person about a namespace that lacks a search attribute: which one, and the command that fixes it. */
export const missingSearchAttributeMessage = (name: string) =>
  `the Temporal namespace has no search attribute ${name}: run \`eligibility setup\` against it, then try again`;
