// evident-jobs serve and a stop that waits: the first SIGINT/SIGTERM starts a graceful stop, which waits for the
// requests in flight; a second signal meanwhile exits at once (128 + its number), where it used to be swallowed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { tempDir } from '@evident/testkit';
import { jsonLine, killHard, spawnCli } from './helpers.js';

const dir = tempDir('evident-jobs-stop-');
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) await killHard(c);
  dir.cleanup();
});

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return r({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => r({ code, signal }));
  });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`a second ${signal} during a graceful stop that waits exits at once`, async () => {
    const child = spawnCli(['serve', '--data-dir', dir.path, '--port', '0', '--workers', '1']);
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const { url } = await jsonLine(child, (o) => o.evident_jobs === 'listening');
    const { hostname, port } = new URL(url);
    // A request whose body never finishes (the request deadline is two minutes): the graceful stop waits for it.
    const held: Socket = connect(Number(port), hostname);
    held.on('error', () => {});
    await new Promise((r) => held.once('connect', r));
    held.write(
      `POST /v1/demo/run HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{"items":',
    );
    await new Promise((r) => setTimeout(r, 300));
    const end = exited(child);
    child.kill(signal);
    const first = await Promise.race([end, new Promise((r) => setTimeout(() => r('still stopping'), 2000))]);
    assert.equal(first, 'still stopping', 'the graceful stop waits for the request in flight');
    assert.match(stderr, new RegExp(`evident-jobs: stopping \\(${signal}\\)`));
    const sent = performance.now();
    child.kill(signal);
    const { code } = await end;
    assert.equal(code, signal === 'SIGTERM' ? 143 : 130);
    assert.ok(performance.now() - sent < 10_000, 'exited on the second signal, not at the request deadline');
    assert.match(stderr, new RegExp(`evident-jobs: ${signal} again; exiting now`));
    held.destroy();
  });
}

test('a graceful stop with nothing in flight exits 0 on the first signal', async () => {
  const child = spawnCli(['serve', '--data-dir', dir.path, '--port', '0', '--workers', '1']);
  children.push(child);
  await jsonLine(child, (o) => o.evident_jobs === 'listening');
  const end = exited(child);
  child.kill('SIGTERM');
  assert.deepEqual(await end, { code: 0, signal: null });
});
