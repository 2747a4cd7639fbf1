import { randomBytes } from 'node:crypto';
import { createDataConverter } from '../src/codec/data-converter.js';
import { generateKey } from '../src/codec/keys.js';
import type { Config } from '../src/config.js';
import { connectClient, type TemporalClient } from '../src/temporal/client.js';

/** What differs between the stacks the fault suite, the batch bench and the production topology run. */
export interface StackEnvOptions {
  temporalAddress: string;
  sandboxPort: number;
  /** Names the run: the task queue is `<name>-<random>`, the codec key `<name>`. */
  name: string;
  /** `ELIGIBILITY_MAX_RPS`: the task queue's rate of service calls, the one limit a run means to bind. */
  maxRps: number;
  /** The sandbox's rate limit (per second and burst), set far above what the run drives unless it is the subject. */
  sandboxRate: number;
}

/**
 * The environment every process of a bench stack shares (worker, CLI, intake API, sandbox): the same Temporal, a task
 * queue of its own, one payload key made for the run, an intake key, and quick worker stops (a stack is thrown away).
 */
export function stackEnv(o: StackEnvOptions): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: `${o.name}-${randomBytes(3).toString('hex')}`,
    ELIGIBILITY_BASE_URL: `http://127.0.0.1:${o.sandboxPort}`,
    ELIGIBILITY_MAX_RPS: String(o.maxRps),
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: String(o.sandboxPort),
    SANDBOX_RATE_PER_SECOND: String(o.sandboxRate),
    SANDBOX_RATE_BURST: String(o.sandboxRate),
    CODEC_KEYS: generateKey(o.name),
    INTAKE_API_KEY: randomBytes(24).toString('base64url'),
    WORKER_SHUTDOWN_GRACE_SECONDS: '0',
    LOG_LEVEL: 'warn',
  };
}

/** A Temporal client of the stack, encrypting as its processes do. */
export async function connectStackClient(config: Config): Promise<TemporalClient> {
  return connectClient(config.temporal, { dataConverter: await createDataConverter(config.codec) });
}
