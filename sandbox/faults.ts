import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultSettings, FaultUpdate } from '../src/contract/index.js';

/** Fault injection: starts from configuration (`SANDBOX_FAULT_*`), changed at run time by `POST /sandbox/faults`. */
export class Faults {
  private current: FaultSettings;

  constructor(
    private readonly initial: FaultSettings,
    private readonly random: () => number = Math.random,
  ) {
    this.current = { ...initial };
  }

  get settings(): FaultSettings {
    return { ...this.current };
  }

  update(patch: FaultUpdate): FaultSettings {
    this.current = { ...this.current, ...patch };
    return this.settings;
  }

  reset(): void {
    this.current = { ...this.initial };
  }

  async delay(): Promise<void> {
    if (this.current.latencyMs > 0) await sleep(this.current.latencyMs);
  }

  /** The status of an error to answer instead of processing the call, if one is injected. */
  injectedError(): 500 | 429 | undefined {
    if (this.current.error500Rate > 0 && this.random() < this.current.error500Rate) return 500;
    if (this.current.error429Rate > 0 && this.random() < this.current.error429Rate) return 429;
    return undefined;
  }

  /** True (and one less to drop) when the response about to be sent must be dropped. */
  takeDrop(): boolean {
    if (this.current.dropResponses <= 0) return false;
    this.current.dropResponses -= 1;
    return true;
  }

  chance(rate: 'webhookDuplicateRate' | 'webhookDropRate'): boolean {
    return this.current[rate] > 0 && this.random() < this.current[rate];
  }
}
