import { html, type Html } from './html.js';
import { hiddenCsrf } from './layout.js';

const uiLink = (uiUrl: string | undefined) =>
  uiUrl ? html`<a href="${uiUrl}" rel="noopener noreferrer">Temporal UI</a>` : html`Temporal UI`;

/** What a pass is for, and the button that makes one (an operator or administrator with the codec server set up). */
export function temporalUiView(view: {
  csrf: string;
  role: string;
  configured: boolean;
  uiUrl: string | undefined;
}): Html {
  const intro = html`<p>
    ${uiLink(view.uiUrl)} shows each workflow's history. Patient data in it is encrypted; the codec server decrypts it
    for you, in your name, for the workflows of your tenants only, and records every look in the audit trail.
  </p>`;
  if (view.role === 'viewer') {
    return html`${intro}
      <p>As a viewer you see payloads encrypted there: Temporal UI cannot mask patient data as this console does.</p>`;
  }
  if (!view.configured) {
    return html`${intro}
      <p>
        This console cannot make passes: <code>CODEC_TOKEN_SECRET</code> (the codec server's) is not set for it. Ask an
        administrator, or run <code>eligibility codec-pass &lt;operator&gt;</code>.
      </p>`;
  }
  return html`${intro}
    <form method="post" action="/temporal-ui/pass">
      ${hiddenCsrf(view.csrf)}
      <button type="submit">Make my pass</button>
    </form>`;
}

/** The pass, shown once: the endpoint to set in Temporal UI and the flags for the Temporal CLI. */
export function passView(view: { codecUrl: string; pass: string; hours: number; uiUrl: string | undefined }): Html {
  const endpoint = `${view.codecUrl}/p/${view.pass}`;
  return html`<p>
      Your pass is valid for ${view.hours} h. It is yours alone: whoever holds it reads patient data in your name.
    </p>
    <h2>In Temporal UI</h2>
    <ol>
      <li>Open ${uiLink(view.uiUrl)}, then its codec server settings (the "Codec Server" item of its menu).</li>
      <li>Set this endpoint for this browser, and leave "Pass access token" off:</li>
    </ol>
    <label for="endpoint">Codec server endpoint</label>
    <input id="endpoint" type="text" readonly value="${endpoint}" />
    <h2>With the Temporal CLI</h2>
    <label for="cli">Options</label>
    <input
      id="cli"
      type="text"
      readonly
      value="${`--codec-endpoint ${view.codecUrl} --codec-auth "Bearer ${view.pass}"`}"
    />`;
}
