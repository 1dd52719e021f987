import { readFileSync, readdirSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): index 0 is the state, 1 the parent. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function processIds(): number[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number);
}

/** Every process under `pid` (children, grandchildren…), read from /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const id of processIds()) {
    let parent: number;
    try {
      parent = Number(statFields(id)[1]);
    } catch {
      // The process ended while the table was read: it is no one's child any more.
      continue;
    }
    children.set(parent, [...(children.get(parent) ?? []), id]);
  }
  const found: number[] = [];
  const visit = (id: number) => (children.get(id) ?? []).forEach((child) => (found.push(child), visit(child)));
  visit(pid);
  return found;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU seconds a process used, with those of its children it has already reaped (utime, stime, cutime, cstime). */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) / TICKS_PER_SECOND;
}

/** The process whose command line holds every one of `parts` (as whole arguments), or null. */
export function findProcess(parts: readonly string[]): number | null {
  for (const id of processIds()) {
    try {
      const args = readFileSync(`/proc/${id}/cmdline`, "utf8").split("\0");
      if (parts.every((part) => args.some((arg) => arg === part || arg.endsWith(`/${part}`)))) return id;
    } catch {
      continue;
    }
  }
  return null;
}

/** CPU seconds of a process tree: the root (with what it reaped) and every live process under it. */
export function treeCpuSeconds(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, id) => {
    try {
      return sum + cpuSeconds(id);
    } catch {
      // It ended between the listing and the read; its parent counts it once reaped.
      return sum;
    }
  }, 0);
}
