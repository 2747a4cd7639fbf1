import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';

/** The gRPC status codes this project tells apart (numbers, so no direct dependency on @grpc/grpc-js is needed). */
export const GrpcStatus = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
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
 * How a failed Temporal call should be answered:
 * - `unavailable`: Temporal is unreachable, did not answer before the deadline, or sheds load; the same call can
 *   succeed later (HTTP 503 with `Retry-After`; `batch` retries it).
 * - `invalid`: Temporal refused the request itself (`INVALID_ARGUMENT`, e.g. a value over one of its limits); sending
 *   it again cannot help (HTTP 400).
 * - `other`: anything else (a bug, a misconfiguration such as a wrong namespace or credentials): HTTP 500.
 */
export type TemporalFailureKind = 'unavailable' | 'invalid' | 'other';

export function temporalFailureKind(err: unknown): TemporalFailureKind {
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return 'unavailable';
  switch (grpcCode(err)) {
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 'unavailable';
    case GrpcStatus.INVALID_ARGUMENT:
      return 'invalid';
    default:
      return 'other';
  }
}
