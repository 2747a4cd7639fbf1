/**
 * `npm run client-cpu [-- --rounds 10] [--per-round 400] [--concurrency 8]`: the CPU of the service calls a v2
 * verification makes on its happy path (a payer lookup and the creation; the token once per client, as a worker
 * does) through `EligibilityClient` on ky, beside a naive peer making the same calls, with the same contract checks,
 * through undici's `request`. Both run in this process in alternating rounds, so they see the same machine; the
 * sandbox runs in a child process, so its CPU is not counted. Each round starts after a full GC (not counted) and
 * ends with a scavenge (counted), so a side pays for its own garbage.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig, type ServiceConfig } from '../../src/config.js';
import { AccessToken, Payer, VerificationRequestV2, VerificationResponseV2 } from '../../src/contract/index.js';
import { v2Request } from '../../testing/fixtures.js';
import { startTestSandbox } from '../../testing/sandbox.js';
import { forEachLimited, numberArg } from '../bench-stack.js';

const ROUNDS = numberArg('rounds', 10);
const PER_ROUND = numberArg('per-round', 400);
const CONCURRENCY = numberArg('concurrency', 8);

/** A verification's service calls: look the payer up, create the verification. */
type Verify = (body: VerificationRequestV2, idempotencyKey: string) => Promise<void>;

interface Side {
  name: string;
  make(service: ServiceConfig): Verify;
}

const onKy: Side = {
  name: 'EligibilityClient on ky',
  make(service) {
    const client = new EligibilityClient(service);
    return async (body, idempotencyKey) => {
      await client.getPayer(body.payerId);
      await client.createVerificationV2(body, { idempotencyKey });
    };
  },
};

/** The same calls by hand: undici's `request`, a timeout signal per call, the contract checked both ways. */
const onUndici: Side = {
  name: "naive peer on undici's request",
  make(service) {
    const base = service.baseUrl.replace(/\/+$/, '');
    let token: Promise<string> | undefined;
    async function call(method: 'GET' | 'POST', path: string, json?: unknown, extra: Record<string, string> = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...extra };
      if (json !== undefined) headers['content-type'] = 'application/json';
      if (path !== 'oauth/token') headers.authorization = `Bearer ${await (token ??= fetchToken())}`;
      const response = await request(`${base}/${path}`, {
        method,
        headers,
        body: json === undefined ? undefined : JSON.stringify(json),
        signal: AbortSignal.timeout(service.timeoutMs),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300) throw new Error(`${method} /${path}: ${response.statusCode}`);
      return JSON.parse(text) as unknown;
    }
    async function fetchToken(): Promise<string> {
      const credentials = { client_id: service.clientId, client_secret: service.clientSecret };
      return AccessToken.parse(await call('POST', 'oauth/token', credentials)).access_token;
    }
    return async (body, idempotencyKey) => {
      Payer.parse(await call('GET', `v1/payers/${encodeURIComponent(body.payerId)}`));
      const json = VerificationRequestV2.parse(body);
      const headers = { [service.idempotencyHeader]: idempotencyKey };
      VerificationResponseV2.parse(await call('POST', 'v2/verifications', json, headers));
    };
  },
};

type Gc = (options?: { type: 'minor' | 'major' }) => void;
const gc: Gc = (globalThis as { gc?: Gc }).gc ?? (() => undefined);

/** One round of one side on a fresh client: µs of this process's CPU (user + system) per verification. */
async function round(side: Side, service: ServiceConfig, tag: string): Promise<number> {
  const work = Array.from({ length: PER_ROUND }, (_, i) => ({
    body: v2Request({ id: `cpu-${tag}-${i}` }),
    key: randomUUID(),
  }));
  const verify = side.make(service);
  gc();
  const before = process.cpuUsage();
  await forEachLimited(PER_ROUND, CONCURRENCY, async (i) => verify(work[i]!.body, work[i]!.key));
  // The young generation's leftovers, so they are not collected in the other side's round.
  gc({ type: 'minor' });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PER_ROUND;
}

/** The sandbox in a child process, without a rate limit; resolves to its base URL. */
function startSandboxChild(): { child: ChildProcess; url: Promise<string> } {
  const child = fork(fileURLToPath(import.meta.url), ['--sandbox'], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const url = new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve(m as string));
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  return { child, url };
}

async function serveSandbox() {
  const sandbox = await startTestSandbox({ ratePerSecond: 1e9, rateBurst: 1e9 });
  process.send?.(sandbox.url);
  process.once('disconnect', () => void sandbox.close().then(() => process.exit(0)));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function run() {
  if (!(globalThis as { gc?: unknown }).gc) console.warn('no --expose-gc: garbage is not settled per round');
  const { child, url } = startSandboxChild();
  try {
    const service = loadConfig('worker', { ELIGIBILITY_BASE_URL: await url }).service;
    const sides = [onKy, onUndici];
    // Warm-up: JIT, keep-alive connections, the sandbox's own first calls.
    for (const side of sides) await round(side, service, `warm-${side === onKy ? 'ky' : 'undici'}`);
    const perSide = new Map<Side, number[]>(sides.map((s) => [s, []]));
    const started = performance.now();
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        perSide.get(side)!.push(await round(side, service, `${r}-${side === onKy ? 'ky' : 'undici'}`));
      }
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `CPU of a verification's service calls (payer lookup + v2 creation, one token per ${PER_ROUND}), ` +
        `${ROUNDS} alternating rounds of ${PER_ROUND}, ${CONCURRENCY} at a time, ${seconds} s:`,
    );
    for (const side of sides) {
      const us = perSide.get(side)!;
      const spread = `rounds ${Math.min(...us).toFixed(0)}–${Math.max(...us).toFixed(0)}`;
      console.log(
        `  ${side.name.padEnd(32)} ${mean(us).toFixed(0).padStart(5)} µs mean, ${median(us).toFixed(0)} median (${spread})`,
      );
    }
    const ky = perSide.get(onKy)!;
    const undici = perSide.get(onUndici)!;
    console.log(
      `  ky ÷ undici: ${(mean(ky) / mean(undici)).toFixed(2)} (means), ${(median(ky) / median(undici)).toFixed(2)} (medians)`,
    );
  } finally {
    if (child.connected) child.disconnect();
  }
}

const main = process.argv[2] === '--sandbox' ? serveSandbox : run;
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
