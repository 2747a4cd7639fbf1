/**
 * A browser, as far as the OpenID Connect sign-in needs one: fetch with redirects followed by hand and a cookie jar
 * per origin (cookie paths and lifetimes beyond deletion are not needed between one console and one provider).
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  private jar(url: string): Map<string, string> {
    const { origin } = new URL(url);
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    return jar;
  }

  /** The `cookie` header this browser sends to `url`'s origin. */
  cookie(url: string): string {
    return [...this.jar(url)].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One request, no redirect followed; the answer's cookies are kept. */
  async request(url: string, form?: Record<string, string>): Promise<Response> {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        accept: 'text/html',
        cookie: this.cookie(url),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const jar = this.jar(url);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
}

/** Where a redirect answer sends the browser, as an absolute URL. */
export function locationOf(response: Response, from: string): string {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, from).href;
}

/**
 * Walks the provider's side of a sign-in from its authorization URL: redirects, the development sign-in form (as
 * `login`) and the consent form, until the provider sends the browser back to `callbackPrefix`. Answers that URL,
 * not yet opened, so a test may open it as it is or tampered.
 */
export async function throughProvider(
  browser: TestBrowser,
  authorizationUrl: string,
  login: string,
  callbackPrefix: string,
): Promise<string> {
  let url = authorizationUrl;
  for (let step = 0; step < 20; step += 1) {
    if (url.startsWith(callbackPrefix)) return url;
    const response = await browser.request(url);
    if (response.status === 302 || response.status === 303) {
      url = locationOf(response, url);
      continue;
    }
    const body = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status} at ${url}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(body)?.[1];
    const prompt = /name="prompt" value="(login|consent)"/.exec(body)?.[1];
    if (!action || !prompt) throw new Error(`no sign-in or consent form at ${url}`);
    const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    const posted = await browser.request(new URL(action, url).href, form);
    url = locationOf(posted, url);
  }
  throw new Error('the provider did not send the browser back');
}
