import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildProgram } from '../../apps/cli/program.js';
import type { CliContext } from '../../apps/cli/context.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadAuditSigning } from '../../src/audit/signing.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import { testDatabaseUrl, testStore } from '../../testing/database.js';
import { rewriteTail } from './tamper.js';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

/**
 * `eligibility audit verify`, run in this process as a person runs it: its configuration from the variables
 * (DATABASE_URL at this suite's schema, AUDIT_KEYS, AUDIT_CHECKPOINT_FILE), its answer the line it prints or the
 * error it exits 1 with.
 */
describe('eligibility audit verify', function () {
  this.timeout(30_000);
  let store: Store;
  let dir: string;
  let env: Record<string, string>;
  const k1 = key('k1');

  before(async () => {
    store = await testStore();
    dir = await mkdtemp(path.join(os.tmpdir(), 'audit-verify-'));
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
    const url = new URL(testDatabaseUrl());
    url.searchParams.set('options', `-c search_path=${rows[0]!.schema}`);
    env = { DATABASE_URL: url.toString(), AUDIT_CHECKPOINT_FILE: path.join(dir, 'checkpoint'), AUDIT_KEYS: k1 };
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function verify(extra: Record<string, string> = {}): Promise<string> {
    const config: Config = loadConfig('cli', { ...env, ...extra });
    const ctx: CliContext = { config: () => config, identity: () => 'cli:auditor', named: () => undefined };
    const printed: string[] = [];
    const log = console.log;
    console.log = (line: string) => printed.push(line);
    try {
      await buildProgram(ctx).parseAsync(['node', 'eligibility', 'audit', 'verify']);
      return printed.join('\n');
    } catch (err) {
      return `exit 1: ${(err as Error).message}`;
    } finally {
      console.log = log;
    }
  }

  /** A trail begun afresh with five entries, written as the processes of a deployment write them. */
  async function fiveEntries(): Promise<void> {
    await store.db.deleteFrom('audit_entries').execute();
    const trail = new AuditTrail(store, await loadAuditSigning(loadConfig('cli', env)));
    for (let i = 1; i <= 5; i++) {
      await trail.append({
        actor: 'client:3f2a9c0d1e4b',
        tenant: 'clinic-1',
        action: 'verification.read',
        outcome: 'ok',
      });
    }
  }

  it('passes an intact trail, naming its checkpoint', async () => {
    await fiveEntries();
    assert.equal(
      await verify(),
      "the audit trail holds: 5 entries, each following the one before it; the checkpoint's entry 5 is there as written",
    );
  });

  it('finds the last entry edited, deleted, reordered or cut off, each with its hash recomputed', async () => {
    const tampered: Record<string, () => Promise<void>> = {
      edited: () => rewriteTail(store, 5, ([last]) => [{ ...last!, tenant: 'clinic-2' }]),
      deleted: () => rewriteTail(store, 5, () => []),
      reordered: () =>
        rewriteTail(store, 4, ([a, b]) => [
          { ...b!, seq: 4 },
          { ...a!, seq: 5 },
        ]),
      truncated: () => rewriteTail(store, 3, () => []),
    };
    const answers: Record<string, string> = {};
    for (const [how, tamper] of Object.entries(tampered)) {
      await fiveEntries();
      await tamper();
      answers[how] = await verify();
    }
    assert.deepEqual(answers, {
      edited: 'exit 1: the audit trail is broken at entry 5: its content does not match its hash (edited or moved)',
      deleted: 'exit 1: the audit trail is broken at entry 5: entry 5 is missing: the checkpoint names entry 5',
      reordered: 'exit 1: the audit trail is broken at entry 4: its content does not match its hash (edited or moved)',
      truncated: 'exit 1: the audit trail is broken at entry 3: entries 3–5 are missing: the checkpoint names entry 5',
    });
  });

  it('still passes after the key is rotated while the old one stays listed', async () => {
    await fiveEntries();
    const k2 = key('k2');
    const rotated = { AUDIT_KEYS: `${k2},${k1}` };
    const trail = new AuditTrail(store, await loadAuditSigning(loadConfig('cli', { ...env, ...rotated })));
    await trail.append({ actor: 'cli:auditor', action: 'audit.read', outcome: 'ok' });
    assert.match(await verify(rotated), /^the audit trail holds: 6 entries/);
    assert.equal(
      await verify({ AUDIT_KEYS: k2 }),
      'exit 1: the audit trail is broken at entry 1: it is keyed with audit key "k1", which is not listed (AUDIT_KEYS)',
    );
  });
});
