import type { Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { LRUCache } from 'lru-cache';

/** Most sessions kept at once; past it the least recently used go first (a sign-in page visited by a crawler). */
export const MAX_SESSIONS = 10_000;

/**
 * The console's sessions in this process's memory, bounded in number and in age. @fastify/session's own MemoryStore
 * keeps every session it ever saw, and every visit to the sign-in form makes one (it holds the form's CSRF secret).
 */
export function boundedSessionStore(idleMs: number): SessionStore {
  const sessions = new LRUCache<string, Session>({ max: MAX_SESSIONS, ttl: idleMs, updateAgeOnGet: true });
  return {
    set(sessionId, session, callback) {
      sessions.set(sessionId, session);
      callback();
    },
    get(sessionId, callback) {
      callback(null, sessions.get(sessionId) ?? null);
    },
    destroy(sessionId, callback) {
      sessions.delete(sessionId);
      callback();
    },
  };
}
