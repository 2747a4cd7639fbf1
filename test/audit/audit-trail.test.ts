import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { auditKeysOf, loadAuditKeys, type AuditKeys } from '../../src/audit/audit-keys.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';
import { rewriteTail, writeLegacyEntries } from './tamper.js';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('the audit trail', function () {
  this.timeout(30_000);
  let store: Store;
  let dir: string;
  let trails = 0;
  const k1 = key('k1');
  const keys = auditKeysOf(k1, 'AUDIT_KEYS');
  before(async () => {
    store = await testStore();
    dir = await mkdtemp(path.join(os.tmpdir(), 'audit-trail-'));
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A trail begun afresh holding `n` entries, keyed with `ring`, checkpointed in a file of its own. */
  async function trailOf(n: number, ring: AuditKeys = keys) {
    await store.db.deleteFrom('audit_entries').execute();
    const checkpointFile = path.join(dir, `checkpoint-${(trails += 1)}`);
    const trail = new AuditTrail(store, { keys: ring, checkpointFile });
    for (let i = 1; i <= n; i++) {
      await trail.append({
        actor: `operator:ana`,
        tenant: 'clinic-1',
        action: 'verification.read',
        workflowId: `verification-${i}`,
        fields: ['discovery'],
        source: '127.0.0.1',
        outcome: 'ok',
      });
    }
    return { trail, checkpointFile };
  }

  it('keys every entry and chains it to the one before it, also when many processes write at once', async () => {
    const { trail, checkpointFile } = await trailOf(0);
    // Another process's trail: each takes the next number first now and then, and the other follows it.
    const other = new AuditTrail(store, { keys, checkpointFile });
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        (i % 2 ? trail : other).append({ actor: `client:${i}`, action: 'verification.start', outcome: 'ok' }),
      ),
    );
    await trail.append({ actor: 'operator:José 🩺', tenant: 'clínica-1', action: 'verification.read', outcome: 'ok' });
    assert.deepEqual(await trail.verify(), { ok: true, entries: 26, checkpoint: 26 });
    const entries = await trail.list();
    assert.deepEqual(
      entries.map((e) => [e.seq, e.keyId]),
      Array.from({ length: 26 }, (_, i) => [i + 1, 'k1']),
    );
    const checkpoint = JSON.parse(await readFile(checkpointFile, 'utf8')) as { seq: number; hash: string };
    assert.deepEqual([checkpoint.seq, checkpoint.hash], [26, entries[25]!.hash]);
  });

  it('finds an edited last entry whose hash was recomputed without the key', async () => {
    const { trail } = await trailOf(5);
    await rewriteTail(store, 5, (entries) => entries.map((e) => ({ ...e, actor: 'someone-else' })));
    assert.deepEqual(await trail.verify(), {
      ok: false,
      entries: 4,
      brokenAt: 5,
      why: 'its content does not match its hash (edited or moved)',
    });
  });

  it('finds an edited last entry recomputed by the unkeyed rule', async () => {
    const { trail } = await trailOf(5);
    await rewriteTail(store, 5, (entries) => entries.map((e) => ({ ...e, actor: 'someone-else' })), 'unkeyed');
    const result = await trail.verify();
    assert.equal(!result.ok && result.brokenAt, 5);
    assert.match(!result.ok ? result.why : '', /has no key, after keyed entries/);
  });

  it('finds a deleted last entry through the checkpoint', async () => {
    const { trail } = await trailOf(5);
    await store.db.deleteFrom('audit_entries').where('seq', '=', '5').execute();
    assert.deepEqual(await trail.verify(), {
      ok: false,
      entries: 4,
      brokenAt: 5,
      why: 'entry 5 is missing: the checkpoint names entry 5',
    });
  });

  it('finds the last two entries swapped, renumbered and rehashed', async () => {
    const { trail } = await trailOf(5);
    await rewriteTail(store, 4, ([fourth, fifth]) => [
      { ...fifth!, seq: 4 },
      { ...fourth!, seq: 5 },
    ]);
    const result = await trail.verify();
    assert.equal(!result.ok && result.brokenAt, 4);
    assert.match(!result.ok ? result.why : '', /does not match its hash/);
  });

  it('finds a truncated tail through the checkpoint', async () => {
    const { trail } = await trailOf(5);
    await store.db.deleteFrom('audit_entries').where('seq', '>=', '3').execute();
    assert.deepEqual(await trail.verify(), {
      ok: false,
      entries: 2,
      brokenAt: 3,
      why: 'entries 3–5 are missing: the checkpoint names entry 5',
    });
  });

  it('finds a middle entry deleted and the rest renumbered and rehashed', async () => {
    const { trail } = await trailOf(5);
    await rewriteTail(store, 2, ([, ...rest]) => rest.map((e) => ({ ...e, seq: e.seq - 1 })));
    const result = await trail.verify();
    assert.equal(!result.ok && result.brokenAt, 2);
  });

  it('finds a whole trail rewritten by the unkeyed rule: its last entry is not the checkpoint’s', async () => {
    const { trail } = await trailOf(5);
    await rewriteTail(store, 1, (entries) => entries.map((e) => ({ ...e, outcome: 'denied' })), 'unkeyed');
    assert.deepEqual(await trail.verify(), {
      ok: false,
      entries: 5,
      brokenAt: 5,
      why: 'it is not the entry the checkpoint names (replaced)',
    });
  });

  it('refuses a checkpoint edited without the key, or missing', async () => {
    const { trail, checkpointFile } = await trailOf(3);
    const written = JSON.parse(await readFile(checkpointFile, 'utf8')) as Record<string, unknown>;
    await writeFile(checkpointFile, JSON.stringify({ ...written, seq: 2 }));
    const edited = await trail.verify();
    assert.match(!edited.ok ? edited.why : '', /cannot be trusted: its signature does not match/);
    await rm(checkpointFile);
    const missing = await trail.verify();
    assert.equal(!missing.ok && missing.brokenAt, 4);
    assert.match(!missing.ok ? missing.why : '', /is missing: a cut-off end would not show/);
  });

  it('verifies across a key rotation while the old key stays listed, and names it when it is not', async () => {
    const { trail, checkpointFile } = await trailOf(3);
    const k2 = key('k2');
    const rotated = new AuditTrail(store, { keys: auditKeysOf(`${k2},${k1}`, 'AUDIT_KEYS'), checkpointFile });
    await rotated.append({ actor: 'cli:bo', action: 'audit.read', outcome: 'ok' });
    assert.deepEqual(await rotated.verify(), { ok: true, entries: 4, checkpoint: 4 });
    assert.deepEqual(
      (await rotated.list()).map((e) => e.keyId),
      ['k1', 'k1', 'k1', 'k2'],
    );
    assert.equal((await trail.verify()).ok, false, 'a process without k2 cannot vouch for its entries');
    const dropped = new AuditTrail(store, { keys: auditKeysOf(k2, 'AUDIT_KEYS'), checkpointFile });
    assert.deepEqual(await dropped.verify(), {
      ok: false,
      entries: 0,
      brokenAt: 1,
      why: 'it is keyed with audit key "k1", which is not listed (AUDIT_KEYS)',
    });
  });

  it('moves from keys derived from the codec keys to AUDIT_KEYS, and then refuses a derived key', async () => {
    const codec = { CODEC_KEYS: key('c1') };
    const { trail: derived, checkpointFile } = await trailOf(2, await loadAuditKeys(loadConfig('cli', codec)));
    const own = new AuditTrail(store, {
      keys: await loadAuditKeys(loadConfig('cli', { ...codec, AUDIT_KEYS: k1 })),
      checkpointFile,
    });
    assert.deepEqual(await own.verify(), { ok: true, entries: 2, checkpoint: 2 });
    await own.append({ actor: 'cli:bo', action: 'audit.read', outcome: 'ok' });
    assert.deepEqual(await own.verify(), { ok: true, entries: 3, checkpoint: 3 });
    // Whoever holds only the codec keys (a worker) writes on.
    await derived.append({ actor: 'cli:mallory', action: 'audit.read', outcome: 'ok' });
    assert.deepEqual(
      (await own.list()).map((e) => e.keyId),
      ['codec.c1', 'codec.c1', 'k1', 'codec.c1'],
    );
    const result = await own.verify();
    assert.equal(!result.ok && result.brokenAt, 4);
    assert.match(!result.ok ? result.why : '', /derived from the codec keys, after entries keyed with AUDIT_KEYS/);
  });

  it('checks entries from before keys by the unkeyed rule, then keyed ones from the first keyed entry', async () => {
    await trailOf(0);
    // As the database's audit_append wrote them before migration 0010, beyond ASCII too.
    await writeLegacyEntries(store, ['operator:José 🩺', 'cli:bo']);
    const checkpointFile = path.join(dir, 'legacy-checkpoint');
    const trail = new AuditTrail(store, { keys, checkpointFile });
    assert.deepEqual(await trail.verify(), { ok: true, entries: 2, legacy: 2 }, 'no checkpoint yet: none needed');
    await trail.append({ actor: 'cli:bo', action: 'audit.read', outcome: 'ok' });
    assert.deepEqual(await trail.verify(), { ok: true, entries: 3, legacy: 2, checkpoint: 3 });
    await store.db.updateTable('audit_entries').set({ actor: 'nobody' }).where('seq', '=', '1').execute();
    const edited = await trail.verify();
    assert.equal(!edited.ok && edited.brokenAt, 1, 'an entry from before keys is checked too');
  });

  it('purges old entries but never the newest, so the chain and the checkpoint go on', async () => {
    const { trail } = await trailOf(3);
    assert.equal(await trail.purge(new Date(Date.now() + 60_000)), 2);
    await trail.append({ actor: 'cli:bo', action: 'audit.purge', outcome: 'removed 2' });
    assert.deepEqual(await trail.verify(), { ok: true, entries: 2, checkpoint: 4 });
  });

  it('filters by actor, object, action and time', async () => {
    const { trail } = await trailOf(3);
    await trail.append({ actor: 'cli:bo', action: 'run.answer', workflowId: 'verification-2', outcome: 'ok' });
    assert.equal((await trail.list({ actor: 'cli:bo' })).length, 1);
    assert.equal((await trail.list({ workflowId: 'verification-2' })).length, 2);
    assert.equal((await trail.list({ action: 'verification.read' })).length, 3);
    assert.equal((await trail.list({ since: new Date(Date.now() + 60_000) })).length, 0);
  });
});
