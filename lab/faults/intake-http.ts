/** One call to the intake API's `POST /verifications`, timed, never throwing: a network failure is status 0. */
export interface IntakeAnswer {
  status: number;
  text: string;
  /** `Retry-After` in seconds, when the answer has one. */
  retryAfterSeconds?: number;
  sentAt: number;
  answeredAt: number;
}

export interface IntakeEndpoint {
  url: string;
  apiKey: string;
}

export async function postVerification(
  intake: IntakeEndpoint,
  body: string,
  timeoutMs = 60_000,
): Promise<IntakeAnswer> {
  const sentAt = Date.now();
  try {
    const response = await fetch(`${intake.url}/verifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': intake.apiKey },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      status: response.status,
      text,
      ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      sentAt,
      answeredAt: Date.now(),
    };
  } catch {
    return { status: 0, text: '', sentAt, answeredAt: Date.now() };
  }
}

/** The JSON of an answer, or undefined when it is not JSON. */
export function answerJson(answer: IntakeAnswer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(answer.text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `work` for every item with at most `lanes` in flight, in order of the items. */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
}

/** Any call to the intake API with its key: status, JSON body (undefined when none) and milliseconds taken. */
export async function callIntake(
  intake: IntakeEndpoint,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; ms: number }> {
  const t0 = performance.now();
  const response = await fetch(`${intake.url}${path}`, {
    method,
    headers: {
      'x-api-key': intake.apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as unknown) : undefined,
    ms: performance.now() - t0,
  };
}
