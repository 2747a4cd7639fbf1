import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How one process of the topology is started; every start of it uses the same. */
export interface ProcessSpec {
  /** Its name in logs and errors, e.g. `history` or `worker-1`; also its log file's name. */
  name: string;
  command: string;
  args: readonly string[];
  /** Added to the environment this process inherits (a container's variables on top of its image's). */
  env: Record<string, string>;
  cwd?: string;
  /** Run as this user (PostgreSQL refuses root). */
  user?: { uid: number; gid: number };
  /** Resolves once it serves; rejects to say why not. Called repeatedly after every start until it resolves. */
  ready: (process: SupervisedProcess) => Promise<void>;
  /** How long `start()` waits for it to be ready. */
  readyTimeoutMs?: number;
  /** The process a `kill -9` aims at, when it is not the spawned one (the worker restarts itself as a child). */
  killTarget?: (pid: number) => number | undefined;
}

export class ComponentStartError extends Error {
  override name = 'ComponentStartError';
  constructor(
    readonly component: string,
    message: string,
    readonly logFile: string,
  ) {
    super(`${component} did not start: ${message} (its log: ${logFile})`);
  }
}

/** One start of the process, as the supervisor saw it. */
export interface ProcessStart {
  startedAt: number;
  readyAt?: number;
  exitedAt?: number;
  /** Whether the supervisor started it again on its own (after a crash or a kill). */
  restartedBySupervisor: boolean;
  /** Why it cannot start, when that is certain before the timeout (it could not be run, or it exited first). */
  failure?: string;
}

/** After an unexpected exit, the supervisor waits this long before starting the process again (like a restart policy). */
const RESTART_DELAY_MS = 1000;

/**
 * A process of the topology under a supervisor, as an orchestrator runs a container with `restart: unless-stopped`:
 * its output appended to `<logDir>/<name>.log`, started again whenever it exits without being asked to stop, and
 * stoppable for good. `kill9()` is the fault an operator cannot prevent; the supervisor is what recovers from it.
 */
export class SupervisedProcess {
  readonly logFile: string;
  readonly starts: ProcessStart[] = [];
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private log: WriteStream;
  private stopped = false;
  /** The last 64 kB the current start printed (readiness checks look for a line in it). */
  private recent = '';
  /** Why the last readiness check failed, to explain a start that timed out. */
  private lastNotReady: string | undefined;

  constructor(
    readonly spec: ProcessSpec,
    logDir: string,
  ) {
    this.logFile = path.join(logDir, `${spec.name}.log`);
    this.log = createWriteStream(this.logFile, { flags: 'a' });
  }

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** What the current start printed lately. */
  output(): string {
    return this.recent;
  }

  running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Restarts the supervisor made on its own. */
  get restarts(): number {
    return this.starts.filter((s) => s.restartedBySupervisor).length;
  }

  /** Starts it and resolves once it is ready; rejects with a `ComponentStartError` naming it. */
  async start(): Promise<void> {
    this.stopped = false;
    this.spawnOnce(false);
    await this.waitReady(this.spec.readyTimeoutMs ?? 60_000);
  }

  /** Resolves with the time the current start became ready, waiting through a restart; rejects after `timeoutMs`. */
  async waitReady(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = this.starts.at(-1);
      if (current?.readyAt !== undefined && this.running()) return current.readyAt;
      if (this.stopped) throw new ComponentStartError(this.name, 'exited', this.logFile);
      if (current?.failure) throw new ComponentStartError(this.name, current.failure, this.logFile);
      if (Date.now() > deadline) {
        const why = this.lastNotReady ? `: ${this.lastNotReady}` : '';
        throw new ComponentStartError(this.name, `not ready within ${timeoutMs / 1000} s${why}`, this.logFile);
      }
      await sleep(100);
    }
  }

  private spawnOnce(restartedBySupervisor: boolean): void {
    const { spec } = this;
    const start: ProcessStart = { startedAt: Date.now(), restartedBySupervisor };
    this.starts.push(start);
    this.log.write(`\n=== ${new Date().toISOString()} start ${this.starts.length} of ${spec.name}: ${spec.command}\n`);
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(spec.user ? { uid: spec.user.uid, gid: spec.user.gid } : {}),
    });
    this.child = child;
    this.recent = '';
    const keep = (chunk: Buffer) => {
      if (this.child === child) this.recent = (this.recent + chunk.toString()).slice(-65_536);
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream.pipe(this.log, { end: false });
      stream.on('data', keep);
    }
    child.once('error', (err) => (start.failure = `cannot run ${spec.command}: ${err.message}`));
    this.exited = new Promise<void>((resolve) =>
      child.once('close', (code, signal) => {
        start.exitedAt = Date.now();
        this.log.write(`=== ${new Date().toISOString()} ${spec.name} exited (${signal ?? `code ${code}`})\n`);
        resolve();
        if (this.stopped || this.child !== child) return;
        if (start.readyAt === undefined && !restartedBySupervisor) {
          // It never served: a configuration error, which a restart would only repeat.
          start.failure = `exited (${signal ?? `code ${code}`}) before it was ready`;
          return;
        }
        // Started again from a timer: the exit may come from inside a kill the caller still awaits.
        setTimeout(() => {
          if (!this.stopped && this.child === child) this.spawnOnce(true);
        }, RESTART_DELAY_MS);
      }),
    );
    // Readiness is observed until the process serves or exits; `waitReady` decides how long to wait for it.
    void (async () => {
      while (this.child === child && child.exitCode === null && child.signalCode === null && !start.failure) {
        try {
          await spec.ready(this);
          start.readyAt = Date.now();
          return;
        } catch (err) {
          this.lastNotReady = (err as Error).message.split('\n')[0];
        }
        await sleep(250);
      }
    })();
  }

  /** SIGKILL, no warning: the supervisor starts it again after its restart delay. Resolves once it has exited. */
  async kill9(): Promise<number | undefined> {
    const child = this.child;
    if (!child?.pid || !this.running()) return undefined;
    const target = this.spec.killTarget?.(child.pid) ?? child.pid;
    process.kill(target, 'SIGKILL');
    await this.exited;
    return target;
  }

  /** A graceful stop for good: `signal`, then SIGKILL after `graceMs`. The supervisor does not restart it. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    this.stopped = true;
    const child = this.child;
    if (child && this.running()) {
      child.kill(signal);
      const exited = await Promise.race([this.exited.then(() => true), sleep(graceMs).then(() => false)]);
      if (!exited) {
        child.kill('SIGKILL');
        await this.exited;
      }
    }
  }

  /** Stops it (as `stop`) and starts it again: a restart an operator asks for, after `downMs` stopped. */
  async restart(signal: NodeJS.Signals, downMs: number): Promise<void> {
    await this.stop(signal);
    await sleep(downMs);
    await this.start();
  }

  async closeLog(): Promise<void> {
    await new Promise<void>((resolve) => this.log.end(resolve));
  }
}
