import assert from 'node:assert/strict';
import { verifyCodecToken } from '../../src/access/codec-tokens.js';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import {
  csrfFrom,
  getPage,
  postForm,
  signIn,
  signInAs,
  startTestConsole,
  type TestConsole,
} from '../../testing/console-app.js';

const SECRET = 'a-pass-secret-of-at-least-32-characters';
const PASSWORD = 'a long password here';

/** The console's Temporal UI page: each person's own pass to the codec server, recorded, never for a viewer. */
describe('console: a pass to the codec server for Temporal UI', function () {
  this.timeout(30_000);
  let store: Store;
  let trail: AuditTrail;
  let withSecret: TestConsole;
  let withoutSecret: TestConsole;

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ name: 'ana', role: 'operator', tenants: ['clinic-a'], password: PASSWORD, by: 'test' });
    await directory.create({ name: 'vi', role: 'viewer', tenants: ['clinic-a'], password: PASSWORD, by: 'test' });
    const env = { CODEC_TOKEN_SECRET: SECRET, CODEC_SERVER_URL: 'https://codec.example/' };
    withSecret = await startTestConsole(testTemporal().client, { env, audit: trail, directory });
    withoutSecret = await startTestConsole(testTemporal().client, { audit: trail, directory });
  });
  after(async () => {
    await withSecret?.close();
    await withoutSecret?.close();
    await store?.close();
  });

  /** Signs in, opens the page, asks for a pass; the answer and the pass in it, if any. */
  async function askForPass(console: TestConsole, cookie: string) {
    const form = await getPage(console, '/temporal-ui', cookie);
    assert.equal(form.statusCode, 200);
    const answer = await postForm(console, '/temporal-ui/pass', cookie, { _csrf: csrfFrom(form.body) });
    const pass = /https:\/\/codec\.example\/p\/([\w.-]+)/.exec(answer.body)?.[1];
    return { form, answer, pass };
  }

  it("gives an operator a pass in their name, with the directory's role and tenants, and records it", async () => {
    const { form, answer, pass } = await askForPass(
      withSecret,
      await signInAs(withSecret, { name: 'ana', password: PASSWORD }),
    );
    assert.match(form.body, /Make my pass/);
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.ok(pass, 'the endpoint holds the pass');
    assert.match(answer.body, new RegExp(`--codec-auth &quot;Bearer ${pass}&quot;`));
    assert.deepEqual(await verifyCodecToken(SECRET, pass), {
      name: 'ana',
      role: 'operator',
      tenants: ['clinic-a'],
      source: 'directory',
    });
    const [entry] = await trail.list({ actor: 'operator:ana', action: 'codec.pass' });
    assert.equal(entry?.outcome, 'ok');
  });

  it('gives a CONSOLE_OPERATORS administrator a pass of every tenant, as the pass says', async () => {
    const { pass } = await askForPass(withSecret, await signIn(withSecret));
    assert.ok(pass);
    const person = await verifyCodecToken(SECRET, pass);
    assert.deepEqual([person?.role, person?.tenants, person?.source], ['admin', null, 'config']);
  });

  it('gives a viewer none, and says why', async () => {
    const { form, answer, pass } = await askForPass(
      withSecret,
      await signInAs(withSecret, { name: 'vi', password: PASSWORD }),
    );
    assert.match(form.body, /cannot mask patient data/);
    assert.doesNotMatch(form.body, /Make my pass/);
    assert.equal(answer.statusCode, 403);
    assert.equal(pass, undefined);
    // No pass made; the refusal is on record (decision 84).
    assert.deepEqual(
      (await trail.list({ actor: 'operator:vi', action: 'codec.pass' })).map((e) => e.outcome),
      ['denied'],
    );
  });

  it('says so when the console has no CODEC_TOKEN_SECRET, and makes none', async () => {
    const { form, answer, pass } = await askForPass(withoutSecret, await signIn(withoutSecret));
    assert.match(form.body, /cannot make passes/);
    assert.equal(answer.statusCode, 403);
    assert.equal(pass, undefined);
  });
});
