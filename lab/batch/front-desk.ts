// The front desk of `batch-burst` (start-burst.ts): requests with `Prefer: wait=10` at a steady rate, and their figures.
import { setTimeout as sleep } from 'node:timers/promises';
import { callIntake, type IntakeEndpoint } from '../faults/intake-http.js';
import { percentile } from '../percentile.js';

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A v2 request the sandbox's seed verifies (a payer-known patient). */
export const request = (id?: string) => ({
  ...(id ? { id } : {}),
  patient: { firstName: 'Avery', lastName: 'Quinn', dateOfBirth: '04/12/1987', state: 'WA', memberId: 'M123456' },
  payerId: '60054',
  placeOfServiceCode: '11',
  specialtyCode: 'PRC',
});

export interface Answer {
  status: number;
  ms: number;
}

/** Front-desk requests with `Prefer: wait=10`, `perSecond` a second, from now until `stop()` (or `count` sent). */
export function frontDesk(intake: IntakeEndpoint, tag: string, perSecond: number, count = Number.POSITIVE_INFINITY) {
  const sent: Promise<Answer>[] = [];
  let stopped = false;
  const t0 = Date.now();
  const send = (id: string): Promise<Answer> =>
    callIntake(intake, 'POST', '/verifications', request(id), { prefer: 'wait=10' }).then(
      ({ status, ms }) => ({ status, ms }),
      () => ({ status: 0, ms: Number.NaN }),
    );
  const sending = (async () => {
    for (let i = 0; !stopped && i < count; i += 1) {
      await sleep(Math.max(0, t0 + (i * 1000) / perSecond - Date.now()));
      if (!stopped) sent.push(send(`${tag}-${i}`));
    }
  })();
  return {
    done: () => sending.then(() => Promise.all(sent)),
    async stop() {
      stopped = true;
      await sending;
      return Promise.all(sent);
    },
  };
}

export const answerLine = (answers: Answer[]) => {
  const ms = answers.filter((a) => a.status === 200 || a.status === 202).map((a) => a.ms);
  const statuses = Object.entries(
    answers.reduce<Record<number, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {}),
  ).map(([status, n]) => `${n}× ${status}`);
  return (
    `p50 ${s(percentile(ms, 50))}, p95 ${s(percentile(ms, 95))}, max ${s(Math.max(...ms))} ` +
    `(${answers.length} requests: ${statuses.join(', ')}; 202 = not settled within the wait)`
  );
};
