import { setTimeout as sleep } from 'node:timers/promises';
import { postVerification, type IntakeAnswer, type IntakeEndpoint } from '../intake-http.js';
import { requestFor, type Version } from '../rows.js';

/**
 * A well-behaved intake caller: one new patient every `intervalMs`, each submitted until it is answered 2xx or 4xx.
 * A 503 is retried after its `Retry-After` (at most 5 s, 1 s without one), a request without an answer after 1 s.
 */
export class IntakeStream {
  readonly attempts: IntakeAnswer[] = [];
  readonly callerIds: string[] = [];
  private readonly callers: Promise<void>[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly intake: IntakeEndpoint,
    private readonly prefix: string,
    private readonly intervalMs: number,
    /** How long one patient is retried before the caller gives up on it. */
    private readonly giveUpMs: number,
  ) {}

  start(): void {
    this.loop = (async () => {
      for (let i = 0; !this.stopped && i < 1000; i += 1) {
        const callerId = `${this.prefix}-${i}`;
        this.callerIds.push(callerId);
        this.callers.push(this.submit(i % 2 === 0 ? 'v1' : 'v2', callerId));
        await sleep(this.intervalMs);
      }
    })();
  }

  /** Stops adding patients and waits for every caller to be answered or to give up. */
  async finish(): Promise<void> {
    this.stopped = true;
    await this.loop;
    await Promise.all(this.callers);
  }

  private async submit(version: Version, callerId: string): Promise<void> {
    const body = JSON.stringify(requestFor(version, callerId));
    const deadline = Date.now() + this.giveUpMs;
    while (Date.now() < deadline) {
      const answer = await postVerification(this.intake, body, 60_000);
      this.attempts.push(answer);
      if (answer.status >= 200 && answer.status < 500) return;
      await sleep(Math.min(5, answer.retryAfterSeconds ?? 1) * 1000);
    }
  }
}
