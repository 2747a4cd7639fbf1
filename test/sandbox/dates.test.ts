import assert from 'node:assert/strict';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { v1Request } from '../../testing/fixtures.js';
import { call, client, discoveryBody, v2Body } from './helpers.js';

describe('sandbox: dates of birth as the service would check them', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;

  before(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox, await sandbox.token());
  });
  after(() => sandbox.close());

  const withDob = (dateOfBirth: string) => v2Body({ id: 'dob-check', patient: { ...v2Body().patient, dateOfBirth } });

  it('refuses a v2 patient born on a day that does not exist or in the future, naming the field and echoing the id', async () => {
    for (const date of ['02/30/2020', '04/31/2019', '02/29/2019', '12/31/2099']) {
      const response = await api.verifyV2(withDob(date));
      assert.equal(response.status, 400, date);
      assert.deepEqual(response.body, {
        error: 'invalid_request_error',
        param: 'patient.dateOfBirth',
        id: 'dob-check',
      });
    }
    const leapDay = await api.verifyV2(withDob('02/29/2020'));
    assert.equal(leapDay.status, 201);
    assert.equal((await sandbox.stats()).verificationsCreated, 1, 'only the real date created a verification');
  });

  it('refuses an impossible subscriber date of birth on v1 and v2', async () => {
    const subscriber = { firstName: 'Sam', lastName: 'Quinn', dateOfBirth: '02/29/2019' };
    const v2 = await api.verifyV2(v2Body({ subscriber }));
    assert.deepEqual([v2.status, (v2.body as { param: string }).param], [400, 'subscriber.dateOfBirth']);
    const v1 = await api.post('/v1/verifications', { ...v1Request(), subscriber });
    assert.deepEqual(v1.body, { error: 'invalid_request_error', param: 'subscriber.dateOfBirth' });
  });

  it('refuses a sandbox discovery for a patient born in the future', async () => {
    const response = await call(sandbox, 'POST', '/sandbox/discoveries', {
      body: discoveryBody({ dateOfBirth: '12/31/2099' }),
    });
    assert.deepEqual([response.status, response.body], [400, { error: 'invalid_request_error', param: 'dateOfBirth' }]);
  });
});
