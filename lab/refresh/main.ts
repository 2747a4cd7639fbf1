/**
 * `npm run bench:refresh [-- --patients 1000] [--inactive 100] [--kills 2] [--max-minutes 10]`: a time-compressed
 * monthly refresh run by a real Temporal Schedule (created paused, then triggered), with the worker process SIGKILLed
 * `kills` times mid-refresh and restarted. Active patients have a visit 30 days ahead, inactive ones 200 days ahead
 * (outside the default window of 3 months ahead). Counted from the sandbox's own record of verifications created
 * (the refresh's verifications carry the patient id as the caller's `id`): every active patient re-verified exactly
 * once (lost 0, duplicates 0), no inactive patient verified.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { refreshTotals, type RefreshProgress } from '../../workflows/refresh/refresh.js';
import { numberArg } from '../bench-stack.js';
import {
  bookPatients,
  day,
  refreshProgress,
  sandboxVerificationsById,
  startRefreshStack,
  triggerRefresh,
  waitIndexed,
} from './stack.js';

const ACTIVE = numberArg('patients', 1000);
const INACTIVE = numberArg('inactive', 100);
const KILLS = numberArg('kills', 2);
/** From the trigger: a refresh still running then is reported as it stands (FAIL), not thrown away. */
const MAX_MS = numberArg('max-minutes', 10) * 60_000;
const log = (line: string) => console.log(line);

async function main() {
  const s = await startRefreshStack();
  try {
    const t0 = Date.now();
    const active = await bookPatients(s, 'a', ACTIVE, day(30));
    const inactive = await bookPatients(s, 'i', INACTIVE, day(200));
    log(`booked ${ACTIVE} active and ${INACTIVE} inactive patients in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await waitIndexed(s.stack.client, s.tenant, ACTIVE + INACTIVE);

    const started = Date.now();
    const deadline = started + MAX_MS;
    let timedOut = false;
    const refreshId = await triggerRefresh(s, { pageSize: 200, maxInFlight: 400, settleSeconds: 1 });
    log(`schedule triggered: ${refreshId}`);
    // Kills spread over the refresh: at 1/(kills+1), 2/(kills+1)… of the active patients verified by the sandbox.
    const killAt = Array.from({ length: KILLS }, (_, k) => Math.round((ACTIVE * (k + 1)) / (KILLS + 1)));
    const kills: string[] = [];
    let progress: RefreshProgress | undefined;
    for (;;) {
      if (Date.now() > deadline) {
        timedOut = true;
        break;
      }
      const created = (await sandboxVerificationsById(s.stack.sandboxUrl)).size;
      if (killAt.length > 0 && created >= killAt[0]!) {
        killAt.shift();
        await s.worker.kill();
        await sleep(1000);
        const restartMs = await s.worker.start();
        kills.push(`SIGKILL at ${created} patients verified, back in ${(restartMs / 1000).toFixed(1)} s`);
        log(`  ${kills.at(-1)}`);
      }
      const described = await s.stack.client.workflow.getHandle(refreshId).describe();
      if (described.status.name === 'COMPLETED') {
        progress = (await s.stack.client.workflow.getHandle(refreshId).result()) as RefreshProgress;
        break;
      }
      progress = (await refreshProgress(s.stack.client, refreshId)) ?? progress;
      await sleep(1000);
    }
    const seconds = (Date.now() - started) / 1000;
    const byId = await sandboxVerificationsById(s.stack.sandboxUrl);
    const lost = active.filter((id) => !byId.has(id)).length;
    const duplicates = active.reduce((n, id) => n + Math.max(0, (byId.get(id) ?? 0) - 1), 0);
    const inactiveVerified = inactive.filter((id) => byId.has(id)).length;
    if (!progress?.verifications) throw new Error('the refresh reported no progress');
    const totals = refreshTotals(progress.verifications);

    log('');
    log(
      `refresh ${refreshId}: ${seconds.toFixed(1)} s, ${(ACTIVE / seconds).toFixed(1)} patients/s, ${KILLS} worker SIGKILLs`,
    );
    log(`  active patients          ${ACTIVE}`);
    log(`  re-verified (sandbox)    ${ACTIVE - lost}`);
    log(`  lost                     ${lost}        (target 0)`);
    log(`  duplicates (sandbox)     ${duplicates}        (target 0)`);
    log(`  inactive verified        ${inactiveVerified}        (of ${INACTIVE}; target 0)`);
    log(
      `  refresh's own counts     patients ${progress.patients}, verified ${totals.verified}, failed ${totals.failed}, ` +
        `pages ${progress.pages}, asked ${progress.asked}${progress.unanswered ? `, unanswered ${progress.unanswered}` : ''}`,
    );
    const ok = !timedOut && lost === 0 && duplicates === 0 && inactiveVerified === 0 && kills.length === KILLS;
    log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await s.stop();
  }
}

await main();
