/**
 * `npm run bench:audit-cpu [-- --count 2000]`: the CPU one audit entry costs, before and after the trail was keyed,
 * side by side in one run over one PostgreSQL: `--count` appends each in alternating rounds of 100, one at a time
 * (a quiet process), then 20 at a time (a busy one: appends waiting meanwhile share a checkpoint write). Before: the unkeyed write of migration 0002 (`audit_append`, one statement, the hash
 * computed by the database). After: `AuditTrail.append` (one insert, the HMAC computed here, the end remembered),
 * without and with its checkpoint file. Prints this process's and PostgreSQL's CPU per entry, and after ÷ before.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import { auditKeysOf } from '../../src/audit/audit-keys.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { openStore, type Store } from '../../src/store/database.js';
import { up as unkeyedAppend } from '../../src/store/migrations/0002-audit-append.js';
import { table } from '../../src/text-format.js';
import { startThrowawayPostgres } from '../../testing/postgres.js';
import { numberArg } from '../bench-stack.js';
import { processCpuMs, processTree } from '../proc-stats.js';

const EVENT: AuditEvent = {
  actor: 'client:3f2a9c0d1e4b (Clinic 42 PMS)',
  tenant: 'clinic-42',
  action: 'verification.read',
  workflowId: 'verification-clinic-42-p-200',
  fields: ['discovery', 'runs', 'verificationId'],
  source: '10.0.0.7',
  outcome: 'ok',
};

/** The write before keys, as `AuditTrail.append` made it: one statement, hashed by the database. */
async function unkeyedWrite(store: Store, event: AuditEvent): Promise<void> {
  await sql`select * from audit_append(${new Date().toISOString()}, ${event.actor}, ${event.tenant ?? null},
    ${event.action}, ${event.workflowId ?? null}, ${event.batchId ?? null}, ${[...(event.fields ?? [])]}::text[],
    ${event.source ?? null}, ${event.outcome})`.execute(store.db);
}

type Path = 'before: unkeyed' | 'after: keyed, no checkpoint' | 'after: keyed + checkpoint';

async function run() {
  const count = numberArg('count', 2000);
  const postgres = await startThrowawayPostgres();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'audit-cpu-'));
  const stores: Store[] = [];
  const open = async (schema: string) => {
    const store = await openStore(postgres.url, { schema });
    stores.push(store);
    return store;
  };
  try {
    const keys = auditKeysOf(`bench:${randomBytes(32).toString('base64')}`, 'AUDIT_KEYS');
    const before = await open('before_keys');
    await unkeyedAppend(before.db as unknown as Kysely<unknown>);
    const keyed = new AuditTrail(await open('keyed'), { keys });
    const checkpointed = new AuditTrail(await open('checkpointed'), { keys, checkpointFile: path.join(dir, 'cp') });
    const paths: Record<Path, () => Promise<unknown>> = {
      'before: unkeyed': () => unkeyedWrite(before, EVENT),
      'after: keyed, no checkpoint': () => keyed.append(EVENT),
      'after: keyed + checkpoint': () => checkpointed.append(EVENT),
    };
    const names = Object.keys(paths) as Path[];
    // PostgreSQL's processes are this one's children (the postmaster) and theirs (a backend per connection).
    const databaseCpu = () => processCpuMs(...processTree(process.pid).filter((pid) => pid !== process.pid));
    for (const name of names) for (let i = 0; i < 50; i++) await paths[name](); // warm-up
    const round = 100;
    for (const concurrency of [1, 20]) {
      const spent = Object.fromEntries(names.map((n) => [n, { app: 0, db: 0, wall: 0 }])) as Record<
        Path,
        { app: number; db: number; wall: number }
      >;
      for (let done = 0; done < count; done += round) {
        const order = (done / round) % 2 === 0 ? names : [...names].reverse();
        for (const name of order) {
          const app0 = process.cpuUsage();
          const db0 = databaseCpu();
          const wall0 = performance.now();
          for (let i = 0; i < round; i += concurrency) {
            await Promise.all(Array.from({ length: Math.min(concurrency, round - i) }, () => paths[name]()));
          }
          const app = process.cpuUsage(app0);
          spent[name].wall += performance.now() - wall0;
          spent[name].db += databaseCpu() - db0;
          spent[name].app += (app.user + app.system) / 1000;
        }
      }
      const per = (ms: number) => ms / count;
      const total = (s: { app: number; db: number }) => s.app + s.db;
      const base = total(spent['before: unkeyed']);
      console.log(
        `\nCPU per audit entry, ${count} appends each, ${concurrency === 1 ? 'one' : concurrency} at a time (ms):`,
      );
      console.log(
        table(
          ['path', 'this process', 'PostgreSQL', 'CPU in all', 'wall', 'CPU after ÷ before'],
          names.map((name) => {
            const s = spent[name];
            return [
              name,
              per(s.app).toFixed(3),
              per(s.db).toFixed(3),
              per(total(s)).toFixed(3),
              per(s.wall).toFixed(3),
              (total(s) / base).toFixed(2),
            ];
          }),
        ),
      );
    }
    for (const name of names.slice(1)) {
      const trail = name === 'after: keyed, no checkpoint' ? keyed : checkpointed;
      const verified = await trail.verify();
      console.log(`${name}: verify ${verified.ok ? `holds (${verified.entries} entries)` : `broken: ${verified.why}`}`);
    }
  } finally {
    for (const store of stores) await store.close();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
