import assert from 'node:assert/strict';
import { EventEndpoints } from '../../src/events/endpoints.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';

// A 410 is answered to the endpoint as it was when the attempt began: an operator who re-enabled it since must not see
// it disabled again by that late answer (nor later events skipped for it).
describe('disabling an endpoint for a failure seen at a moment', function () {
  let endpoints: EventEndpoints;
  before(async () => {
    endpoints = new EventEndpoints(await testStore(), new SecretBox(testCodecKeys()));
  });

  async function created() {
    const { endpoint } = await endpoints.create({
      tenant: 'tenant-disable',
      url: 'https://receiver.example/hooks',
      events: ['verification.created'],
    });
    return endpoint.id;
  }

  it('disables an endpoint unchanged since the failure was seen', async () => {
    const id = await created();
    const seenAt = new Date(Date.now() + 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(await endpoints.disable(id, 'gone', seenAt), true);
    assert.equal(await endpoints.isActive(id), false);
  });

  it('leaves alone an endpoint re-enabled after the failure was seen', async () => {
    const id = await created();
    await endpoints.disable(id, 'gone');
    const seenAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await endpoints.update(id, null, { disabled: false });
    assert.equal(await endpoints.disable(id, 'gone', seenAt), false);
    assert.equal(await endpoints.isActive(id), true);
  });
});
