import { html } from './html.js';
import { hiddenCsrf, page } from './layout.js';

export function signInView(options: { csrf: string; next: string; failed?: boolean; name?: string }): string {
  return page(
    { title: 'Sign in' },
    html`<form method="post" action="/sign-in" class="card narrow">
      ${hiddenCsrf(options.csrf)}
      <input type="hidden" name="next" value="${options.next}" />
      ${options.failed ? html`<p class="error" role="alert" id="sign-in-error">The name or the password is wrong.</p>` : ''}
      <p>
        <label for="name">Operator name</label>
        <input
          id="name"
          name="name"
          autocomplete="username"
          required
          value="${options.name ?? ''}"
          ${options.failed ? html`aria-describedby="sign-in-error"` : ''}
          autofocus
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
