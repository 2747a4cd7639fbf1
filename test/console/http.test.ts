import assert from 'node:assert/strict';
import type { Session } from 'fastify';
import { ConfigError, loadConfig } from '../../src/config.js';
import { operatorEntry, parseOperators, verifyOperator } from '../../src/access/operator-passwords.js';
import { createConsole } from '../../apps/console/server.js';
import { boundedSessionStore, MAX_SESSIONS } from '../../apps/console/session-store.js';
import { createLogger } from '../../src/logging.js';
import { testTemporal } from '../../testing/temporal.js';
import { csrfFrom, sessionCookie, signIn, startTestConsole, type TestConsole } from '../../testing/console-app.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const HTML = { accept: 'text/html' };

/** Every page of the console and every form it posts to. */
const PAGES = [
  '/',
  '/awaiting-input',
  '/runs/verification-x',
  '/needs-review',
  '/batches',
  '/batches/b1',
  '/batches/b1/results.csv',
  '/verifications',
  '/verifications/verification-x',
  '/no-such-page',
];
const FORMS = [
  '/runs/verification-x/6f1c0000-0000-4000-8000-000000000000',
  '/verifications/verification-x/review',
  '/verifications',
  '/batches/b1/resubmit',
  '/batches/b1/cancel',
  '/sign-out',
];

describe('operator console over HTTP', () => {
  let console: TestConsole;
  before(async () => {
    console = await startTestConsole(testTemporal().client);
  });
  after(() => console.close());

  it('sends a signed-out browser to the sign-in form from every page, and shows it nothing', async () => {
    for (const url of PAGES) {
      const res = await console.app.inject({ method: 'GET', url, headers: HTML });
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, `/sign-in?next=${encodeURIComponent(url)}`, url);
      assert.equal(res.body, '', url);
    }
  });

  it('answers 401 to a signed-out script and to every form posted without a session', async () => {
    for (const url of PAGES) {
      const res = await console.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 401, url);
    }
    for (const url of FORMS) {
      const res = await console.app.inject({ method: 'POST', url, headers: FORM, payload: 'input=%7B%7D' });
      assert.equal(res.statusCode, 401, url);
    }
  });

  it('serves /healthz, /readyz and /metrics to probes without a session, and counts its requests by route', async () => {
    assert.equal((await console.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.equal((await console.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    const metrics = await console.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.body, /server="console",route="\/healthz"/);
  });

  it('refuses a wrong password and a wrong name alike, saying neither back', async () => {
    const form = await console.app.inject({ method: 'GET', url: '/sign-in', headers: HTML });
    const cookie = sessionCookie(form.headers['set-cookie']);
    for (const [name, password] of [
      [console.operator.name, 'wrong-password-123'],
      ['mallory', console.operator.password],
    ] as const) {
      const res = await console.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { ...FORM, cookie },
        payload: new URLSearchParams({ _csrf: csrfFrom(form.body), name, password }).toString(),
      });
      assert.equal(res.statusCode, 401);
      assert.match(res.body, /The name or the password is wrong/);
      assert.ok(!res.body.includes(password), 'the password is not echoed');
    }
  });

  it('sets an HttpOnly, SameSite session cookie, Secure when the request came through TLS', async () => {
    const form = await console.app.inject({ method: 'GET', url: '/sign-in', headers: HTML });
    const cookie = String(form.headers['set-cookie']);
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.doesNotMatch(cookie, /Secure/i, 'plain http: a Secure cookie would never come back');

    const behindProxy = await startTestConsole(testTemporal().client, { env: { CONSOLE_TRUST_PROXY: 'true' } });
    try {
      const res = await behindProxy.app.inject({
        method: 'GET',
        url: '/sign-in',
        headers: { ...HTML, 'x-forwarded-proto': 'https' },
      });
      assert.match(String(res.headers['set-cookie']), /; Secure/i);
    } finally {
      await behindProxy.close();
    }
  });

  it('refuses a form without its CSRF token, or with another session’s', async () => {
    const form = await console.app.inject({ method: 'GET', url: '/sign-in', headers: HTML });
    const cookie = sessionCookie(form.headers['set-cookie']);
    const credentials = { name: console.operator.name, password: console.operator.password };
    const without = await console.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { ...FORM, cookie },
      payload: new URLSearchParams(credentials).toString(),
    });
    assert.equal(without.statusCode, 403);

    const signedIn = await signIn(console);
    const other = await signIn(console);
    const otherPage = await console.app.inject({ method: 'GET', url: '/verifications', headers: { cookie: other } });
    for (const url of FORMS) {
      const missing = await console.app.inject({ method: 'POST', url, headers: { ...FORM, cookie: signedIn } });
      assert.equal(missing.statusCode, 403, `${url} without a token`);
      const foreign = await console.app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, cookie: signedIn },
        payload: new URLSearchParams({ _csrf: csrfFrom(otherPage.body) }).toString(),
      });
      assert.equal(foreign.statusCode, 403, `${url} with another session's token`);
    }
  });

  it('serves its pages under a content security policy that allows its own script and style only', async () => {
    const cookie = await signIn(console);
    const res = await console.app.inject({ method: 'GET', url: '/awaiting-input', headers: { cookie } });
    assert.equal(res.statusCode, 200);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.doesNotMatch(res.body, /<script>|style="/, 'no inline script or style');
  });

  it('signs out: the old session cookie opens nothing', async () => {
    const cookie = await signIn(console);
    const page = await console.app.inject({ method: 'GET', url: '/batches', headers: { cookie } });
    const out = await console.app.inject({
      method: 'POST',
      url: '/sign-out',
      headers: { ...FORM, cookie },
      payload: new URLSearchParams({ _csrf: csrfFrom(page.body) }).toString(),
    });
    assert.equal(out.statusCode, 303);
    const after = await console.app.inject({ method: 'GET', url: '/batches', headers: { cookie } });
    assert.equal(after.statusCode, 401);
  });
});

