import { html } from './html.js';
import { hiddenCsrf, page } from './layout.js';

export interface SignInOptions {
  csrf: string;
  next: string;
  /** What failed: the password form, a sign-in through the provider, or reaching the provider at all. */
  failed?: 'password' | 'oidc' | 'oidc-unverified' | 'oidc-unreachable' | 'throttled';
  name?: string;
  /** With `throttled`: how long the form asks the person to wait. */
  waitSeconds?: number;
  /** The organisation's OpenID Connect provider, when configured: a button beside the password form. */
  oidc?: { displayName: string };
}

/** `40 seconds`, `15 minutes`, `1 hour`: a wait as a person reads it, rounded up. */
function waitInWords(seconds: number): string {
  const [count, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function failure(options: SignInOptions): string {
  const provider = options.oidc?.displayName ?? 'your organisation';
  switch (options.failed) {
    case 'password':
      return 'The name or the password is wrong.';
    case 'oidc':
      return `Signing in with ${provider} did not let you in to the console. If it happens again, ask an administrator for a console role and tenants.`;
    case 'oidc-unverified':
      return `The answer from ${provider} could not be verified, so nobody was signed in. Start again; if it happens again, tell an administrator.`;
    case 'throttled':
      return `Too many failed sign-ins. Wait ${waitInWords(options.waitSeconds ?? 1)} before trying again.`;
    case 'oidc-unreachable':
      return `${provider} cannot be reached for sign-in just now. Try again in a moment.`;
    default:
      return '';
  }
}

export function signInView(options: SignInOptions): string {
  const passwordFailed = options.failed === 'password';
  const error = options.failed ? html`<p class="error" role="alert" id="sign-in-error">${failure(options)}</p>` : '';
  // A link, not a form: the provider is another origin, and the page's form-action policy allows this one only.
  const provider = options.oidc
    ? html`<p>
          <a class="button" href="/sign-in/oidc?next=${encodeURIComponent(options.next)}"
            >Sign in with ${options.oidc.displayName}</a
          >
        </p>
        <p>Or with an operator name and password:</p>`
    : '';
  return page(
    { title: 'Sign in' },
    html`<form method="post" action="/sign-in" class="card narrow">
      ${hiddenCsrf(options.csrf)}
      <input type="hidden" name="next" value="${options.next}" />
      ${error} ${provider}
      <p>
        <label for="name">Operator name</label>
        <input
          id="name"
          name="name"
          autocomplete="username"
          required
          value="${options.name ?? ''}"
          ${passwordFailed ? html`aria-describedby="sign-in-error"` : ''}
          ${options.oidc ? '' : html`autofocus`}
        />
      </p>
      <p>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
      </p>
      <p><button type="submit">Sign in</button></p>
    </form>`,
  );
}
