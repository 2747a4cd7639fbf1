import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import type { PostgresCluster } from '../../testing/postgres.js';

const execFileAsync = promisify(execFile);

/** The server's two databases and the schema (embedded in the SQL tool) each gets, as Temporal's own setup does it. */
export const TEMPORAL_DATABASES = [
  { database: 'temporal', schema: 'postgresql/v12/temporal' },
  { database: 'temporal_visibility', schema: 'postgresql/v12/visibility' },
] as const;

/** The SQL plugin of PostgreSQL 12 and later, for the SQL tool and the server alike. */
export const SQL_PLUGIN = 'postgres12';

export class SchemaSetupError extends Error {
  override name = 'SchemaSetupError';
}

/**
 * `temporal-sql-tool create-database`, `setup-schema -v 0.0` and `update-schema` to the newest version, for both
 * databases: what the admin-tools image runs before a `temporalio/server` container starts. Output to `logFile`.
 */
export async function setupSchema(sqlTool: string, pg: PostgresCluster, logFile: string): Promise<void> {
  const connection = ['--ep', '127.0.0.1', '-p', String(pg.port), '-u', pg.user];
  // The password in the environment (SQL_PASSWORD), not on a command line every user can read.
  const env = { ...process.env, SQL_PASSWORD: pg.password };
  for (const { database, schema } of TEMPORAL_DATABASES) {
    const steps = [['create-database'], ['setup-schema', '-v', '0.0'], ['update-schema', '--schema-name', schema]];
    for (const step of steps) {
      const args = ['--pl', SQL_PLUGIN, ...connection, '--db', database, ...step];
      try {
        const { stdout, stderr } = await execFileAsync(sqlTool, args, { env });
        await fs.appendFile(logFile, `$ temporal-sql-tool --db ${database} ${step.join(' ')}\n${stdout}${stderr}`);
      } catch (err) {
        const output = `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}`;
        await fs.appendFile(logFile, output);
        throw new SchemaSetupError(
          `temporal-sql-tool ${step[0]} of ${database} failed: ${output.trim().split('\n').slice(-3).join(' | ')}`,
        );
      }
    }
  }
}
