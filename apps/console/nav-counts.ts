import type { Client } from '@temporalio/client';
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { worklistCounts, type CountedList } from './reads/worklists.js';
import { operatorOf } from './session.js';

export type NavCounts = Partial<Record<CountedList, number>>;

/** What each request's navigation shows (set by the hook below, read by `sendPage`). */
const perRequest = new WeakMap<FastifyRequest, NavCounts>();

export const navCountsOf = (request: FastifyRequest): NavCounts | undefined => perRequest.get(request);

/**
 * Counts for the navigation of every page an operator opens, a form's answer page too (a refused answer is a page):
 * four visibility counts, kept 15 s per set of tenants so a busy team costs the server a few counts a minute. A count
 * that fails leaves the navigation without numbers: the page itself still opens.
 */
export function navCountsHook(client: Client, ttlMs = 15_000) {
  const cache = new LRUCache<string, NavCounts>({ max: 500, ttl: ttlMs });
  return async (request: FastifyRequest): Promise<void> => {
    if (request.url.startsWith('/assets/')) return;
    let tenants: readonly string[] | null;
    try {
      tenants = operatorOf(request).tenants;
    } catch {
      return; // not signed in: no navigation
    }
    const key = tenants === null ? '*' : [...tenants].sort().join(',');
    let counts = cache.get(key);
    if (!counts) {
      counts = await client
        .withDeadline(Date.now() + 3_000, () => worklistCounts(client, tenants))
        .catch(() => undefined);
      if (counts) cache.set(key, counts);
    }
    if (counts) perRequest.set(request, counts);
  };
}
