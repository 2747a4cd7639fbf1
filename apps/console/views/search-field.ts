import { html, type Html } from './html.js';

/**
 * One labelled text field of a search form, with its problem said beside it (`aria-invalid`, `aria-describedby`) when
 * it is the field at fault. `id` prefixes the field's ids, so two forms on one page never share one.
 */
export function searchField(
  id: string,
  name: string,
  label: string,
  value: string | undefined,
  problem: { field: string; message: string } | undefined,
  extra: Html,
): Html {
  const invalid = problem?.field === name;
  return html`<div class="field">
    <label for="${id}-${name}">${label}</label>
    <input
      id="${id}-${name}"
      name="${name}"
      value="${value ?? ''}"
      autocomplete="off"
      ${extra}
      ${invalid ? html`aria-invalid="true" aria-describedby="${id}-${name}-error"` : ''}
    />
    ${invalid ? html`<p id="${id}-${name}-error" class="error" role="alert">${problem.message}</p>` : ''}
  </div>`;
}
