import type { SandboxConfig } from './config.js';
import type { VerificationResponseV2 } from '../src/contract/index.js';
import type { DiscoveryLifecycle } from './discoveries.js';
import type { Faults } from './faults.js';
import type { IdempotencyStore } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';
import type { SandboxState } from './state.js';
import type { StatsRecorder } from './stats.js';
import type { TokenIssuer } from './tokens.js';
import type { WebhookDispatcher } from './webhooks.js';

/** The parts of one sandbox, handed to every route file. */
export interface SandboxContext {
  config: SandboxConfig;
  state: SandboxState;
  tokens: TokenIssuer;
  limiter: RateLimiter;
  idempotency: IdempotencyStore<VerificationResponseV2>;
  faults: Faults;
  stats: StatsRecorder;
  webhooks: WebhookDispatcher;
  discoveries: DiscoveryLifecycle;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The client id of the bearer token, set by the service guard. */
    clientId: string;
  }
}
