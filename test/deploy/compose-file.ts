import fs from 'node:fs/promises';
import { parse } from 'yaml';

export const ROOT = new URL('../../', import.meta.url);

/** A `${…}` the file refers to, with how: `:?` / `?` (required), `:-` / `-` (default), or plain. */
export interface Reference {
  name: string;
  required: boolean;
}

/** Thrown like `docker compose` refuses a file: a `${VAR:?message}` whose variable is unset or empty. */
export class MissingVariableError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`required variable ${variable} is missing a value: ${message}`);
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** Index of the `}` closing the `${` whose body starts at `from`, counting nested `${…}`. */
function closing(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '$') i++;
    else if (text[i] === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unclosed \${ in ${text}`);
}

/**
 * Compose's interpolation of one value (https://docs.docker.com/reference/compose-file/interpolation/): `$$` is a
 * literal `$`; `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`,
 * `${VAR:+alt}`, `${VAR+alt}`, defaults themselves interpolated. `refs` collects every variable met.
 */
export function interpolate(text: string, env: Record<string, string>, refs: Reference[] = []): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '$') {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '{') {
      const end = closing(text, i + 2);
      const body = text.slice(i + 2, end);
      const name = NAME.exec(body)?.[0];
      if (!name) throw new Error(`invalid \${${body}}`);
      const rest = body.slice(name.length);
      const op = /^(:-|-|:\?|\?|:\+|\+)?/.exec(rest)?.[0] ?? '';
      const arg = rest.slice(op.length);
      if (op === '' && arg !== '') throw new Error(`invalid \${${body}}`);
      refs.push({ name, required: op === ':?' || op === '?' });
      const value = env[name];
      const set = value !== undefined;
      const nonEmpty = set && value !== '';
      if (op === ':-') out += nonEmpty ? value : interpolate(arg, env, refs);
      else if (op === '-') out += set ? value : interpolate(arg, env, refs);
      else if (op === ':?' || op === '?') {
        if (op === ':?' ? !nonEmpty : !set) throw new MissingVariableError(name, interpolate(arg, env, refs));
        out += value;
      } else if (op === ':+') out += nonEmpty ? interpolate(arg, env, refs) : '';
      else if (op === '+') out += set ? interpolate(arg, env, refs) : '';
      else out += value ?? '';
      i = end;
    } else {
      const name = NAME.exec(text.slice(i + 1))?.[0];
      if (!name) {
        out += '$';
        continue;
      }
      refs.push({ name, required: false });
      out += env[name] ?? '';
      i += name.length;
    }
  }
  return out;
}

/** Interpolates every string value of a parsed compose document (keys are left alone, as compose does). */
export function interpolateDocument(value: unknown, env: Record<string, string>, refs: Reference[] = []): unknown {
  if (typeof value === 'string') return interpolate(value, env, refs);
  if (Array.isArray(value)) return value.map((v) => interpolateDocument(v, env, refs));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateDocument(v, env, refs)]));
  }
  return value;
}

export async function readText(relative: string): Promise<string> {
  return fs.readFile(new URL(relative, ROOT), 'utf8');
}

/** docker-compose.yml as YAML data, `<<` merge keys resolved, nothing interpolated. */
export async function readComposeFile(): Promise<Record<string, unknown>> {
  return parse(await readText('docker-compose.yml'), { merge: true }) as Record<string, unknown>;
}

/** `KEY=value` lines of a dotenv file (comments and blank lines skipped). */
export function parseDotenv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) env[m[1]!] = m[2]!.trim();
  }
  return env;
}

export interface Service {
  build?: unknown;
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  profiles?: string[];
  ports?: unknown[];
  container_name?: string;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: unknown;
  volumes?: (string | { type?: string; source?: string })[];
  stop_grace_period?: string;
  entrypoint?: string[] | string;
  restart?: string;
}

/** A service's environment as a map, whichever of the two forms the file uses. */
export function environmentOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0]!, entry.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}
