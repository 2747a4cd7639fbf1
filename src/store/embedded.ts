import { chmod, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** The dev stack's database: PostgreSQL compiled to WebAssembly, in a folder, served on a local port. */
export interface EmbeddedDatabase {
  /** `postgres://…@127.0.0.1:<port>/postgres`: what DATABASE_URL is for the processes of the dev stack. */
  url: string;
  stop(): Promise<void>;
}

/**
 * The folder and everything in it for this user alone: folders 0700, files 0600. PGlite creates its files 0666
 * whatever the umask, so they are set after it has written them; the folder's 0700 already keeps others out between.
 */
export async function ownerOnly(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) await ownerOnly(at);
    else if (entry.isFile()) await chmod(at, 0o600);
  }
}

/**
 * Starts PGlite on `dataDir` and serves it over PostgreSQL's wire protocol on `port` (0: any free one), so the dev
 * stack, the CLI and the tests reach it with the same driver and SQL as a real PostgreSQL. Its data survives restarts;
 * its files are the user's alone (the audit trail and operators' password hashes are in them).
 */
export async function startEmbeddedDatabase(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  const db = await PGlite.create(dataDir);
  await ownerOnly(dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 20 });
  await server.start();
  const address = server.getServerConn();
  return {
    url: `postgres://postgres@${address}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
      await ownerOnly(dataDir);
    },
  };
}
