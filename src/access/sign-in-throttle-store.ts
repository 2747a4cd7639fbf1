import type { Store } from '../store/database.js';
import {
  afterFailure,
  expiresAt,
  type ThrottleRule,
  type ThrottleState,
  type ThrottleStore,
} from './sign-in-throttle.js';

/** The table of migration 0009: one row per key, deleted once it is worth nothing. */
type SignInThrottleTable = {
  sign_in_throttle: {
    key: string;
    failures: number;
    window_start: Date;
    blocks: number;
    blocked_until: Date;
    expires_at: Date;
  };
};

/**
 * Failed sign-ins kept in the project's database, so that every console process (and every intake API process)
 * counts the same failures and refuses the same blocked keys. A failure is one short transaction holding its key's row.
 */
export class DatabaseThrottleStore implements ThrottleStore {
  private readonly db;

  constructor(store: Store) {
    this.db = store.db.withTables<SignInThrottleTable>();
  }

  async blockedUntil(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const rows = await this.db
      .selectFrom('sign_in_throttle')
      .select('blocked_until')
      .where('key', 'in', [...keys])
      .execute();
    return Math.max(0, ...rows.map((r) => new Date(r.blocked_until).getTime()));
  }

  async fail(key: string, rule: ThrottleRule, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Made when missing, else held (a no-op update locks it), so that processes counting together wait on one row.
      const empty = { failures: 0, window_start: new Date(now), blocks: 0, blocked_until: new Date(0) };
      const row = await trx
        .insertInto('sign_in_throttle')
        .values({ key, ...empty, expires_at: new Date(0) })
        .onConflict((c) => c.column('key').doUpdateSet((eb) => ({ key: eb.ref('excluded.key') })))
        .returningAll()
        .executeTakeFirstOrThrow();
      const previous: ThrottleState | undefined =
        row.failures === 0
          ? undefined
          : {
              failures: row.failures,
              windowStart: new Date(row.window_start).getTime(),
              blocks: row.blocks,
              blockedUntil: new Date(row.blocked_until).getTime(),
            };
      const next = afterFailure(previous, rule, now);
      await trx
        .updateTable('sign_in_throttle')
        .set({
          failures: next.failures,
          window_start: new Date(next.windowStart),
          blocks: next.blocks,
          blocked_until: new Date(next.blockedUntil),
          expires_at: new Date(expiresAt(next, rule)),
        })
        .where('key', '=', key)
        .execute();
    });
    // Rows of keys nobody tried for a while: an attacker's many names or addresses do not pile up.
    await this.db.deleteFrom('sign_in_throttle').where('expires_at', '<', new Date(now)).execute();
  }

  async forget(key: string): Promise<void> {
    await this.db.deleteFrom('sign_in_throttle').where('key', '=', key).execute();
  }
}
