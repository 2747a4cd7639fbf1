import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { strictly } from '../../src/contract/strict.js';

/**
 * The intake API's validator: strict by default. Every body, query string and path of every route refuses a field
 * it does not know, at any depth (400 naming it); headers are left open, since proxies add their own.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler(route.httpPart === 'headers' ? route : { ...route, schema: strictly(route.schema) });

/** For a route that also takes files: an uploaded file (a Buffer) passes to its handler, JSON is validated. */
export const jsonOrFileValidatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  // Fastify hands a route's compiler one part's schema at a time, though it types it as the route's whole schema.
  const validate = strictValidatorCompiler({ ...route, schema: route.schema as z.ZodType });
  return (data) => (Buffer.isBuffer(data) ? { value: data } : validate(data));
};
