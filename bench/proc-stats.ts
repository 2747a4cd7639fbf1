import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

let ticksPerSecond: number | undefined;

/** CPU time a process has used so far, user + system, all threads, in ms (`/proc/<pid>/stat` utime + stime). */
export function processCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself hold spaces: state is field 3, utime 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / ticksPerSecond;
}

export const mb = (value: number) => `${value.toFixed(0)} MB`;
