import type { FastifyRequest } from 'fastify';
import { INVALID_REQUEST } from '../../src/contract/index.js';
import { IntakeAnswer } from './errors.js';

/** Keys that reach an object's prototype when code copies a parsed body (`Object.assign`, a deep merge). */
const PROTOTYPE_KEY = 'a "__proto__" or "constructor.prototype" key, which this API refuses';

const refused = (message: string) => new IntakeAnswer(400, { error: INVALID_REQUEST, param: 'body', message });

/** Whether a parsed JSON value holds `__proto__`, or `constructor` holding `prototype`, at any depth (no recursion). */
export function holdsPrototypeKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Object.hasOwn(current, '__proto__')) return true;
    const constructor = Object.hasOwn(current, 'constructor')
      ? (current as { constructor: unknown }).constructor
      : null;
    if (constructor !== null && typeof constructor === 'object' && Object.hasOwn(constructor, 'prototype')) return true;
    pending.push(...(Object.values(current) as unknown[]));
  }
  return false;
}

/**
 * The intake API's JSON parser, in place of Fastify's, which calls every refusal "not valid JSON": an empty body, text
 * that is not JSON and JSON holding a prototype key are each a 400 that says which (never quoting the body).
 */
export function parseJsonBody(_request: FastifyRequest, body: string): unknown {
  if (body.length === 0) throw refused('the body is empty; send a JSON value');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw refused('the body is not valid JSON');
  }
  if (holdsPrototypeKey(value)) throw refused(`the body holds ${PROTOTYPE_KEY}`);
  return value;
}
