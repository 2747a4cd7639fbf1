import * as oidc from 'openid-client';
import type { OidcConfig } from '../../src/config.js';

/** Where a sign-in through the provider starts (the sign-in form links to it); it comes back to OIDC_CALLBACK_PATH. */
export const OIDC_START_PATH = '/sign-in/oidc';

/** How far the provider's clock may be from this one, in seconds: for the ID token's `exp`, `nbf` and `iat`. */
export const CLOCK_TOLERANCE_S = 30;

/** OIDC_* once requireConsoleSecrets has checked them: an issuer and the console's client id there. */
export type OidcSettings = OidcConfig & { issuer: string; clientId: string };

/** What the callback of one sign-in must match, kept in a cookie of its own between leaving and coming back. */
export interface OidcPending {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The redirect_uri the authorization request named; the token request must name the same. */
  redirectUrl: string;
  /** Where to go once signed in (a path of this console). */
  next: string;
}

/** The claims of a person as the provider signed them: its ID token's, verified. */
export type OidcClaims = Readonly<Record<string, unknown>> & { iss: string; sub: string };

/** An ID token that passed the library's checks but not the console's own (`reason` is logged, nothing of the token). */
export class IdTokenRefused extends Error {
  override name = 'IdTokenRefused';
  constructor(readonly reason: 'no-id-token' | 'issued-in-the-future') {
    super(`ID token refused: ${reason}`);
  }
}

/**
 * The console as a relying party of the organisation's OpenID Connect provider, through openid-client (decisions 39
 * and 81): discovery, authorization code with PKCE (S256), state and nonce, and an ID token believed only once its
 * signature verifies against the provider's published keys (`enableNonRepudiationChecks`: TLS to the token endpoint
 * is not enough where a TLS-inspecting proxy sits between). The provider's metadata is read at the first sign-in, not
 * at start (a provider down then does not stop the console; the password form still works), and again after a failure.
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
    const insecure = url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    const execute = [...insecure, oidc.enableNonRepudiationChecks];
    // client_secret_basic is OpenID Connect's default for a confidential client; without a secret, PKCE alone.
    const auth = clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
    return oidc.discovery(url, clientId, { [oidc.clockTolerance]: CLOCK_TOLERANCE_S }, auth, { execute });
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
   * Exchanges the callback's code for tokens and answers the ID token's claims once every check passed: state, PKCE
   * and nonce; the signature against the provider's JWKS (an asymmetric algorithm the provider lists, never `none` or
   * a shared-secret HS*); `iss`, `aud` and `azp`; `exp` and `nbf`, and `iat` not ahead of this clock, each within
   * CLOCK_TOLERANCE_S. Userinfo is not read: its answer is not signed, and only what the provider signed is believed.
   * The tokens themselves are not kept: the console calls no API of the provider.
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
    if (!idToken) throw new IdTokenRefused('no-id-token');
    // The library checks that `iat` is a number, not when it was: a token from the future was made to be replayed.
    if (idToken.iat > Date.now() / 1000 + CLOCK_TOLERANCE_S) throw new IdTokenRefused('issued-in-the-future');
    return idToken;
  }
}
