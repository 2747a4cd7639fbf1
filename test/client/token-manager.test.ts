import assert from 'node:assert/strict';
import type { AccessToken } from '../../src/contract/index.js';
import { TokenManager } from '../../src/client/token-manager.js';

function fakeTokenEndpoint(expiresIn = 100) {
  let issued = 0;
  const fetchToken = async (): Promise<AccessToken> => {
    await new Promise((resolve) => setImmediate(resolve));
    issued += 1;
    return { access_token: `token-${issued}`, token_type: 'Bearer', expires_in: expiresIn };
  };
  return { fetchToken, issued: () => issued };
}

describe('TokenManager', () => {
  it('shares one in-flight token request among concurrent callers', async () => {
    const endpoint = fakeTokenEndpoint();
    const tokens = new TokenManager(endpoint.fetchToken);
    const got = await Promise.all(Array.from({ length: 50 }, () => tokens.get()));
    assert.equal(endpoint.issued(), 1);
    assert.ok(got.every((t) => t === 'token-1'));
  });

  it('refreshes at 80% of expires_in', async () => {
    let now = 0;
    const endpoint = fakeTokenEndpoint(100);
    const tokens = new TokenManager(endpoint.fetchToken, () => now);
    assert.equal(await tokens.get(), 'token-1');
    now = 79_999;
    assert.equal(await tokens.get(), 'token-1');
    now = 80_000;
    assert.equal(await tokens.get(), 'token-2');
  });

  it('drops only the token that was rejected', async () => {
    const endpoint = fakeTokenEndpoint();
    const tokens = new TokenManager(endpoint.fetchToken);
    const first = await tokens.get();
    tokens.invalidate(first);
    const second = await tokens.get();
    assert.equal(second, 'token-2');
    tokens.invalidate(first); // a late 401 of a call made with the old token
    assert.equal(await tokens.get(), 'token-2');
    assert.equal(endpoint.issued(), 2);
  });

  it('does not keep a failed token request', async () => {
    let fail = true;
    const tokens = new TokenManager(() =>
      fail
        ? Promise.reject(new Error('token endpoint down'))
        : Promise.resolve({ access_token: 'ok', token_type: 'Bearer' as const, expires_in: 100 }),
    );
    await assert.rejects(tokens.get(), /token endpoint down/);
    fail = false;
    assert.equal(await tokens.get(), 'ok');
  });
});
