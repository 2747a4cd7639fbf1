/**
 * `npm run bench:today [-- --patients 10000 --appointments 12000 --requests 200]`: the console's Today page over a
 * real PostgreSQL holding `patients` patient copies and `appointments` visits, written through `Visits.keep` (sealed
 * with a codec key, as in production), spread over 20 days and 10 clinics, with clinic-0's day the heavy one (≥ 400
 * visits). The console runs in this process over HTTP on 127.0.0.1, with its audit trail (each page writes an entry)
 * and its own Temporal dev server (the page's one visibility list, the navigation's counts). Prints the p50 / p95 of
 * the page (its first page, and a page filtered by coverage) beside the bare `Visits.day` query of the same day,
 * and the ratio of the two p95s.
 */
import { performance } from 'node:perf_hooks';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { codecKeys, generateKey } from '../../src/codec/keys.js';
import { openStore } from '../../src/store/database.js';
import { table } from '../../src/text-format.js';
import { Visits, type DayQuery } from '../../src/visits/index.js';
import { signIn, startTestConsole } from '../../testing/console-app.js';
import { appointmentIdOf, patientCopy, patientIdOf, type CopyAppointment } from '../../testing/patient-copies.js';
import { startThrowawayPostgres } from '../../testing/postgres.js';
import { forEachLimited, numberArg, startBenchStack } from '../bench-stack.js';
import { percentile } from '../percentile.js';

const TENANTS = Array.from({ length: 10 }, (_, i) => `clinic-${i}`);
const DAYS = 20;
const HEAVY = 450;
const COVERAGES = ['covered', 'no-coverage', 'failed'] as const;

const shift = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const time = (i: number) => `${String(7 + (i % 11)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`;

async function run() {
  const patients = numberArg('patients', 10_000);
  const appointments = numberArg('appointments', 12_000);
  const requests = numberArg('requests', 200);
  const today = new Date().toISOString().slice(0, 10);
  const pg = await startThrowawayPostgres();
  const stack = await startBenchStack();
  const store = await openStore(pg.url, { maxConnections: 10 });
  try {
    const visits = new Visits(store, codecKeys(generateKey('bench'), 'bench key'));
    // Patient i's appointments: the first HEAVY patients are clinic-0's today; every patient one visit, the first
    // `appointments - patients` a second one a week later.
    const began = performance.now();
    await forEachLimited(patients, 8, async (i) => {
      const patientId = patientIdOf(i + 1);
      const heavy = i < HEAVY;
      const tenant = heavy ? TENANTS[0]! : TENANTS[i % TENANTS.length]!;
      const first = heavy ? today : shift(today, (i % DAYS) - 5);
      const dates = i < appointments - patients ? [first, shift(first, 7)] : [first];
      const checked = i % 5 !== 0 ? `verification-${patientId}-1` : undefined;
      const appts: CopyAppointment[] = dates.map((dateOfService, n) => ({
        appointmentId: appointmentIdOf(patientId, n + 1),
        dateOfService,
        ...(i % 9 !== 0 ? { startTime: time(i) } : {}),
        providerGroupId: `pg-${i % 4}`,
        payerId: '60054',
        ...(checked && n === 0 ? { checked } : {}),
      }));
      const settled = checked && i % 5 !== 1;
      await visits.keep(
        patientCopy(
          {
            patientId,
            tenant,
            patient: { firstName: 'Bench', lastName: `Patient${i}`, dateOfBirth: '01/02/1970', memberId: `BM-${i}` },
            index: [`tok-${i}`],
            timeline: settled
              ? [{ at: 1, outcome: 'completed', coverage: COVERAGES[i % 3]!, payerId: '60054', workflowId: checked }]
              : [],
          },
          appts,
        ),
      );
    });
    const loadS = (performance.now() - began) / 1000;
    console.log(`${patients} patients, ${appointments} appointments kept in ${loadS.toFixed(1)} s`);

    const console_ = await startTestConsole(stack.client, { listen: true, audit: new AuditTrail(store), visits });
    try {
      const cookie = await signIn(console_);
      const pages = [
        { name: 'first page', url: `/today?day=${today}&tenant=${TENANTS[0]}` },
        { name: 'filtered (verified)', url: `/today?day=${today}&tenant=${TENANTS[0]}&coverage=verified` },
      ];
      const queries: Record<string, DayQuery> = {
        'first page': { day: today, tenants: null, tenant: TENANTS[0]! },
        'filtered (verified)': { day: today, tenants: null, tenant: TENANTS[0]!, coverage: 'verified' },
      };
      const pageMs: Record<string, number[]> = {};
      const queryMs: Record<string, number[]> = {};
      const total = await visits.day(queries['first page']!);
      console.log(`${TENANTS[0]}'s day: ${total.total} visits, ${JSON.stringify(total.counts)}`);
      for (let r = 0; r < requests; r++) {
        const p = pages[r % pages.length]!;
        const t0 = performance.now();
        const res = await fetch(`${console_.url}${p.url}`, { headers: { cookie, accept: 'text/html' } });
        const body = await res.text();
        (pageMs[p.name] ??= []).push(performance.now() - t0);
        if (res.status !== 200 || !body.includes('Bench Patient')) throw new Error(`${p.url} answered ${res.status}`);
        const t1 = performance.now();
        await visits.day(queries[p.name]!);
        (queryMs[p.name] ??= []).push(performance.now() - t1);
      }
      const rows = pages.map((p) => [
        p.name,
        percentile(pageMs[p.name]!, 50).toFixed(1),
        percentile(pageMs[p.name]!, 95).toFixed(1),
        percentile(queryMs[p.name]!, 50).toFixed(1),
        percentile(queryMs[p.name]!, 95).toFixed(1),
        (percentile(pageMs[p.name]!, 95) / percentile(queryMs[p.name]!, 95)).toFixed(2),
      ]);
      console.log(`\n${requests} page requests (half each), each followed by its bare query (ms):`);
      console.log(table(['', 'page p50', 'page p95', 'Visits.day p50', 'Visits.day p95', 'page ÷ query p95'], rows));
      const worst = Math.max(...pages.map((p) => percentile(pageMs[p.name]!, 95)));
      console.log(`page p95 target ≤ 500 ms: ${worst <= 500 ? 'met' : 'NOT met'} (${worst.toFixed(1)} ms)`);
      if (worst > 500) process.exitCode = 1;
    } finally {
      await console_.close();
    }
  } finally {
    await store.close();
    await stack.stop();
    await pg.stop();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
