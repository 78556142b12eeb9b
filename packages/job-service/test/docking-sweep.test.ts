// Issue 37, point 9: a server started after another was killed during docking removes that process's docking
// folders at start (not at its own first docking), and kills the tool still working in one; a folder whose owner
// is alive stays.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sleep, tempDir } from '@evident/testkit';
import { startTestServer, type TestServer } from './helpers.js';

const ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))![1]!;
/** Field 22 of /proc/<pid>/stat: the start time in clock ticks (after the command's parenthesised name). */
const startOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]!;
const alive = (pid: number) => {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

test('serve removes the docking folders of a dead process at start and kills the tool left in one', async (t) => {
  const tmp = tempDir('evident-sweep-');
  const before = process.env.TMPDIR;
  process.env.TMPDIR = tmp.path;
  // One hook, in this order: the server (whose threads and store write under TMPDIR) ends before the folder goes.
  // Hooks run in the order they were added and the first that throws skips the rest: a removal racing the
  // server's writes (ENOTEMPTY) once left it listening, and the file's process never ended.
  let server: TestServer | undefined;
  let orphanPid: number | undefined;
  t.after(async () => {
    try {
      await server?.cleanup();
      if (orphanPid !== undefined && alive(orphanPid)) process.kill(orphanPid, 'SIGKILL');
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      tmp.cleanup();
    }
  });
  // A process that has ended: its PID names the dead owner.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const stale = join(tmp.path, `evident-docking-session-${ns}.${gone.stdout}.12345-AbC123`);
  const live = join(tmp.path, `evident-docking-session-${ns}.${process.pid}.${startOf(process.pid)}-XyZ789`);
  mkdirSync(stale);
  mkdirSync(live);
  // An orphaned tool working in the stale folder, as Vina would (its cwd there): `sleep` under the name vina (the
  // sweep kills only the tools docking runs, by program name).
  const bin = join(tmp.path, 'bin');
  mkdirSync(bin);
  copyFileSync(spawnSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).stdout.trim(), join(bin, 'vina'));
  const orphan = spawn(join(bin, 'vina'), ['120'], { cwd: stale, stdio: 'ignore', detached: true });
  orphan.unref();
  orphanPid = orphan.pid;

  server = await startTestServer();
  for (let waited = 0; waited < 100 && existsSync(stale); waited++) await sleep(100);
  assert.equal(existsSync(stale), false, 'the dead process folder is removed at start');
  assert.equal(existsSync(live), true, 'a live owner folder stays');
  for (let waited = 0; waited < 50 && alive(orphan.pid!); waited++) await sleep(100);
  assert.equal(alive(orphan.pid!), false, 'the tool left in it is killed');
});
