/** The sandbox's control routes the rolling-deploy bench uses (`/sandbox/...`, never the service's own paths). */
export function sandboxControl(url: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  return {
    /** A discovery that stays pending until completed by hand. */
    pendingDiscovery: () =>
      call<{ discoveryId: string }>('POST', '/sandbox/discoveries', {
        firstName: 'Grace',
        lastName: 'Hopper',
        dateOfBirth: '12/09/1976',
        state: 'NY',
        delayMs: -1,
      }),
    completeDiscovery: (discoveryId: string) =>
      call('POST', `/sandbox/discoveries/${encodeURIComponent(discoveryId)}/complete`, {}),
    runs: (verificationId: string) =>
      call<{ flowRunId: string }[]>('GET', `/sandbox/runs?verificationId=${encodeURIComponent(verificationId)}`),
    /** Every verification the service created, with the caller id it was created for. */
    verifications: () => call<{ id?: string; verificationId: string }[]>('GET', '/sandbox/verifications'),
  };
}
