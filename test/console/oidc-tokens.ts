import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/** ID tokens as an attacker between the console and its provider would make them, from the provider's genuine one. */

type Claims = Record<string, unknown>;

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claimsOf = (jwt: string): Claims =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Claims;

/** The payload changed, the provider's header and signature kept. */
export function changedUnderItsSignature(changes: Claims) {
  return (jwt: string) => {
    const [header, , signature] = jwt.split('.');
    return `${header}.${part({ ...claimsOf(jwt), ...changes })}.${signature}`;
  };
}

/** The payload changed and signed with `key` under the `kid` given (the provider's own kid: a key it does not have). */
export function signedWith(key: KeyObject, kid: string, changes: Claims = {}) {
  return (jwt: string) =>
    new SignJWT({ ...claimsOf(jwt), ...changes }).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}

/** The same claims under a key the provider never published, with the provider's kid. */
export const signedByAnotherKey = (kid: string, changes: Claims = {}) =>
  signedWith(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, kid, changes);

/** The payload changed, `alg: none`, no signature. */
export function unsigned(changes: Claims = {}) {
  return (jwt: string) => `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claimsOf(jwt), ...changes })}.`;
}
