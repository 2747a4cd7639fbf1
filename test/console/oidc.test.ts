import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import { requireConsoleSecrets } from '../../apps/console/server.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { signIn, signInAs, startTestConsole, type TestConsole } from '../../testing/console-app.js';
import { locationOf, TestBrowser, throughProvider } from './oidc-browser.js';
import { startTestOidcProvider, type TestAccount, type TestOidcProvider } from './oidc-provider.js';
import { changedUnderItsSignature, signedByAnotherKey, signedWith, unsigned } from './oidc-tokens.js';
import { verificationAwaitingInput } from '../../testing/waiting-verifications.js';

const A = 'clinic-a';
const B = 'clinic-b';
const CALLBACK = '/sign-in/oidc/callback';

/** A person of the provider whose email makes their console name `oidc:<id>@clinic.example`. */
const person = (id: string, claims: Record<string, unknown>): TestAccount => ({
  id,
  claims: { email: `${id}@clinic.example`, email_verified: true, ...claims },
});

// Sign-in through the organisation's OpenID Connect provider (docs/operating/console.md) against the certified
// oidc-provider run in this process, two consoles (a public client with PKCE only, with the database's directory,
// sessions and audit trail; a confidential client with a secret), and the real stack for the pages they open.
describe('console sign-in through OpenID Connect', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let store: Store;
  let trail: AuditTrail;
  let directory: OperatorDirectory;
  let provider: TestOidcProvider;
  let console: TestConsole;
  let confidential: TestConsole;
  let a: { workflowId: string; wf: { terminate(reason: string): Promise<unknown> } };
  let b: typeof a;
  const client = () => testTemporal().client;

  before(async () => {
    [h, store, provider] = await Promise.all([startWorkflowHarness(), testStore(), startTestOidcProvider()]);
    trail = new AuditTrail(store);
    directory = new OperatorDirectory(store);
    const oidcEnv = { OIDC_ISSUER: provider.issuer, OIDC_DISPLAY_NAME: 'Clinic Group' };
    console = await startTestConsole(client(), {
      listen: true,
      audit: trail,
      directory,
      sessions: store,
      env: { ...oidcEnv, OIDC_CLIENT_ID: 'console' },
    });
    const secret = randomBytes(24).toString('base64url');
    confidential = await startTestConsole(client(), {
      listen: true,
      env: { ...oidcEnv, OIDC_CLIENT_ID: 'console-confidential', OIDC_CLIENT_SECRET: secret },
    });
    provider.serve([
      { clientId: 'console', redirectUrl: `${console.url}${CALLBACK}` },
      { clientId: 'console-confidential', redirectUrl: `${confidential.url}${CALLBACK}`, secret },
    ]);
    [a, b] = await Promise.all([
      verificationAwaitingInput(h, { tenant: A }),
      verificationAwaitingInput(h, { tenant: B }),
    ]);
  });
  after(async () => {
    await Promise.all([a, b].map((v) => v?.wf.terminate('test over').catch(() => undefined)));
    await console?.close();
    await confidential?.close();
    await provider?.close();
    await h?.stop();
    await store?.close();
  });

  /** The provider's side of a sign-in to `on` as `account`: answers the callback URL, not yet opened. */
  async function toCallback(on: TestConsole, account: TestAccount, browser = new TestBrowser()) {
    provider.account(account);
    const start = await browser.request(`${on.url}/sign-in/oidc?next=${encodeURIComponent('/batches')}`);
    assert.equal(start.status, 303);
    const authorization = locationOf(start, on.url);
    assert.ok(authorization.startsWith(`${provider.issuer}/`), authorization);
    return { browser, authorization, callback: await throughProvider(browser, authorization, account.id, on.url) };
  }

  /** A whole sign-in: answers the browser and the console's answer to the callback. */
  async function signInThrough(on: TestConsole, account: TestAccount) {
    const { browser, callback } = await toCallback(on, account);
    return { browser, landing: await browser.request(callback) };
  }

  const page = (on: TestConsole, browser: TestBrowser, path: string) => browser.request(`${on.url}${path}`);
  const signInEntries = async (name: string) =>
    (await trail.list({ actor: `operator:${name}`, action: 'operator.sign-in' })).map((e) => e.outcome);

  it('offers the provider on the sign-in page, beside the password form', async () => {
    const form = await new TestBrowser().request(`${console.url}/sign-in?next=%2Fbatches`);
    const body = await form.text();
    assert.match(body, /<a class="button" href="\/sign-in\/oidc\?next=%2Fbatches"\s*>Sign in with Clinic Group<\/a/);
    assert.match(body, /name="password"/);
  });

  it('signs in a person with the role and tenants of their claims, through authorization code and PKCE', async () => {
    const ana = person('ana', { email: 'Ana@Clinic.example', eligibility_role: 'operator', eligibility_tenants: [A] });
    const rows = async () => (await store.db.selectFrom('console_sessions').select('id').execute()).length;
    const rowsBefore = await rows();
    const { browser, authorization, callback } = await toCallback(console, ana);
    assert.equal(await rows(), rowsBefore, 'no session row for a sign-in under way');
    const asked = new URL(authorization).searchParams;
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.ok(asked.get('code_challenge') && asked.get('state') && asked.get('nonce'));
    assert.equal(asked.get('redirect_uri'), `${console.url}${CALLBACK}`);
    const before = browser.cookie(console.url);
    const landing = await browser.request(callback);
    assert.equal(landing.status, 303);
    assert.equal(landing.headers.get('location'), '/batches');
    assert.notEqual(browser.cookie(console.url), before, 'a new session id at sign-in');

    const name = 'oidc:ana@clinic.example';
    const own = await page(console, browser, `/runs/${a.workflowId}`);
    assert.equal(own.status, 200);
    const body = await own.text();
    assert.match(body, /M1234567/, 'an operator sees the member id');
    assert.ok(body.includes(`Signed in as <strong>${name}</strong> (operator)`), 'the name from the email, lowercased');
    assert.equal((await page(console, browser, `/verifications/${b.workflowId}`)).status, 404, "B's is not hers");
    assert.deepEqual(await signInEntries(name), ['ok']);

    // The session holds what each request resolves her by, in the database; no token of the provider.
    const sessions = JSON.stringify(await store.db.selectFrom('console_sessions').select('data').execute());
    assert.match(sessions, /"operatorFrom":"oidc"/);
    assert.match(sessions, /"claimed":\{"role":"operator","tenants":\["clinic-a"\]\}/);
    assert.doesNotMatch(sessions, /eyJ[A-Za-z0-9_-]{10,}/, 'no JWT');
    assert.doesNotMatch(sessions, /codeVerifier/, 'nothing of the finished sign-in');
  });

  it('signs in a confidential client with its secret; a viewer of the claims sees patient data masked', async () => {
    const vic = person('vic', { eligibility_role: 'viewer', eligibility_tenants: `${B}, ${A}` });
    const { browser, landing } = await signInThrough(confidential, vic);
    assert.equal(landing.status, 303);
    const shown = await page(confidential, browser, `/verifications/${b.workflowId}`);
    assert.equal(shown.status, 200);
    const body = await shown.text();
    assert.match(body, /••••4567/, 'the member id by its last four');
    assert.doesNotMatch(body, /M1234567/);
    assert.match(body, /\(viewer\)/);
  });

  it('refuses a tampered state and a replayed callback, audited as refused sign-ins naming nobody', async () => {
    const denied = () => trail.list({ actor: 'operator:?', action: 'operator.sign-in' });
    const deniedBefore = (await denied()).length;
    const { browser, callback } = await toCallback(console, person('tom', { eligibility_role: 'admin' }));
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    const refused = await browser.request(tampered.href);
    assert.equal(refused.status, 401);
    assert.match(await refused.text(), /The answer from Clinic Group could not be verified, so nobody was signed in/);
    // The sign-in under way is used up: the genuine callback opened after it is refused too.
    assert.equal((await browser.request(callback)).status, 401);
    assert.equal((await page(console, browser, '/awaiting-input')).status, 303, 'not signed in');
    const entries = await denied();
    assert.equal(entries.length, deniedBefore + 2);
    assert.ok(entries.every((e) => e.outcome === 'denied'));
    assert.deepEqual(await signInEntries('oidc:tom@clinic.example'), [], 'nobody named');
  });

  it('refuses a person without a role claim or without tenants, recorded by name and nothing else', async () => {
    const nora = person('nora', { eligibility_tenants: [A] });
    const { browser, landing } = await signInThrough(console, nora);
    assert.equal(landing.status, 401);
    assert.equal((await page(console, browser, '/awaiting-input')).status, 303, 'not signed in');
    const [entry] = await trail.list({ actor: 'operator:oidc:nora@clinic.example', action: 'operator.sign-in' });
    assert.equal(entry?.outcome, 'denied');
    assert.equal(entry?.tenant, null, 'no claim value recorded');
    assert.deepEqual(entry?.fields, []);

    const nils = person('nils', { eligibility_role: 'admin', eligibility_tenants: [] });
    assert.equal((await signInThrough(console, nils)).landing.status, 401);
    assert.deepEqual(await signInEntries('oidc:nils@clinic.example'), ['denied']);
    const logs = console.logs.join('');
    assert.match(logs, /"reason":"role-claim-missing"/);
    assert.match(logs, /"reason":"tenants-claim-missing"/);
    assert.doesNotMatch(logs, /eyJ[A-Za-z0-9_-]{10,}|code_verifier|codeVerifier/, 'no token in the log');
  });

  it("takes a directory entry of the person's name over their claims", async () => {
    await directory.create({ name: 'oidc:omar@clinic.example', role: 'viewer', tenants: [B], by: 'test' });
    const omar = person('omar', { eligibility_role: 'admin', eligibility_tenants: '*' });
    const { browser, landing } = await signInThrough(console, omar);
    assert.equal(landing.status, 303);
    assert.equal((await page(console, browser, `/verifications/${a.workflowId}`)).status, 404, 'tenant B only');
    const theirs = await (await page(console, browser, `/verifications/${b.workflowId}`)).text();
    assert.match(theirs, /••••4567/, 'a viewer, not the admin of the claims');
    // The entry has no password: nobody signs in as it with the password form.
    await assert.rejects(signInAs(console, { name: 'oidc:omar@clinic.example', password: '' }), /401/);
  });

  it("ends a person's session at their next request once their directory entry is disabled", async () => {
    await directory.create({ name: 'oidc:dan@clinic.example', role: 'operator', tenants: [A], by: 'test' });
    const dan = person('dan', { eligibility_role: 'operator', eligibility_tenants: [A] });
    const { browser } = await signInThrough(console, dan);
    assert.equal((await page(console, browser, '/awaiting-input')).status, 200);
    await directory.disable('oidc:dan@clinic.example');
    const gone = await page(console, browser, '/awaiting-input');
    assert.equal(gone.status, 303);
    assert.equal(gone.headers.get('location'), `/sign-in?next=${encodeURIComponent('/awaiting-input')}`);
    assert.equal((await signInThrough(console, dan)).landing.status, 401, 'and their claims do not let them back');
    assert.deepEqual(await signInEntries('oidc:dan@clinic.example'), ['ok', 'denied']);
  });

  // An operator of tenant A made admin of every tenant on the way from the token endpoint: each is refused, recorded
  // as a refused sign-in naming nobody, and answered without a trace of the token.
  const elevated = { eligibility_role: 'admin', eligibility_tenants: '*' };
  const forged = [
    { what: 'a payload changed under its signature', tamper: () => changedUnderItsSignature(elevated) },
    { what: 'a token signed by another key', tamper: () => signedByAnotherKey(provider.signingKey.kid, elevated) },
    { what: 'a token with alg none', tamper: () => unsigned(elevated) },
    {
      what: 'a token issued an hour ahead, signed by the provider',
      tamper: () =>
        signedWith(provider.signingKey.key, provider.signingKey.kid, { iat: Math.floor(Date.now() / 1000) + 3600 }),
    },
  ];
  for (const { what, tamper } of forged) {
    it(`refuses ${what}`, async () => {
      const denied = async () => (await trail.list({ actor: 'operator:?', action: 'operator.sign-in' })).length;
      const deniedBefore = await denied();
      provider.tamperNextIdToken(tamper());
      const eve = person('eve', { eligibility_role: 'operator', eligibility_tenants: [A] });
      const { browser, landing } = await signInThrough(console, eve);
      assert.equal(landing.status, 401);
      const body = await landing.text();
      assert.match(body, /could not be verified, so nobody was signed in/);
      assert.doesNotMatch(body, /eyJ/, 'no token in the page');
      assert.equal((await page(console, browser, '/awaiting-input')).status, 303, 'not signed in');
      assert.equal(await denied(), deniedBefore + 1, 'recorded');
      assert.deepEqual(await signInEntries('oidc:eve@clinic.example'), [], 'nobody named');
      assert.doesNotMatch(console.logs.join(''), /eyJ[A-Za-z0-9_-]{10,}/, 'no token in the log');
    });
  }

  it('takes the signed token of the same sign-in, unchanged', async () => {
    provider.tamperNextIdToken(signedWith(provider.signingKey.key, provider.signingKey.kid));
    const { landing } = await signInThrough(
      console,
      person('eli', { eligibility_role: 'viewer', eligibility_tenants: [A] }),
    );
    assert.equal(landing.status, 303, 'the crafting itself is not what the refusals above refuse');
  });

  it('lends nobody an entry by an unverified email, and binds an entry to the first verified identity', async () => {
    await directory.create({ name: 'oidc:dave@clinic.example', role: 'admin', tenants: [A, B], by: 'test' });
    const identity = async () =>
      store.db
        .selectFrom('operators')
        .select(['oidc_issuer', 'oidc_subject'])
        .where('name', '=', 'oidc:dave@clinic.example')
        .executeTakeFirstOrThrow();
    // Her provider account says dave@ without vouching for it (absent, then false): she is her subject, by her claims.
    for (const verified of [{}, { email_verified: false }]) {
      const mia = {
        id: 'mia',
        claims: { email: 'dave@clinic.example', ...verified, eligibility_role: 'viewer', eligibility_tenants: [B] },
      };
      const { browser, landing } = await signInThrough(console, mia);
      assert.equal(landing.status, 303);
      const shown = await (await page(console, browser, `/verifications/${b.workflowId}`)).text();
      assert.ok(shown.includes('Signed in as <strong>oidc:mia</strong> (viewer)'), 'her subject and her claims');
      assert.equal((await page(console, browser, `/verifications/${a.workflowId}`)).status, 404, "not Dave's tenants");
    }
    assert.deepEqual(await identity(), { oidc_issuer: null, oidc_subject: null }, 'not bound to her');
    assert.deepEqual(await signInEntries('oidc:dave@clinic.example'), [], 'the trail never names her as Dave');
    assert.deepEqual(await signInEntries('oidc:mia'), ['ok', 'ok']);

    // Dave, verified, takes his entry and binds it; another account verified for the same address later cannot.
    const dave = person('dave', { eligibility_role: 'viewer', eligibility_tenants: [B] });
    const { browser } = await signInThrough(console, dave);
    assert.match(await (await page(console, browser, `/verifications/${a.workflowId}`)).text(), /\(admin\)/);
    assert.deepEqual(await identity(), { oidc_issuer: provider.issuer, oidc_subject: 'dave' });
    const other = person('dave-2', {
      email: 'dave@clinic.example',
      eligibility_role: 'admin',
      eligibility_tenants: '*',
    });
    assert.equal((await signInThrough(console, other)).landing.status, 401);
    assert.deepEqual(await signInEntries('oidc:dave-2'), ['denied'], 'refused under its own subject');
    assert.deepEqual(await signInEntries('oidc:dave@clinic.example'), ['ok']);
    assert.match(console.logs.join(''), /"reason":"identity-of-another"/);
  });

  it('still signs in with a password beside it', async () => {
    const cookie = await signIn(console);
    const res = await console.app.inject({ method: 'GET', url: '/awaiting-input', headers: { cookie } });
    assert.equal(res.statusCode, 200);
  });
});

