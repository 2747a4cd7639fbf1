import { setTimeout as sleep } from 'node:timers/promises';
import { startWorkerProcess, type WorkerProcess } from '../../testing/worker-process.js';

const READY_TIMEOUT_MS = 120_000;

/**
 * The `eligibility worker` as a child process, as a deployment runs it, so a scenario can SIGKILL it mid-call: no
 * drain, no goodbye to the server, activities in flight abandoned. Restarting bundles the workflows again (seconds).
 */
export class WorkerChild {
  private current: WorkerProcess | undefined;
  /** Every exit the suite did not ask for, e.g. a crash while Temporal was down. */
  unexpectedExits = 0;
  private stopping = false;

  constructor(private readonly env: Record<string, string>) {}

  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  running(): boolean {
    const child = this.current?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Starts it and waits until it polls its task queue; resolves to how long that took. */
  async start(): Promise<number> {
    const startedAt = Date.now();
    const worker = startWorkerProcess(this.env);
    this.current = worker;
    this.stopping = false;
    void worker.exited.then(() => {
      if (!this.stopping && this.current === worker) this.unexpectedExits += 1;
    });
    const timer = new AbortController();
    const timeout = sleep(READY_TIMEOUT_MS, undefined, { signal: timer.signal }).then(() => {
      throw new Error(`the worker did not poll within ${READY_TIMEOUT_MS} ms:\n${worker.output().slice(-2000)}`);
    });
    try {
      await Promise.race([worker.ready, timeout]);
    } finally {
      timer.abort();
    }
    return Date.now() - startedAt;
  }

  /**
   * SIGKILL to the process that runs the workflows and activities (the one `eligibility worker` restarted itself as):
   * it ends at once, whatever it was doing, and its launcher exits after it. Killing only the launcher would not do:
   * the worker would see it gone and drain gracefully.
   */
  async kill(): Promise<void> {
    const worker = this.current;
    if (!worker || !this.running()) return;
    this.stopping = true;
    const pid = worker.worker();
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
    else worker.child.kill('SIGKILL');
    await worker.exited;
  }

  /** Starts it again when it is not running (after a crash); true if it had to. */
  async ensureRunning(): Promise<boolean> {
    if (this.running()) return false;
    await this.start();
    return true;
  }

  /** A graceful stop (SIGTERM), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    const worker = this.current;
    if (!worker || !this.running()) return;
    this.stopping = true;
    worker.child.kill('SIGTERM');
    const exited = await Promise.race([worker.exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!exited) await this.kill();
  }

  output(): string {
    return this.current?.output() ?? '';
  }
}
