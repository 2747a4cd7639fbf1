import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createConsole } from '../../apps/console/server.js';
import { ConsoleSignInThrottle } from '../../apps/console/sign-in-throttle.js';
import { operatorEntry } from '../../src/access/operator-passwords.js';
import { DatabaseThrottleStore } from '../../src/access/sign-in-throttle-store.js';
import { addressOf, afterFailure, type SignInLimits, type ThrottleRule } from '../../src/access/sign-in-throttle.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';
import { csrfFrom, sessionCookie } from '../../testing/console-app.js';

/** Windows long enough for five password hashes, blocks short enough to wait out. */
const LIMITS: SignInLimits = {
  // Long enough that 15 blocked attempts on a loaded machine all fall inside the first block.
  name: { failures: 5, windowMs: 60_000, blockMs: 5_000, maxBlockMs: 10_000 },
  address: { failures: 8, windowMs: 60_000, blockMs: 1_500, maxBlockMs: 6_000 },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('throttled password sign-in', function () {
  this.timeout(30_000);
  let store: Store;
  const apps: FastifyInstance[] = [];
  const operator = { name: 'throttle-tester', password: randomBytes(12).toString('base64url') };

  before(async () => {
    store = await testStore();
    // Two console processes' worth of apps: each its own sessions' store object, throttle and audit trail; they share
    // nothing but the database (and the deployment's configuration). Sign-in touches no Temporal server.
    const env = {
      CONSOLE_OPERATORS: await operatorEntry(operator.name, operator.password),
      CONSOLE_SESSION_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
    };
    for (let i = 0; i < 2; i++) {
      const config = loadConfig('console', env);
      const app = createConsole({
        config,
        client: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }),
        logger: createLogger(config),
        audit: new AuditTrail(store),
        sessions: store,
        signInLimits: LIMITS,
      });
      await app.ready();
      apps.push(app);
    }
  });
  after(async () => {
    for (const app of apps) await app.close();
    await store?.close();
  });

  /** One attempt through the form, from `address`, as a browser makes it. */
  async function attempt(app: FastifyInstance, password: string, address: string) {
    const form = await app.inject({ method: 'GET', url: '/sign-in', headers: { accept: 'text/html' } });
    const cookie = sessionCookie(form.headers['set-cookie']);
    const started = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/sign-in',
      remoteAddress: address,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrfFrom(form.body), name: operator.name, password }).toString(),
    });
    return { answer, ms: performance.now() - started };
  }

  it('refuses 20 wrong passwords across two consoles after 5, refuses the right one while blocked, takes it after', async () => {
    const address = '198.51.100.7';
    const started = performance.now();
    const tries = [];
    let blockedAt = 0;
    for (let i = 0; i < 20; i++) {
      tries.push(await attempt(apps[i % 2]!, `wrong-${i}-password`, address));
      if (i === 4) blockedAt = performance.now();
    }
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 10_000, `20 attempts in ${Math.round(elapsed)} ms`);
    const statuses = tries.map((t) => t.answer.statusCode);
    assert.deepEqual(statuses, [...Array<number>(5).fill(401), ...Array<number>(15).fill(429)]);

    const throttled = tries[5]!.answer;
    const wait = Number(throttled.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 5, `Retry-After ${wait}`);
    assert.match(throttled.body, /Too many failed sign-ins\. Wait \d+ seconds? before trying again\./);
    assert.ok(!throttled.body.includes(operator.name), 'the typed name is not said back');
    // No password hash for a blocked attempt: each is answered faster than the quickest hashed refusal.
    const hashed = Math.min(...tries.slice(0, 5).map((t) => t.ms));
    const slowestBlocked = Math.max(...tries.slice(5).map((t) => t.ms));
    assert.ok(slowestBlocked < hashed, `blocked ${Math.round(slowestBlocked)} ms, hashed ${Math.round(hashed)} ms`);

    const right = await attempt(apps[1]!, operator.password, address);
    assert.equal(right.answer.statusCode, 429, 'the right password is refused while the name is blocked');

    await sleep(blockedAt + LIMITS.name.blockMs - performance.now());
    const after = await attempt(apps[0]!, operator.password, address);
    assert.equal(after.answer.statusCode, 303, 'the right password signs in once the block has passed');

    const entries = await store.db
      .selectFrom('audit_entries')
      .select(['outcome', 'actor', 'source'])
      .where('action', '=', 'operator.sign-in')
      .execute();
    const count = (outcome: string) => entries.filter((e) => e.outcome === outcome).length;
    assert.deepEqual([count('denied'), count('throttled'), count('ok')], [5, 16, 1]);
    assert.ok(entries.every((e) => e.actor === `operator:${operator.name}` && e.source === address));
  });

  it('blocks an address that tries many names, in every console process', async () => {
    const request = (ip: string) => ({ ip }) as FastifyRequest;
    const secret = randomBytes(32).toString('hex');
    const [one, two] = [0, 1].map(() => new ConsoleSignInThrottle(secret, { store, limits: LIMITS }));
    for (let i = 0; i < 8; i++) await (i % 2 ? one! : two!).failed(request('203.0.113.9'), `name-${i}`);
    assert.ok((await two!.waitSeconds(request('203.0.113.9'), 'anyone-else')) >= 1, 'the address is blocked');
    assert.equal(await one!.waitSeconds(request('203.0.113.10'), 'anyone-else'), 0, 'another address is not');
    const kept = await store.db
      .withTables<{ sign_in_throttle: { key: string } }>()
      .selectFrom('sign_in_throttle')
      .select('key')
      .execute();
    assert.ok(
      kept.every((row) => !/name-\d/.test(row.key)),
      'no typed name is kept readable',
    );
  });

  it('doubles each block for a key that fails straight after one, up to its longest block', async () => {
    const rule: ThrottleRule = { failures: 3, windowMs: 60_000, blockMs: 1_000, maxBlockMs: 4_000 };
    const blocks = new DatabaseThrottleStore(store);
    const key = `test:${randomBytes(4).toString('hex')}`;
    let now = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 3; i++) await blocks.fail(key, rule, now);
    const seen = [(await blocks.blockedUntil([key])) - now];
    for (let i = 0; i < 3; i++) {
      now = (await blocks.blockedUntil([key])) + 10;
      await blocks.fail(key, rule, now);
      seen.push((await blocks.blockedUntil([key])) - now);
    }
    assert.deepEqual(seen, [1_000, 2_000, 4_000, 4_000]);
    // A window after its last block, a key starts afresh: one failure blocks nothing.
    now = (await blocks.blockedUntil([key])) + rule.windowMs;
    await blocks.fail(key, rule, now);
    assert.ok((await blocks.blockedUntil([key])) < now);
  });

  it('counts the failures of a window, and a window later starts afresh', () => {
    const rule: ThrottleRule = { failures: 3, windowMs: 1_000, blockMs: 500, maxBlockMs: 2_000 };
    let state = afterFailure(undefined, rule, 0);
    state = afterFailure(state, rule, 400);
    state = afterFailure(state, rule, 1_100);
    state = afterFailure(state, rule, 1_200);
    assert.equal(state.blockedUntil, 0, 'a new window began at 1,100: two failures in it');
    state = afterFailure(state, rule, 1_300);
    assert.equal(state.blockedUntil, 1_800);
  });

  it('counts an IPv6 host by its /64, and an IPv4-mapped address as IPv4', () => {
    assert.equal(addressOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(addressOf('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressOf('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(addressOf('192.0.2.1'), '192.0.2.1');
  });
});