describe('console OpenID Connect settings', () => {
  const problems = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ConfigError) return err.problems.map((p) => p.variable).join();
      throw err;
    }
    return '';
  };

  it('names the variable of a missing, unsafe or malformed setting', () => {
    const secret = { CONSOLE_SESSION_SECRET: randomBytes(32).toString('hex') };
    assert.equal(
      problems(() => loadConfig('console', { OIDC_ISSUER: 'http://idp.example' })),
      'OIDC_ISSUER',
      'http off this host',
    );
    assert.equal(
      problems(() => loadConfig('console', { OIDC_SCOPES: 'profile email' })),
      'OIDC_SCOPES',
      'openid missing',
    );
    assert.equal(
      problems(() => loadConfig('console', { OIDC_REDIRECT_URL: 'https://console.example/cb' })),
      'OIDC_REDIRECT_URL',
    );
    const issuerOnly = loadConfig('console', { ...secret, OIDC_ISSUER: 'https://idp.example' });
    assert.equal(
      problems(() => requireConsoleSecrets(issuerOnly.console)),
      'OIDC_CLIENT_ID',
    );
    const clientOnly = loadConfig('console', { ...secret, OIDC_CLIENT_ID: 'console' });
    assert.equal(
      problems(() => requireConsoleSecrets(clientOnly.console)),
      'OIDC_ISSUER,CONSOLE_OPERATORS',
    );
    // The provider alone is enough operators: no CONSOLE_OPERATORS, no database.
    const oidcOnly = loadConfig('console', {
      ...secret,
      OIDC_ISSUER: 'https://idp.example',
      OIDC_CLIENT_ID: 'console',
    });
    assert.equal(requireConsoleSecrets(oidcOnly.console).oidc?.redirectUrl, undefined);
  });

  it('answers 503 on the sign-in form when the provider cannot be reached, and keeps the password form', async () => {
    const down = await startTestConsole(testTemporal().client, {
      env: { OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'console' },
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/sign-in/oidc', headers: { accept: 'text/html' } });
      assert.equal(res.statusCode, 503);
      assert.match(res.body, /cannot be reached for sign-in just now/);
      assert.match(res.body, /name="password"/);
    } finally {
      await down.close();
    }
  });
});
