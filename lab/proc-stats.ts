import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { IN_PROCESS } from '../workers/relaunch.js';

/** Memory of a process as the kernel counts it: resident now, and its high-water mark since it started. */
export interface ProcessMemory {
  rssMb: number;
  peakMb: number;
}

/** `/proc/<pid>/status`: VmRSS and VmHWM, in MB (the kernel reports kB). */
export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Fields of `/proc/<pid>/stat` after the command name, which is in parentheses and may itself hold spaces. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `pid` and every process below it (a worker's relaunched child, a bundling child while it runs). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(statFields(Number(entry))[1]));
    } catch {
      // It exited while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** The process `eligibility worker` (started as `pid`) restarted itself as, with its memory limits (workers/relaunch.ts). */
export function relaunchedWorkerPid(pid: number): number {
  const child = processTree(pid).find((p) =>
    readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').includes(IN_PROCESS),
  );
  if (child === undefined) throw new Error(`process ${pid} has no relaunched worker (${IN_PROCESS}) below it`);
  return child;
}

/**
 * Memory of processes together as a container's limit counts it: the sum of their PSS (`/proc/<pid>/smaps_rollup`),
 * in which pages they share (the node binary, libraries) count once instead of once per process as in RSS.
 */
export function sharedAwareMb(pids: number[]): number {
  return pids.reduce((sum, pid) => {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return sum + Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? NaN) / 1024;
  }, 0);
}

let ticksPerSecond: number | undefined;

/** CPU time processes have used so far, user + system, all threads, in ms (`/proc/<pid>/stat` utime + stime). */
export function processCpuMs(...pids: number[]): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const ticks = pids.reduce((sum, pid) => {
    // utime and stime are fields 14 and 15 of the line; state, field 3, is the first after the command name.
    const fields = statFields(pid);
    return sum + Number(fields[11]) + Number(fields[12]);
  }, 0);
  return (ticks * 1000) / ticksPerSecond;
}

export const mb = (value: number) => `${value.toFixed(0)} MB`;

/** The machine's CPU time so far, busy and in all (ms summed over its cores), from `/proc/stat`. */
export function machineCpuMs(): { busyMs: number; totalMs: number } {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = fields.map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are the cores' idle time.
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busyMs: ((total - idle) * 1000) / ticksPerSecond, totalMs: (total * 1000) / ticksPerSecond };
}

/**
 * Starts counting CPU: the returned function gives, since this call, the CPU ms of each named process tree (its pids
 * read at both ends) and the machine's average busy cores.
 */
export function watchCpu<K extends string>(
  trees: Record<K, () => number[]>,
): () => { ms: Record<K, number>; busyCores: number } {
  const names = Object.keys(trees) as K[];
  const cpuOf = () => Object.fromEntries(names.map((n) => [n, processCpuMs(...trees[n]())])) as Record<K, number>;
  const start = cpuOf();
  const machine0 = machineCpuMs();
  return () => {
    const now = cpuOf();
    const machine = machineCpuMs();
    const share = (machine.busyMs - machine0.busyMs) / Math.max(machine.totalMs - machine0.totalMs, 1);
    return {
      ms: Object.fromEntries(names.map((n) => [n, now[n] - start[n]])) as Record<K, number>,
      busyCores: share * os.cpus().length,
    };
  };
}
