import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { loadSandboxConfig } from '../sandbox/config.js';
import { createSandbox } from '../sandbox/server.js';
import { SEED_PAYERS } from '../sandbox/seed.js';

// `npm run bench:sandbox`: GET /v1/payers/{id} with many concurrent keep-alive requests for a few seconds.
// The sandbox runs in this process and the load in a child process, so each has a core of its own.
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);

interface LoadResult {
  requests: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  latenciesMs: number[];
}

/** The child: `CONCURRENCY` loops, each sending its next request as soon as the previous answer is read. */
async function load(url: string, token: string): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const ids = SEED_PAYERS.flatMap((p) => [p.payerId, ...p.aliasPayerIds]);
  const statuses: Record<string, number> = {};
  const latenciesMs: number[] = [];
  let requests = 0;
  const started = performance.now();
  const deadline = started + DURATION_MS;
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${url}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = worker; performance.now() < deadline; i += CONCURRENCY) {
        const t0 = performance.now();
        const status = await get(`/v1/payers/${ids[i % ids.length]}`);
        latenciesMs.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
        requests += 1;
      }
    }),
  );
  agent.destroy();
  return { requests, statuses, elapsedMs: performance.now() - started, latenciesMs };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function run() {
  const base = loadSandboxConfig({});
  const sandbox = await createSandbox({ ...base, port: 0, rateBurst: 1e9, ratePerSecond: 1e9 });
  try {
    const url = await sandbox.listen();
    const tokenResponse = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: base.clientId, client_secret: base.clientSecret }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const child = fork(fileURLToPath(import.meta.url), ['--load', url, token], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    const result = await new Promise<LoadResult>((resolve, reject) => {
      child.once('message', (m) => resolve(m as LoadResult));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
    });
    const sorted = result.latenciesMs.sort((a, b) => a - b);
    const perSecond = Math.round(result.requests / (result.elapsedMs / 1000));
    console.log(
      `GET /v1/payers/{id}: ${result.requests} requests in ${(result.elapsedMs / 1000).toFixed(1)} s, ` +
        `concurrency ${CONCURRENCY} (keep-alive, separate load process)`,
    );
    console.log(`  statuses ${JSON.stringify(result.statuses)}`);
    console.log(`  latency p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`);
    console.log(`  ${perSecond} requests/second`);
  } finally {
    await sandbox.close();
  }
}

if (process.argv[2] === '--load') {
  const [, , , url, token] = process.argv;
  load(url ?? '', token ?? '').then(
    (result) => process.send?.(result, () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  run().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
