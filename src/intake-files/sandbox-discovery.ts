import {
  Discovery,
  ErrorBody,
  SandboxDiscoveryRequest,
  firstInvalidParam,
  type VerificationIntake,
} from '../contract/index.js';

/**
 * The `@sandbox` shortcut of intake files and `eligibility start`, on the client side of the sandbox: it calls the
 * sandbox's control API, so it imports the contract only, like the rest of this folder.
 *
 * The `discoveryId` value that asks for a discovery to be created in the sandbox first (`POST /sandbox/discoveries`)
 * and its id used instead: example files can then exercise the discovery path, which in the real service starts
 * outside this system (docs/decisions/0001-service-contract-gaps.md). It only ever means something against a sandbox.
 */
export const SANDBOX_DISCOVERY = '@sandbox';

export function wantsSandboxDiscovery(request: VerificationIntake): boolean {
  return request.discoveryId === SANDBOX_DISCOVERY;
}

function discoveryRequest(request: VerificationIntake): unknown {
  if (request.version !== 'v2') return undefined;
  const { firstName, lastName, dateOfBirth, state } = request.patient;
  return { firstName, lastName, dateOfBirth, state };
}

/** A field that keeps a request from having a sandbox discovery, named by its contract path (never its value). */
export interface DiscoveryProblem {
  param: string;
  message: string;
}

/** Why this `@sandbox` request cannot have a sandbox discovery (its patient lacks what the sandbox needs), if so. */
export function sandboxDiscoveryProblem(request: VerificationIntake): DiscoveryProblem | undefined {
  if (!wantsSandboxDiscovery(request)) return undefined;
  if (request.version !== 'v2') {
    return { param: 'discoveryId', message: `${SANDBOX_DISCOVERY} needs a v2 request (a patient's name and state)` };
  }
  const parsed = SandboxDiscoveryRequest.safeParse(discoveryRequest(request));
  if (parsed.success) return undefined;
  return {
    param: `patient.${firstInvalidParam(parsed.error)}`,
    message: `required for a ${SANDBOX_DISCOVERY} discovery`,
  };
}

export class SandboxDiscoveryError extends Error {
  override name = 'SandboxDiscoveryError';
}

/** Creates a discovery in the sandbox at `sandboxUrl`; it completes on its own after the sandbox's delay. */
export async function createSandboxDiscovery(
  sandboxUrl: string,
  body: SandboxDiscoveryRequest,
  options: { signal?: AbortSignal } = {},
): Promise<Discovery> {
  const url = new URL('/sandbox/discoveries', sandboxUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: options.signal ?? AbortSignal.timeout(10_000),
    });
  } catch {
    throw new SandboxDiscoveryError(`cannot reach the sandbox at ${url.origin}`);
  }
  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = ErrorBody.safeParse(payload);
    const param = error.success && error.data.param ? ` (param ${error.data.param})` : '';
    throw new SandboxDiscoveryError(`the sandbox refused the discovery: ${response.status}${param}`);
  }
  const discovery = Discovery.safeParse(payload);
  if (!discovery.success) throw new SandboxDiscoveryError('the sandbox answered with an unexpected discovery');
  return discovery.data;
}

/** The request with `@sandbox` replaced by the id of a discovery just created for its patient; others unchanged. */
export async function resolveSandboxDiscovery(
  request: VerificationIntake,
  sandboxUrl: string | undefined,
): Promise<VerificationIntake> {
  if (!wantsSandboxDiscovery(request)) return request;
  if (sandboxUrl === undefined) {
    throw new SandboxDiscoveryError(`discoveryId ${SANDBOX_DISCOVERY} needs a sandbox URL to create the discovery in`);
  }
  const problem = sandboxDiscoveryProblem(request);
  if (problem) throw new SandboxDiscoveryError(`${problem.param}: ${problem.message}`);
  const body = SandboxDiscoveryRequest.parse(discoveryRequest(request));
  const discovery = await createSandboxDiscovery(sandboxUrl, body);
  return { ...request, discoveryId: discovery.discoveryId };
}
