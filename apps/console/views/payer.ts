import type { PayerName } from '../../../src/payers/payer-names.js';
import { html, type Html } from './html.js';

export type PayerNameMap = ReadonlyMap<string, PayerName>;

/** A payer as people know it: its name with the id beside it, or the id alone while the name is unknown. */
export function payer(id: string | null | undefined, names: PayerNameMap): Html | undefined {
  if (!id) return undefined;
  const known = names.get(id);
  return known ? html`${known.name} <small class="muted">${id}</small>` : html`<code>${id}</code>`;
}

/** The other ids and names a payer is known by, for the page of one verification. */
export function payerAliases(id: string | null | undefined, names: PayerNameMap): Html | undefined {
  const known = id ? names.get(id) : undefined;
  if (!known) return undefined;
  const others = [...known.aliasNames, ...[known.payerId, ...known.aliasIds].filter((other) => other !== id)];
  return others.length ? html`${others.join(', ')}` : undefined;
}
