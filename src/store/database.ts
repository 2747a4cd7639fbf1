import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Tables } from './tables.js';

/**
 * The project's database (docs/operating/access-and-audit.md): PostgreSQL, reached by `DATABASE_URL`; the dev stack
 * serves an embedded one.
 */
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
  if (opts.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(opts.schema)) {
    throw new StoreError('a schema name is lower-case letters, digits and _');
  }
  if (opts.schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${opts.schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.maxConnections ?? 5,
    // Every name, the tables' and the functions' alike, resolves in the schema first.
    ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
  });
  // A connection that fails later (the server restarted) is dropped from the pool; queries report it themselves.
  pool.on('error', () => undefined);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  try {
    // Named, not left to the search path: the migrator looks for its tables by name in every schema it can see.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      migrationTableSchema: rows[0]?.schema ?? 'public',
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('a migration failed');
  } catch (err) {
    await db.destroy();
    throw new StoreError(`the database at DATABASE_URL could not be prepared: ${(err as Error).message}`);
  }
  return { db, close: () => db.destroy() };
}
