import { createHash, timingSafeEqual } from 'node:crypto';
import type { onRequestHookHandler } from 'fastify';

export const API_KEY_HEADER = 'x-api-key';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Requires `x-api-key` on every route but the `open` ones; compared in constant time whatever the lengths. */
export function apiKeyGuard(apiKey: string, open: readonly string[]): onRequestHookHandler {
  const expected = digest(apiKey);
  return (request, reply, done) => {
    if (request.routeOptions.url !== undefined && open.includes(request.routeOptions.url)) return done();
    const given = request.headers[API_KEY_HEADER];
    if (typeof given === 'string' && timingSafeEqual(digest(given), expected)) return done();
    void reply.code(401).send({ error: 'unauthorized', message: `missing or wrong ${API_KEY_HEADER}` });
  };
}
