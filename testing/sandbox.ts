import {
  AccessToken,
  Discovery,
  FaultSettings,
  RateLimitSettings,
  SandboxRunList,
  SandboxStats,
  type FaultUpdate,
  type RateLimitUpdate,
  type SandboxDiscoveryRequest,
  type SandboxRun,
} from '../src/contract/index.js';
import { loadSandboxConfig, type SandboxConfig } from '../sandbox/config.js';
import { createSandbox, type Stats } from '../sandbox/server.js';

/** Configuration changes for one suite's sandbox; `faults` is merged field by field into the configured faults. */
export type TestSandboxOverrides = Partial<Omit<SandboxConfig, 'faults'>> & {
  faults?: Partial<SandboxConfig['faults']>;
  /** The chances the faults draw (default `Math.random`). */
  random?: () => number;
};

/** A sandbox on a free port of 127.0.0.1, driven over HTTP like any client would. */
export interface TestSandbox {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  config: SandboxConfig;
  stats(): Promise<Stats>;
  setFaults(faults: FaultUpdate): Promise<void>;
  /** Moves the sandbox's rate limit from the next call on (`POST /sandbox/rate-limit`). */
  setRateLimit(limit: RateLimitUpdate): Promise<RateLimitSettings>;
  /** Seed data back, faults from config, stats zeroed, every token invalidated. */
  reset(): Promise<void>;
  close(): Promise<void>;
  /** A fresh access token for the configured client credentials. */
  token(): Promise<string>;
  /** Invalidates every issued token (to test a client's refresh). */
  revokeTokens(): Promise<void>;
  /** Runs (optionally of one verification): how a test learns a `flowRunId` without webhooks. */
  runs(verificationId?: string): Promise<SandboxRun[]>;
  createDiscovery(body: SandboxDiscoveryRequest): Promise<Discovery>;
  completeDiscovery(discoveryId: string, successful?: boolean): Promise<Discovery>;
}

export async function startTestSandbox(overrides: TestSandboxOverrides = {}): Promise<TestSandbox> {
  const base = loadSandboxConfig({});
  const { faults, random, ...rest } = overrides;
  const config: SandboxConfig = { ...base, host: '127.0.0.1', port: 0, ...rest, faults: { ...base.faults, ...faults } };
  const sandbox = await createSandbox(config, random ? { random } : {});
  const url = (await sandbox.listen()).replace(/\/$/, '');

  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  }

  return {
    url,
    config,
    stats: async () => SandboxStats.parse(await call('GET', '/sandbox/stats')),
    setFaults: async (f) => {
      FaultSettings.parse(await call('POST', '/sandbox/faults', f));
    },
    setRateLimit: async (limit) => RateLimitSettings.parse(await call('POST', '/sandbox/rate-limit', limit)),
    reset: async () => {
      await call('POST', '/sandbox/reset');
    },
    close: () => sandbox.close(),
    token: async () =>
      AccessToken.parse(
        await call('POST', '/oauth/token', { client_id: config.clientId, client_secret: config.clientSecret }),
      ).access_token,
    revokeTokens: async () => {
      await call('POST', '/sandbox/tokens/revoke');
    },
    runs: async (verificationId) =>
      SandboxRunList.parse(
        await call(
          'GET',
          `/sandbox/runs${verificationId === undefined ? '' : `?verificationId=${encodeURIComponent(verificationId)}`}`,
        ),
      ),
    createDiscovery: async (body) => Discovery.parse(await call('POST', '/sandbox/discoveries', body)),
    completeDiscovery: async (discoveryId, successful) =>
      Discovery.parse(
        await call(
          'POST',
          `/sandbox/discoveries/${encodeURIComponent(discoveryId)}/complete`,
          successful === undefined ? {} : { successful },
        ),
      ),
  };
}

/** The made-up patient of the tests' discoveries (the sandbox matches discoveries on these fields). */
export const DISCOVERY_PATIENT = {
  firstName: 'Grace',
  lastName: 'Hopper',
  dateOfBirth: '12/09/1976',
  state: 'NY',
} satisfies Partial<SandboxDiscoveryRequest>;

/** A discovery that stays pending until a test completes it (`delayMs: -1`): its verifications wait for it. */
export function pendingDiscovery(sandbox: Pick<TestSandbox, 'createDiscovery'>): Promise<Discovery> {
  return sandbox.createDiscovery({ ...DISCOVERY_PATIENT, delayMs: -1 });
}
