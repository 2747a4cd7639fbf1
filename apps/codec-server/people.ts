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
 * Who a pass names now (docs/developing/patient-data.md): a person the directory has an entry for is as the directory
 * says (a changed role or tenants count at once, a disabled entry refuses them, whatever the pass says); a pass minted
 * from the directory for someone it no longer has is void; anyone else (CONSOLE_OPERATORS, the identity provider's
 * claims) is as the pass says until it expires.
 */
export function personFinder(secret: string, directory: OperatorDirectory | undefined) {
  return async (pass: string): Promise<CodecPerson | undefined> => {
    const person = await verifyCodecToken(secret, pass);
    if (!person) return undefined;
    const entry = await directory?.entry(person.name);
    if (entry) {
      const { disabled, ...listed } = entry;
      return disabled ? undefined : { ...listed, source: 'directory' };
    }
    return person.source === 'directory' ? undefined : person;
  };
}
