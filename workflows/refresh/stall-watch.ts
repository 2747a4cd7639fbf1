/**
 * Tells when a refresh's asking has stalled: patients are still being asked, and for `stalledMs` not one more has
 * taken the refresh. Judged by time, not by looks: after a worker restart, answers wait seconds to a minute for the
 * patients' replays and for visibility, however often the refresh looks.
 */
export function stallWatch(stalledMs: number): (at: number, asked: number, took: number) => boolean {
  let tookBefore = -1;
  let since = 0;
  return (at, asked, took) => {
    if (asked === 0 || took > tookBefore) since = at;
    tookBefore = took;
    return at - since >= stalledMs;
  };
}
