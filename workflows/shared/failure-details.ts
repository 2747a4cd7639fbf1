/**
 * What the project's failures carry in `details[0]`, read only here: the field at fault (`param`, put there by
 * `invalidRequest` and by the activities' InvalidRequest) and the wait a refusal asks for (`retryDelayMs`). It has no
 * imports, so workflow code, the intake API and the CLI all read failures through it.
 */
export interface FailureDetails {
  param?: string;
  retryDelayMs?: number;
}

/** The details of an `ApplicationFailure` (of the workflow SDK or the client's: only `details` is read). */
export function failureDetails(failure: { details?: readonly unknown[] | null }): FailureDetails {
  const first: unknown = failure.details?.[0];
  if (typeof first !== 'object' || first === null) return {};
  const { param, retryDelayMs } = first as Record<string, unknown>;
  return {
    ...(typeof param === 'string' ? { param } : {}),
    ...(typeof retryDelayMs === 'number' ? { retryDelayMs } : {}),
  };
}
