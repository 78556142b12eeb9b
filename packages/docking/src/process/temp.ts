// Per-run scratch directories under the OS temp dir, removed when the run ends however it ends, and after the
// process itself was killed (kill -9, OOM) by the next process that needs one.
//
// A directory's name carries its owner: `evident-docking-<kind>-<pidns>.<pid>.<start>-XXXXXX`, the owner's PID
// namespace, PID and start time (clock ticks since boot, from /proc). The first directory a process makes
// sweeps the temp dir once: a folder whose owner is gone (no such process, a zombie, or the PID now held by a
// process that started at another time) is stale; the tool processes still working in it (orphaned Vina or
// Open Babel, whose cwd is that folder) are killed and the folder removed. A live owner's folder, a folder of
// another PID namespace (a container sharing /tmp) and a folder named otherwise are never touched.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, sep } from 'node:path';

const PREFIX = 'evident-docking-';
const NAME = /^evident-docking-[a-z]+-(\d+)\.(\d+)\.(\d+)-[A-Za-z0-9]{6}$/;

interface Owner {
  ns: string;
  pid: number;
  start: string;
}

/** The PID namespace's inode ('0' where /proc does not say). */
function pidNamespace(pid: number | 'self'): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync(`/proc/${pid}/ns/pid`))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

/** State and start time of a process from /proc/<pid>/stat, or undefined when there is no such process. */
function procStat(pid: number | 'self'): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '0' };
}

const hasProc = (() => {
  try {
    statSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

let self: Owner | undefined;
function me(): Owner {
  self ??= { ns: pidNamespace('self'), pid: process.pid, start: procStat('self')?.start ?? '0' };
  return self;
}

/** The owner tag a directory made by this process carries. */
export function ownerTag(): string {
  const o = me();
  return `${o.ns}.${o.pid}.${o.start}`;
}

/** Whether a directory's owner may still be running (true when it cannot be told). */
function ownerAlive(o: Owner): boolean {
  if (o.ns !== me().ns) return true;
  if (hasProc) {
    const s = procStat(o.pid);
    return s !== undefined && s.state !== 'Z' && s.start === o.start;
  }
  try {
    process.kill(o.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Program names of the tools this package runs (and of EVIDENT_VINA / EVIDENT_OBABEL overrides). */
function toolNames(): Set<string> {
  const names = new Set(['vina', 'obabel']);
  // /proc/<pid>/comm keeps 15 characters of the program's name.
  for (const v of [process.env.EVIDENT_VINA, process.env.EVIDENT_OBABEL]) if (v) names.add(basename(v).slice(0, 15));
  return names;
}

/** SIGKILLs our tool processes whose working directory is inside `dir`; returns their PIDs. */
function killToolsIn(dir: string): number[] {
  if (!hasProc) return [];
  const names = toolNames();
  const killed: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return killed;
  }
  for (const p of pids) {
    try {
      const cwd = readlinkSync(`/proc/${p}/cwd`);
      if (cwd !== dir && !cwd.startsWith(dir + sep)) continue;
      if (!names.has(readFileSync(`/proc/${p}/comm`, 'utf8').trim())) continue;
      process.kill(Number(p), 'SIGKILL');
      killed.push(Number(p));
    } catch {
      // Gone meanwhile, or another user's process: not ours to judge.
    }
  }
  return killed;
}

export interface SweepReport {
  /** Stale directories removed. */
  removed: string[];
  /** Orphaned tool processes killed in them. */
  killed: number[];
}

/**
 * Removes the scratch directories of processes that are gone (see the top of this file), killing the tool
 * processes still working in them. Runs once per process by itself, before its first scratch directory.
 */
export async function removeStaleTempDirs(root = tmpdir()): Promise<SweepReport> {
  const report: SweepReport = { removed: [], killed: [] };
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(PREFIX));
  } catch {
    return report;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const owner: Owner = { ns: m[1]!, pid: Number(m[2]), start: m[3]! };
    if (ownerAlive(owner)) continue;
    const dir = join(root, name);
    try {
      const st = statSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    } catch {
      continue;
    }
    report.killed.push(...killToolsIn(dir));
    try {
      await rm(dir, { recursive: true, force: true });
      report.removed.push(dir);
    } catch {
      // Another process sweeping at the same time, or a file we may not remove: left for the next sweep.
    }
  }
  return report;
}

let swept: Promise<unknown> | undefined;

export async function makeTempDir(prefix: string): Promise<string> {
  swept ??= removeStaleTempDirs().catch(() => undefined);
  await swept;
  return mkdtemp(join(tmpdir(), `${PREFIX}${prefix}-${ownerTag()}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await makeTempDir(prefix);
  try {
    return await fn(dir);
  } finally {
    await removeDir(dir);
  }
}
