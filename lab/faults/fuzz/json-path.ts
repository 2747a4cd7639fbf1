import type { Json } from './valid.js';

/** Dotted paths (`patient.dateOfBirth`), the same form the intake API names in `param`. */

export function setPath(target: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Json;
  }
  node[keys.at(-1)!] = value;
}

export function deletePath(target: Json, path: string): void {
  const keys = path.split('.');
  let node: unknown = target;
  for (const key of keys.slice(0, -1)) node = (node as Json | undefined)?.[key];
  if (typeof node === 'object' && node !== null) delete (node as Json)[keys.at(-1)!];
}
