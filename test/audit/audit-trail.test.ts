import assert from 'node:assert/strict';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';

describe('the audit trail', function () {
  this.timeout(30_000);
  const stores: Store[] = [];
  after(async () => {
    for (const s of stores) await s.close();
  });

  /** A trail of its own holding `n` entries. */
  async function trailOf(n: number) {
    const store = await testStore();
    stores.push(store);
    const trail = new AuditTrail(store);
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
    return { store, trail };
  }

  it('chains every entry to the one before it, also when many are written at once', async () => {
    const { trail } = await trailOf(0);
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        trail.append({ actor: `client:${i}`, action: 'verification.start', outcome: 'ok' }),
      ),
    );
    // The database hashes what it appends, and verify hashes it again here: they agree beyond ASCII too.
    await trail.append({ actor: 'operator:José 🩺', tenant: 'clínica-1', action: 'verification.read', outcome: 'ok' });
    assert.deepEqual(await trail.verify(), { ok: true, entries: 26 });
    const entries = await trail.list();
    assert.deepEqual(
      entries.map((e) => e.seq),
      Array.from({ length: 26 }, (_, i) => i + 1),
    );
  });

  it('finds an edited entry, naming it', async () => {
    const { store, trail } = await trailOf(5);
    await store.db.updateTable('audit_entries').set({ actor: 'someone-else' }).where('seq', '=', '3').execute();
    assert.deepEqual(await trail.verify(), {
      ok: false,
      entries: 2,
      brokenAt: 3,
      why: 'its content does not match its hash (edited or moved)',
    });
  });

  it('finds a deleted entry, naming the one after the gap', async () => {
    const { store, trail } = await trailOf(5);
    await store.db.deleteFrom('audit_entries').where('seq', '=', '2').execute();
    const result = await trail.verify();
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.brokenAt, 3);
    assert.match(!result.ok ? result.why : '', /missing \(deleted\)/);
  });

  it('finds two entries swapped, naming the first', async () => {
    const { store, trail } = await trailOf(5);
    // Swap entries 2 and 4 whole (content and hashes), as someone hiding an access among others might.
    for (const [from, to] of [
      [2, -2],
      [4, 2],
      [-2, 4],
    ]) {
      // The trail's type allows no update of `seq`: a tamperer is not bound by it.
      await store.db
        .updateTable('audit_entries')
        .set({ seq: to } as never)
        .where('seq', '=', String(from))
        .execute();
    }
    const result = await trail.verify();
    assert.equal(!result.ok && result.brokenAt, 2);
  });

  it('finds an entry rewritten with a recomputed hash: the next one no longer follows it', async () => {
    const { store, trail } = await trailOf(4);
    const [second] = await trail.list({ workflowId: 'verification-2' });
    const { entryHash } = await import('../../src/audit/audit-entry.js');
    const forged = { ...second!, actor: 'nobody' };
    const { hash: _old, ...body } = forged;
    await store.db
      .updateTable('audit_entries')
      .set({ actor: 'nobody', hash: entryHash(body) })
      .where('seq', '=', '2')
      .execute();
    const result = await trail.verify();
    assert.equal(!result.ok && result.brokenAt, 3);
    assert.match(!result.ok ? result.why : '', /does not follow/);
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
