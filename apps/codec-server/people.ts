import type { FastifyRequest } from 'fastify';
import { verifyCodecToken, type CodecPerson } from '../../src/access/codec-tokens.js';
import type { OperatorDirectory } from '../../src/access/operators.js';

/**
 * The pass a request presents: `Authorization: Bearer <pass>` (the temporal CLI's `--codec-auth`), or the endpoint
 * path `/p/<pass>/decode` (a Temporal UI that sends no header: the pass is then in the person's own endpoint URL).
 */
export function presentedPass(request: FastifyRequest): string | undefined {
  const inPath = (request.params as { pass?: string }).pass;
  return inPath ?? /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * Who a pass names now (DESIGN §13): an operator the directory lists is taken from the directory (a changed role or
 * tenants, or a disabled operator, count at once); a pass minted from the directory for someone it no longer lists is
 * void; anyone else (CONSOLE_OPERATORS, the identity provider) is as the pass says until it expires.
 */
export function personFinder(secret: string, directory: OperatorDirectory | undefined) {
  return async (pass: string): Promise<CodecPerson | undefined> => {
    const person = await verifyCodecToken(secret, pass);
    if (!person) return undefined;
    const listed = await directory?.find(person.name);
    if (listed) return { ...listed, source: 'directory' };
    return person.source === 'directory' ? undefined : person;
  };
}
