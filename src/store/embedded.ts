import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** The dev stack's database: PostgreSQL compiled to WebAssembly, in a folder, served on a local port. */
export interface EmbeddedDatabase {
  /** `postgres://…@127.0.0.1:<port>/postgres`: what DATABASE_URL is for the processes of the dev stack. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PGlite on `dataDir` and serves it over PostgreSQL's wire protocol on `port` (0: any free one), so the dev
 * stack, the CLI and the tests reach it with the same driver and SQL as a real PostgreSQL. Its data survives restarts.
 */
export async function startEmbeddedDatabase(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 20 });
  await server.start();
  const address = server.getServerConn();
  return {
    url: `postgres://postgres@${address}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
