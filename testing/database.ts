import { randomUUID } from 'node:crypto';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres.js';
import { openStore, type Store } from '../src/store/database.js';

/** The run's PostgreSQL, for every test process (mocha runs files in parallel). */
const URL_VARIABLE = 'ELIGIBILITY_TEST_DATABASE_URL';

let server: ThrowawayPostgres | undefined;

/**
 * Once per run: a real PostgreSQL (Debian's package), as production runs. Missing, it fails the run saying how to
 * install it (`scripts/ensure-postgres.sh`); no test is skipped.
 */
export async function startTestDatabase(): Promise<void> {
  if (process.env[URL_VARIABLE]) return;
  server = await startThrowawayPostgres();
  process.env[URL_VARIABLE] = server.url;
}

export async function stopTestDatabase(): Promise<void> {
  await server?.stop();
  server = undefined;
}

export function testDatabaseUrl(): string {
  const url = process.env[URL_VARIABLE];
  if (!url) throw new Error(`${URL_VARIABLE} is not set: the root hooks start the test database`);
  return url;
}

/** A store of this suite's own: its tables in a fresh schema of the run's database. */
export function testStore(): Promise<Store> {
  return openStore(testDatabaseUrl(), { schema: `test_${randomUUID().replaceAll('-', '')}`, maxConnections: 3 });
}
