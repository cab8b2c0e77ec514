/** What /proc tells of a process: its memory and its CPU time (Linux). No side effects on import. */
import { readFileSync } from "node:fs";

/** Resident memory of a process in MB; NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) of a process in microseconds (Linux /proc; USER_HZ 100). */
export function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}
