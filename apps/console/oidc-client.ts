import * as oidc from 'openid-client';
import type { OidcConfig } from '../../src/config.js';

/** Where a sign-in through the provider starts (the sign-in form links to it); it comes back to OIDC_CALLBACK_PATH. */
export const OIDC_START_PATH = '/sign-in/oidc';

/** OIDC_* once requireConsoleSecrets has checked them: an issuer and the console's client id there. */
export type OidcSettings = OidcConfig & { issuer: string; clientId: string };

/** What the callback of one sign-in must match, kept in the session between leaving for the provider and coming back. */
export interface OidcPending {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The redirect_uri the authorization request named; the token request must name the same. */
  redirectUrl: string;
  /** Where to go once signed in (a path of this console). */
  next: string;
}

/** The claims of a person as the provider vouched for them: its ID token's, with its userinfo's where those lack one. */
export type OidcClaims = Readonly<Record<string, unknown>>;

/**
 * The console as a relying party of the organisation's OpenID Connect provider, through openid-client (decision 39):
 * discovery, authorization code with PKCE (S256), state and nonce, and the ID token's signature, issuer, audience and
 * times checked by the library, never by hand. The provider's metadata is read at the first sign-in, not at start
 * (a provider down then does not stop the console; the password form still works), and again after a failure.
 */
export class OidcClient {
  private discovered?: Promise<oidc.Configuration>;

  constructor(readonly settings: OidcSettings) {}

  private configuration(): Promise<oidc.Configuration> {
    this.discovered ??= this.discover().catch((err: unknown) => {
      this.discovered = undefined;
      throw err;
    });
    return this.discovered;
  }

  private discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const url = new URL(issuer);
    // openid-client refuses http; OIDC_ISSUER allows it only for a provider on this machine (tests, a local trial).
    const execute = url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    // client_secret_basic is OpenID Connect's default for a confidential client; without a secret, PKCE alone.
    const auth = clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
    return oidc.discovery(url, clientId, undefined, auth, { execute });
  }

  /** The provider's authorization URL for a new sign-in, and what its callback must match. */
  async start(redirectUrl: string, next: string): Promise<{ url: URL; pending: OidcPending }> {
    const config = await this.configuration();
    const pending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      redirectUrl,
      next,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUrl,
      scope: this.settings.scopes,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, pending };
  }

  /**
   * Exchanges the callback's code for tokens (state, PKCE, nonce and the ID token verified) and answers the person's
   * claims: the ID token's, and the userinfo endpoint's (for the same subject) where the ID token has none, since many
   * providers keep the claims of scopes such as `email` out of ID tokens. The tokens themselves are not kept: the
   * console calls no API of the provider.
   */
  async complete(search: string, pending: OidcPending): Promise<OidcClaims> {
    const config = await this.configuration();
    const callback = new URL(pending.redirectUrl);
    callback.search = search;
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new TypeError('the provider answered without an ID token');
    if (!config.serverMetadata().userinfo_endpoint) return idToken;
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return { ...userinfo, ...idToken };
  }
}
