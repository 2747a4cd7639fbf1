import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import { csrfFrom, sessionCookie, signIn, startTestConsole, type TestConsole } from '../../testing/console-app.js';

/** Two console processes behind one load balancer: a session made by one is good on the other, and survives both. */
describe('console sessions in the database', function () {
  this.timeout(30_000);
  let store: Store;
  const consoles: TestConsole[] = [];
  before(async () => {
    store = await testStore();
  });
  after(async () => {
    for (const c of consoles) await c.close();
    await store?.close();
  });

  it('a session signed in on one console is signed in on another, until it signs out on either', async () => {
    const shared = { sessions: store, sessionSecret: randomBytes(32).toString('hex') };
    const first = await startTestConsole(testTemporal().client, shared);
    consoles.push(first);
    const second = await startTestConsole(testTemporal().client, { ...shared, operator: first.operator });
    consoles.push(second);
    const cookie = await signIn(first);
    const page = (c: TestConsole) =>
      c.app.inject({ method: 'GET', url: '/awaiting-input', headers: { cookie, accept: 'text/html' } });
    assert.equal((await page(second)).statusCode, 200, 'the other console knows the session');
    await first.close();
    consoles.shift();
    const third = await startTestConsole(testTemporal().client, { ...shared, operator: first.operator });
    consoles.push(third);
    assert.equal((await page(third)).statusCode, 200, 'a console started afresh knows it too');
    const rows = await store.db.selectFrom('console_sessions').select('data').execute();
    assert.doesNotMatch(JSON.stringify(rows), new RegExp(first.operator.password), 'no password in a session');
    // Signing out on one ends it on all.
    const form = await page(second);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
    const out = await second.app.inject({
      method: 'POST',
      url: '/sign-out',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(csrf)}`,
    });
    assert.equal(out.statusCode, 303);
    assert.equal((await page(third)).statusCode, 303, 'signed out everywhere: sent to the sign-in form');
  });

  it('writes no session row for a visitor who has not signed in, and one once they do', async () => {
    const visited = await startTestConsole(testTemporal().client, { sessions: store });
    consoles.push(visited);
    const rows = async () => (await store.db.selectFrom('console_sessions').select('id').execute()).length;
    const before = await rows();
    const get = (url: string, cookie = '') =>
      visited.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
    const post = (cookie: string, form: Record<string, string>) =>
      visited.app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      });
    assert.equal((await get('/awaiting-input')).statusCode, 303);
    assert.equal((await get('/no-such-page')).headers['set-cookie'], undefined, 'no cookie where no form is');
    const form = await get('/sign-in');
    const cookie = sessionCookie(form.headers['set-cookie']);
    assert.equal((await get('/sign-in', cookie)).statusCode, 200);
    const { name, password } = visited.operator;
    const wrong = await post(cookie, { _csrf: csrfFrom(form.body), name, password: `${password}x` });
    assert.equal(wrong.statusCode, 401, 'its CSRF token held without a row: refused for the password');
    assert.equal((await post(cookie, { _csrf: 'forged', name, password })).statusCode, 403, 'a forged token is not');
    assert.equal(await rows(), before, 'no row for any of it');
    const signedIn = await post(cookie, { _csrf: csrfFrom(wrong.body), name, password });
    assert.equal(signedIn.statusCode, 303);
    assert.equal(await rows(), before + 1, 'a row once signed in');
  });
});
