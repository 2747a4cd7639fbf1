import { z } from 'zod';

export const INVALID_REQUEST = 'invalid_request_error';
export const TOO_MANY_REQUESTS = 'Too many requests';

/** `{error: invalid_request_error}`: the one enumerated error value, on failures of every endpoint. */
export const InvalidRequestBody = z.object({ error: z.literal(INVALID_REQUEST) });
/** `{error, param?}`: where the spec makes `param` optional (`PUT /v1/runs/{flowRunId}`). */
export const InvalidRequestOptionalParamBody = InvalidRequestBody.extend({ param: z.string().optional() });
/** `{error, param}`: the field named in `param` is invalid (a dotted path for nested fields). */
export const InvalidParamBody = InvalidRequestBody.extend({ param: z.string() });
/**
 * `{error, param, id}`: v2 verification creation echoes the caller's identifier. A request without a string `id`
 * has nothing to echo, so the sandbox omits it (the spec shows only the case with an id).
 */
export const InvalidVerificationBody = InvalidParamBody.extend({ id: z.string().optional() });
/** `{error: "Too many requests"}`: the rate limit was exceeded. */
export const TooManyRequestsBody = z.object({ error: z.literal(TOO_MANY_REQUESTS) });

/** Any error body of the service, as a receiver reads it: `error` with `param` and `id` when given. */
export const ErrorBody = z.object({ error: z.string(), param: z.string().optional(), id: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The `param` the service names for a validation failure: the dotted path of the first offending field. */
export function firstInvalidParam(error: z.ZodError): string {
  const issue = error.issues[0];
  // A strict object reports unknown keys at the object's own path; the offending field is the first key.
  const path = issue?.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys.slice(0, 1)] : (issue?.path ?? []);
  return path.length === 0 ? 'body' : path.map(String).join('.');
}
