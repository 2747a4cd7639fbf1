import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person of the test provider: their account id (the `login` typed in its sign-in form) and their claims. */
export interface TestAccount {
  id: string;
  claims: Record<string, unknown>;
}

/** A client of the test provider: the console's client id, redirect URL and, for a confidential client, its secret. */
export interface TestClient {
  clientId: string;
  redirectUrl: string;
  secret?: string;
}

/** The certified `oidc-provider` on a free port of 127.0.0.1, with the development sign-in and consent forms. */
export interface TestOidcProvider {
  issuer: string;
  /** Registers the clients (the consoles' redirect URLs are known once they listen) and starts answering. */
  serve(clients: readonly TestClient[]): void;
  /** Adds or replaces a person. */
  account(account: TestAccount): void;
  /**
   * Rewrites the ID token of the token endpoint's next answer on its way out (the console still fetches it over HTTP
   * from this provider): a man in the middle of the token request, or a provider's key taken.
   */
  tamperNextIdToken(tamper: (idToken: string) => string | Promise<string>): void;
  /** The key the provider signs ID tokens with, and its `kid`: to sign a crafted token as the provider would. */
  signingKey: { key: KeyObject; kid: string };
  close(): Promise<void>;
}

/**
 * Starts listening first: the issuer URL holds the port, the consoles are configured with it, and the provider itself
 * is built once the consoles' redirect URLs are known. Every client must use PKCE.
 */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  const accounts = new Map<string, TestAccount>();
  const tamperings: ((idToken: string) => string | Promise<string>)[] = [];
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'provider-key';
  const server: Server = createServer((_request, response) => {
    response.writeHead(503).end('not serving yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    serve(clients) {
      const provider = new Provider(issuer, {
        clients: clients.map((c) => ({
          client_id: c.clientId,
          redirect_uris: [c.redirectUrl],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          ...(c.secret
            ? { client_secret: c.secret, token_endpoint_auth_method: 'client_secret_basic' }
            : { token_endpoint_auth_method: 'none' }),
        })),
        pkce: { required: () => true },
        // Every claim of the scopes asked for in the ID token: the console believes only what the provider signed.
        conformIdTokenClaims: false,
        // The role and tenants come with `openid`: the console asks only for its default scopes.
        claims: {
          openid: ['sub', 'eligibility_role', 'eligibility_tenants'],
          email: ['email', 'email_verified'],
        },
        findAccount: (_ctx, id) => {
          const account = accounts.get(id);
          return account && { accountId: id, claims: () => ({ sub: id, ...account.claims }) };
        },
        features: { devInteractions: { enabled: true } },
        cookies: { keys: [randomBytes(24).toString('base64url')] },
        jwks: {
          keys: [{ ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
        },
        // Short lives stated, so the provider does not remark on its defaults.
        ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
      });
      server.removeAllListeners('request');
      const answer = provider.callback();
      server.on('request', (request, response) => {
        const tamper = request.url?.startsWith('/token') ? tamperings.shift() : undefined;
        if (tamper) rewriteIdToken(response, tamper);
        void answer(request, response);
      });
    },
    account(account) {
      accounts.set(account.id, account);
    },
    tamperNextIdToken(tamper) {
      tamperings.push(tamper);
    },
    signingKey: { key: privateKey, kid },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Holds the token answer's body (the provider writes it whole, in one `end`) and sends it with its ID token rewritten. */
function rewriteIdToken(response: ServerResponse, tamper: (idToken: string) => string | Promise<string>): void {
  const end = response.end.bind(response) as (body: string) => ServerResponse;
  response.end = ((chunk: unknown) => {
    const answer = JSON.parse(String(chunk)) as { id_token?: string };
    void Promise.resolve(answer.id_token ? tamper(answer.id_token) : undefined).then((idToken) => {
      const body = JSON.stringify({ ...answer, ...(idToken ? { id_token: idToken } : {}) });
      response.setHeader('content-length', Buffer.byteLength(body));
      end(body);
    });
    return response;
  }) as typeof response.end;
}
