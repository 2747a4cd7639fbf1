import path from 'node:path';
import { freePort } from '../../src/free-port.js';
import { startDevServer, type DevServer } from '../../apps/dev/temporal-dev-server.js';

/**
 * A Temporal dev server whose state lives in a SQLite file, so it can be stopped and started again on the same port
 * with every workflow still there: a Temporal restart as an operator would do one.
 */
export class RestartableTemporal {
  private server: DevServer | undefined;

  private constructor(
    private readonly cliPath: string,
    readonly port: number,
    readonly dbFile: string,
  ) {}

  static async start(cliPath: string, dataDir: string): Promise<RestartableTemporal> {
    const temporal = new RestartableTemporal(cliPath, await freePort(), path.join(dataDir, 'temporal.db'));
    await temporal.up();
    return temporal;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Starts the server and resolves once it answers. */
  async up(): Promise<void> {
    this.server = await startDevServer({
      cliPath: this.cliPath,
      port: this.port,
      dbFile: this.dbFile,
      startTimeoutMs: 90_000,
      // Writes reach the OS without waiting for the disk: a stopped or killed server loses nothing (only a machine
      // crash would), and 10,000 workflow starts fit in the suite's few minutes on a small machine.
      extraArgs: ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=off'],
    });
  }

  async down(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }
}
