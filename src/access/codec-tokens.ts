import { SignJWT, jwtVerify } from 'jose';
import { OPERATOR_ROLES, type ConsoleOperator, type OperatorRole } from './operators.js';

/*
 * A person's pass to the codec server (docs/developing/patient-data.md): a short-lived JWT (HS256, CODEC_TOKEN_SECRET)
 * naming the person as the console resolved them when it was minted. The codec server trusts its role and tenants only
 * for a person the operator directory does not list (CONSOLE_OPERATORS, a sign-in through the identity provider); for a
 * listed one it asks the directory again, so a disabled operator's pass stops working at once.
 */

const ISSUER = 'eligibility-orchestrator';
const AUDIENCE = 'eligibility-codec-server';

/** Where the person came from: `directory` passes are void once the directory no longer lists them. */
export type PersonSource = 'directory' | 'config' | 'oidc';

export interface CodecPerson extends ConsoleOperator {
  source: PersonSource;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export function mintCodecToken(secret: string, person: CodecPerson, ttlSeconds: number): Promise<string> {
  return new SignJWT({ role: person.role, tenants: person.tenants, src: person.source })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(person.name)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(key(secret));
}

const isRole = (value: unknown): value is OperatorRole => OPERATOR_ROLES.includes(value as OperatorRole);
const isTenants = (value: unknown): value is string[] | null =>
  value === null || (Array.isArray(value) && value.every((t) => typeof t === 'string'));
const SOURCES: readonly PersonSource[] = ['directory', 'config', 'oidc'];

/** The person a pass names, when it is ours, unexpired and well formed; undefined for anything else. */
export async function verifyCodecToken(secret: string, token: string): Promise<CodecPerson | undefined> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp'],
    });
    const { sub, role, tenants, src } = payload;
    if (!sub || !isRole(role) || !isTenants(tenants) || !SOURCES.includes(src as PersonSource)) return undefined;
    return { name: sub, role, tenants, source: src as PersonSource };
  } catch {
    return undefined;
  }
}
