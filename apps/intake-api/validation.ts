import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLAIN } from '../../src/contract/issue-words.js';
import { strictly } from '../../src/contract/strict.js';
import { invalidRequestBody } from './schemas.js';

/**
 * The intake API's validator: strict by default. Every body, query string and path of every route refuses a field
 * it does not know, at any depth (400 naming it); headers are left open, since proxies add their own.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler({
    ...route,
    schema: route.httpPart === 'headers' ? plainly(route.schema) : strictly(route.schema),
  });

/** `schema` with its issues in plain words (`PLAIN`), as `strictly` words a body's. */
function plainly(schema: z.ZodType): z.ZodType {
  return z.unknown().transform((input, ctx) => {
    const parsed = schema.safeParse(input, PLAIN);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
}

/** For a route that also takes files: an uploaded file (a Buffer) passes to its handler, JSON is validated. */
export const jsonOrFileValidatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  // Fastify hands a route's compiler one part's schema at a time, though it types it as the route's whole schema.
  const validate = strictValidatorCompiler({ ...route, schema: route.schema as z.ZodType });
  return (data) => (Buffer.isBuffer(data) ? { value: data } : validate(data));
};

/**
 * Strictness for the parts a route declares nothing for: a query parameter, or a field of a JSON body, sent to a route
 * that takes none is refused by name too (400), instead of being ignored. Routes outside the API (the document, its
 * reference page, probes: hidden or open to all) take what browsers and scrapers send.
 */
export function refuseUndeclared(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const declared = request.routeOptions.schema as
    { querystring?: unknown; body?: unknown; hide?: boolean; security?: unknown[] } | undefined;
  const outside = request.routeOptions.url === undefined || declared?.hide === true || declared?.security?.length === 0;
  if (outside) return done();
  const query = request.query as Record<string, unknown> | undefined;
  const body = request.body;
  const unknownQuery = declared?.querystring === undefined ? Object.keys(query ?? {})[0] : undefined;
  const unknownField =
    declared?.body === undefined && body !== null && typeof body === 'object' && !Buffer.isBuffer(body)
      ? Object.keys(body)[0]
      : undefined;
  const param = unknownQuery ?? unknownField;
  if (param === undefined) return done();
  void reply.code(400).send(invalidRequestBody(param, 'unknown field'));
}
