import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Tables } from './tables.js';

/** The project's database (DESIGN §13): PostgreSQL, reached by `DATABASE_URL`; the dev stack serves an embedded one. */
export interface Store {
  db: Kysely<Tables>;
  close(): Promise<void>;
}

export class StoreError extends Error {
  override name = 'StoreError';
}

/**
 * Connects to `url` and brings its schema to the newest migration (Kysely's migrator takes a lock, so processes that
 * start together migrate once). `schema` puts the tables in a schema of their own (tests: one per suite).
 */
export async function openStore(url: string, opts: { schema?: string; maxConnections?: number } = {}): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: opts.maxConnections ?? 5 });
  // A connection that fails later (the server restarted) is dropped from the pool; queries report it themselves.
  pool.on('error', () => undefined);
  const root = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const db = opts.schema ? root.withSchema(opts.schema) : root;
  try {
    if (opts.schema) await root.schema.createSchema(opts.schema).ifNotExists().execute();
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      ...(opts.schema ? { migrationTableSchema: opts.schema } : {}),
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('a migration failed');
  } catch (err) {
    await root.destroy();
    throw new StoreError(`the database at DATABASE_URL could not be prepared: ${(err as Error).message}`);
  }
  return { db, close: () => root.destroy() };
}
