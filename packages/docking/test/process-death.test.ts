// A process killed with SIGKILL (issue #37 point 9) can clean nothing up: its tools must die with it (they run
// under setpriv --pdeathsig KILL) and the next process that makes a scratch directory removes its folder (named
// with its owner, who is gone). The sweep never touches a live owner's folder, another PID namespace's or one
// named otherwise, and kills orphaned tools still working in a stale folder.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inCI } from '@evident/testkit';
import { DockingSession } from '../src/index.js';
import { parentDeathWrapper } from '../src/process/run.js';
import { ownerTag, removeStaleTempDirs } from '../src/process/temp.js';
import { parseConf, toolsOrSkip, VINA_TEST_DATA, vinaTestData } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const linux = process.platform === 'linux';
const linuxSkip = linux ? false : 'reads /proc (Linux only)';

/** Fields of /proc/<pid>/stat after the command name (state first, parent PID second), or undefined. */
function stat(pid: number | string): string[] | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Runs and has not exited ('Z': exited, waiting to be reaped). */
function running(pid: number): boolean {
  const s = stat(pid);
  return s !== undefined && s[0] !== 'Z';
}

/** A running child of `parent` whose program is `name`. */
function childNamed(parent: number, name: string): number | undefined {
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    const s = stat(p);
    if (!s || Number(s[1]) !== parent || s[0] === 'Z') continue;
    try {
      if (readFileSync(`/proc/${p}/comm`, 'utf8').trim() === name) return Number(p);
    } catch {}
  }
  return undefined;
}

/** Waits for `probe` to give a value. The deadline only ends a hang; it is no speed requirement. */
async function until<T>(what: string, probe: () => T | undefined | false, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('on Linux, tools run under setpriv --pdeathsig KILL', { skip: linuxSkip }, async (t) => {
  if (!existsSync('/usr/bin/setpriv') && !inCI) return t.skip('no /usr/bin/setpriv (util-linux)');
  assert.match((await parentDeathWrapper()) ?? '', /\/setpriv$/);
});

test('a docking process killed with SIGKILL takes its Vina with it, and the next session removes its folder', async (t) => {
  if (linuxSkip) return t.skip(linuxSkip);
  const { tools, skip } = await toolsOrSkip();
  if (skip) return t.skip(skip);
  const data = vinaTestData();
  if (!data) {
    const why = `Debian's Vina test data missing at ${VINA_TEST_DATA}`;
    if (inCI) throw new Error(why);
    return t.skip(why);
  }
  const child = spawn(
    process.execPath,
    ['--conditions=evident-source', '--import', 'tsx', join(here, 'fixtures', 'dock-and-wait.ts')],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.after(() => child.kill('SIGKILL'));
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { dir } = JSON.parse(line) as { dir: string };
  assert.ok(existsSync(dir));
  const vina = await until('Vina to start', () => childNamed(child.pid!, 'vina'));
  t.after(() => {
    if (running(vina)) process.kill(vina, 'SIGKILL');
  });

  // Stopped, Vina cannot write: without the parent-death signal it would then never notice its parent is gone
  // (a running one dies of SIGPIPE at its next progress mark, which can be minutes away). SIGKILL still ends it.
  process.kill(vina, 'SIGSTOP');
  await until('Vina to stop', () => stat(vina)?.[0] === 'T');
  child.kill('SIGKILL');
  await once(child, 'exit');
  await until('Vina to die with its parent', () => !running(vina), 30_000);
  assert.ok(existsSync(dir), 'a process killed with SIGKILL leaves its folder');

  const c = parseConf(data.conf);
  const n = (k: string) => Number(c[k]);
  const session = await DockingSession.open({
    receptor: { pdbqt: data.receptor },
    box: { center: [n('center_x'), n('center_y'), n('center_z')], size: [n('size_x'), n('size_y'), n('size_z')] },
    tools: tools!,
  });
  t.after(() => session.close());
  assert.equal(existsSync(dir), false, `the next session's start removed ${dir}`);
  assert.ok(existsSync(session.dir));
});

test('the sweep removes only folders whose owner is gone, and kills the tools still working in them', async (t) => {
  if (linuxSkip) return t.skip(linuxSkip);
  const base = mkdtempSync(join(tmpdir(), 'sweep-test-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const [ns, pid, start] = ownerTag().split('.');
  const folder = (name: string) => {
    const d = join(base, name);
    mkdirSync(join(d, 'ligand-1'), { recursive: true });
    return d;
  };
  // Our PID with another start time: the process that made it is gone and the PID was given again.
  const stale = folder(`evident-docking-session-${ns}.${pid}.${Number(start) + 1}-aB3dE9`);
  const live = folder(`evident-docking-dock-${ownerTag()}-Zz09aa`);
  const otherNamespace = folder(`evident-docking-session-${Number(ns) + 1}.${pid}.${Number(start) + 1}-qwerty`);
  const legacy = folder('evident-docking-session-x1Y2z3');
  const unrelated = folder(`other-session-${ns}.${pid}.${Number(start) + 1}-aaaaaa`);

  // Tools at work: a program named vina (a copy of sleep) in the stale folder and in the live one.
  const bin = join(base, 'bin');
  mkdirSync(bin);
  copyFileSync('/bin/sleep', join(bin, 'vina'));
  const orphan = spawn(join(bin, 'vina'), ['300'], { cwd: join(stale, 'ligand-1'), stdio: 'ignore' });
  const working = spawn(join(bin, 'vina'), ['300'], { cwd: join(live, 'ligand-1'), stdio: 'ignore' });
  t.after(() => working.kill('SIGKILL'));
  await until('both tools to run as vina', () =>
    [orphan.pid!, working.pid!].every((p) => readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'vina'),
  );

  const orphanExit = once(orphan, 'exit');
  const report = await removeStaleTempDirs(base);
  assert.deepEqual(report.removed, [stale]);
  assert.deepEqual(report.killed, [orphan.pid]);
  assert.deepEqual((await orphanExit)[1], 'SIGKILL');
  assert.equal(existsSync(stale), false);
  for (const kept of [live, otherNamespace, legacy, unrelated]) assert.ok(existsSync(kept), kept);
  assert.ok(running(working.pid!), "a live owner's tool is left alone");
});
