import type { Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { LRUCache } from 'lru-cache';
import type { Store } from '../../src/store/database.js';

/** Most sessions kept at once; past it the least recently used go first. */
export const MAX_SESSIONS = 10_000;

/**
 * A store that keeps a session only once someone has signed in to it: a visitor who has not is no row (nor memory)
 * of anyone's, however many come (a crawler, a scan). Their session is its signed cookie alone: an id this store has
 * nothing under is an empty session under that same id (the cookie's signature shows this console issued it), so the
 * CSRF secret derived from the id (`session.ts`) holds from the sign-in form to its post.
 */
export function signedInOnly(store: SessionStore): SessionStore {
  return {
    set(sessionId, session, callback) {
      if (session.operator === undefined) callback();
      else store.set(sessionId, session, callback);
    },
    get(sessionId, callback) {
      store.get(sessionId, (err, session) => callback(err, err ? null : (session ?? ({} as Session))));
    },
    destroy: (sessionId, callback) => store.destroy(sessionId, callback),
  };
}

/** The console's sessions in this process's memory, bounded in number and in age (MemoryStore keeps every one). */
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

/** Every this many writes, sessions past their time are deleted (a read never returns one anyway). */
const SWEEP_EVERY = 200;

/**
 * The console's sessions in the project's database (DATABASE_URL), so that several console processes behind one load
 * balancer share them and a restart signs nobody out. A session idle for `idleMs` is gone.
 */
export function databaseSessionStore(store: Store, idleMs: number): SessionStore {
  let writes = 0;
  const { db } = store;
  /** A store callback from a promise: called once, with the error if it failed. */
  const settle = (work: Promise<unknown>, callback: (err?: unknown) => void) =>
    void work.then(
      () => callback(),
      (err: unknown) => callback(err),
    );
  return {
    set(sessionId, session, callback) {
      const data = JSON.stringify(session);
      const expiresAt = new Date(Date.now() + idleMs);
      const sweep = ++writes % SWEEP_EVERY === 0;
      const work = (async () => {
        await db
          .insertInto('console_sessions')
          .values({ id: sessionId, data, expires_at: expiresAt })
          .onConflict((c) => c.column('id').doUpdateSet({ data, expires_at: expiresAt }))
          .execute();
        if (sweep) await db.deleteFrom('console_sessions').where('expires_at', '<', new Date()).execute();
      })();
      settle(work, callback);
    },
    get(sessionId, callback) {
      void db
        .selectFrom('console_sessions')
        .select('data')
        .where('id', '=', sessionId)
        .where('expires_at', '>', new Date())
        .executeTakeFirst()
        .then(
          (row) => callback(null, (row?.data as Session | undefined) ?? null),
          (err: unknown) => callback(err, null),
        );
    },
    destroy(sessionId, callback) {
      settle(db.deleteFrom('console_sessions').where('id', '=', sessionId).execute(), callback);
    },
  };
}