describe('console operators (CONSOLE_OPERATORS)', () => {
  it('verifies a password against its scrypt entry, and nothing else', async () => {
    const entry = await operatorEntry('bob', 'correct horse battery');
    assert.match(entry, /^bob:scrypt:32768:8:1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    assert.ok(!entry.includes('correct horse'), 'the entry holds no password');
    const operators = parseOperators(entry);
    assert.equal(await verifyOperator(operators, 'bob', 'correct horse battery'), 'bob');
    assert.equal(await verifyOperator(operators, 'bob', 'correct horse batterY'), undefined);
    assert.equal(await verifyOperator(operators, 'eve', 'correct horse battery'), undefined);
  });

  it('will not start without operators or a session key, naming the variable', () => {
    const config = loadConfig('console', {});
    const logger = createLogger(loadConfig('console', { LOG_LEVEL: 'silent' }));
    assert.throws(
      () => createConsole({ config, client: testTemporal().client, logger }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.problems.map((p) => p.variable).join() === 'CONSOLE_OPERATORS,CONSOLE_SESSION_SECRET',
    );
    assert.throws(() => loadConfig('console', { CONSOLE_OPERATORS: 'alice:plaintext-password' }), ConfigError);
  });
});

describe('console session store', () => {
  const get = (store: ReturnType<typeof boundedSessionStore>, id: string) =>
    new Promise<unknown>((resolve) => store.get(id, (_err, session) => resolve(session)));
  const set = (store: ReturnType<typeof boundedSessionStore>, id: string) =>
    new Promise<void>((resolve) => store.set(id, { operator: id } as Session, () => resolve()));

  it('forgets a session unused for its idle time, and keeps at most MAX_SESSIONS', async () => {
    const store = boundedSessionStore(100);
    await set(store, 'a');
    assert.deepEqual(await get(store, 'a'), { operator: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(await get(store, 'a'), null);

    const many = boundedSessionStore(60_000);
    for (let i = 0; i <= MAX_SESSIONS; i += 1) await set(many, `s${i}`);
    assert.equal(await get(many, 's0'), null, 'the least recently used went first');
    assert.deepEqual(await get(many, `s${MAX_SESSIONS}`), { operator: `s${MAX_SESSIONS}` });
  });
});
