import type { RequestedInput } from '../../../workflows/verification/verification.js';
import { html, type Html } from './html.js';
import { hiddenCsrf } from './layout.js';

/** A refusal to show beside the field it concerns: the field at fault, in words, and what the operator had sent. */
export interface RunFormError {
  flowRunId: string;
  /** The field at fault as the service or the check named it (`input`, `input.authorizationNumber`). */
  param?: string;
  /** Why, in words. */
  reason: string;
  /** The JSON typed in the advanced box, shown again. */
  text: string;
  /** The values typed in the fields, shown again. */
  values?: Record<string, string>;
}

/** The form posts each asked-for field under this prefix, so no field name can clash with the form's own. */
export const FIELD_PREFIX = 'field.';

/** `authorizationNumber` → `Authorization number`: the label people read; the name is shown beside it. */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/** Which field of the form a refusal concerns: an asked-for field by name, else the JSON box. */
function errorTarget(error: RunFormError | undefined, fields: readonly string[]): string | undefined {
  if (!error) return undefined;
  const named = error.param?.replace(/^input\./, '');
  return named && fields.includes(named) ? named : 'json';
}

function errorText(error: RunFormError): Html {
  return html`${error.reason}${error.param ? html` <small>(field <code>${error.param}</code>)</small>` : ''}`;
}

/**
 * A pending run's form, built from the fields the run asks for (one text box each), with the whole input as JSON in
 * an advanced section; when the run named no fields, the JSON box is the form. A refusal is said beside its field.
 */
export function runInputForm(
  action: string,
  flowRunId: string,
  requested: RequestedInput | undefined,
  csrf: string,
  error: RunFormError | undefined,
): Html {
  const id = `input-${flowRunId}`;
  const fields = requested?.fields ?? [];
  const target = errorTarget(error, fields);
  const fieldBoxes = fields.map((name, i) => {
    const boxId = `${id}-f${i}`;
    const invalid = target === name;
    return html`<div class="field">
      <label for="${boxId}">${fieldLabel(name)} <small class="muted">(<code>${name}</code>)</small></label>
      <input
        id="${boxId}"
        name="${FIELD_PREFIX}${name}"
        value="${error?.values?.[name] ?? ''}"
        autocomplete="off"
        ${invalid ? html`aria-invalid="true" aria-describedby="${boxId}-error"` : ''}
      />
      ${invalid && error ? html`<p id="${boxId}-error" class="error" role="alert">${errorText(error)}</p>` : ''}
    </div>`;
  });
  const jsonInvalid = target === 'json';
  const jsonBox = html`<label for="${id}"
      >${fields.length ? 'The whole input as JSON' : 'Input for this run (a JSON object)'}</label
    >
    <textarea
      id="${id}"
      name="input"
      rows="5"
      spellcheck="false"
      data-json-object
      ${fields.length ? '' : 'required'}
      aria-describedby="${id}-help ${id}-error"
      ${jsonInvalid ? html` aria-invalid="true"` : ''}
    >
${error?.text ?? ''}</textarea>
    <p id="${id}-help" class="help">
      ${fields.length ? 'Used instead of the fields above when filled in. ' : ''}A JSON object, for example
      <code>${fields.length ? JSON.stringify(Object.fromEntries(fields.map((f) => [f, '…']))) : '{"note": "…"}'}</code>.
    </p>
    <p id="${id}-error" class="error" aria-live="polite">${jsonInvalid && error ? errorText(error) : ''}</p>`;
  return html`<form method="post" action="${action}" class="run-input">
    ${hiddenCsrf(csrf)} ${fieldBoxes}
    ${
      fields.length
        ? html`<details ${jsonInvalid ? 'open' : ''}>
            <summary>Advanced: send the input as JSON</summary>
            ${jsonBox}
          </details>`
        : jsonBox
    }
    <button type="submit">Send the input</button>
    <p class="help">It goes to the service in your name, and the verification records who sent it.</p>
  </form>`;
}
