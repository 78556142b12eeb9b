// The server's log lines never hold its event loop: with stdout a pipe that its reader stops reading (a log
// shipper that falls behind, a bench busy with its own work), requests are still answered. pino's default wrote
// each line synchronously: once the pipe was full, every request waited for the reader (issue 37's fuzz stall).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '@evident/testkit';
import { jsonLine, killHard, onJsonLines, spawnCli, waitFor } from './helpers.js';

const dir = tempDir('evident-jobs-log-pipe-');
const dir2 = tempDir('evident-jobs-log-bound-');
after(() => {
  dir.cleanup();
  dir2.cleanup();
});

test('requests are answered while nobody reads the log pipe', async () => {
  const child = spawnCli(['serve', '--data-dir', dir.path, '--port', '0', '--host', '127.0.0.1'], {
    EVIDENT_LOG_LEVEL: 'info',
  });
  try {
    const { url } = await jsonLine(child, (o) => o.evident_jobs === 'listening', 120_000);
    // From here on stdout is not read: the pipe fills after a few hundred lines (two per request).
    child.stdout!.pause();
    let answered = 0;
    const one = async () => {
      const r = await fetch(`${url}/v1/jobs`, { signal: AbortSignal.timeout(20_000) });
      await r.arrayBuffer();
      answered++;
    };
    // About 1.5 MB of log lines: far past what a pipe or socket pair buffers.
    for (let i = 0; i < 200; i++) await Promise.all(Array.from({ length: 15 }, one));
    assert.equal(answered, 3000);
  } finally {
    await killHard(child);
  }
});

// What waits for the reader is bounded (EVIDENT_LOG_BUFFER_MB): past it lines are dropped, not held, and once the
// reader has caught up one warning counts them, so the log says what it lost.
test('a log reader that stops holds at most EVIDENT_LOG_BUFFER_MB; the dropped lines are counted after', async (t) => {
  const bound = 64 * 1024;
  const child = spawnCli(['serve', '--data-dir', dir2.path, '--port', '0', '--host', '127.0.0.1'], {
    EVIDENT_LOG_LEVEL: 'info',
    EVIDENT_LOG_BUFFER_MB: String(bound / 1024 / 1024),
  });
  try {
    const { url } = await jsonLine(child, (o) => o.evident_jobs === 'listening', 120_000);
    child.stdout!.pause();
    // Counted from here: a 'data' listener added to a paused stream does not resume it.
    let bytes = 0;
    let requestLines = 0;
    const reports: { dropped_lines: number }[] = [];
    child.stdout!.on('data', (d: Buffer) => {
      bytes += d.length;
    });
    onJsonLines(child, (o) => {
      if (o.msg === 'incoming request' || o.msg === 'request completed') requestLines++;
      if (typeof o.dropped_lines === 'number') reports.push(o);
    });
    const one = async () => {
      const r = await fetch(`${url}/v1/jobs`, { signal: AbortSignal.timeout(20_000) });
      await r.arrayBuffer();
    };
    for (let i = 0; i < 200; i++) await Promise.all(Array.from({ length: 15 }, one));
    child.stdout!.resume();
    await waitFor(async () => (reports.length > 0 ? reports : undefined), 30_000);
    const dropped = reports.reduce((n, r) => n + r.dropped_lines, 0);
    t.diagnostic(
      `bound ${bound} B: ${bytes} B read after the pause, ${requestLines} request lines, ${dropped} dropped`,
    );
    // Two lines per request: each one was either written or counted as dropped.
    assert.ok(dropped > 0, 'lines were dropped');
    assert.ok(requestLines + dropped >= 6000, `${requestLines} written + ${dropped} dropped < 6000`);
    // What reached the reader: the bound, what the socket pair itself buffers, and the warning; not the 1.5 MB.
    assert.ok(bytes < 1024 * 1024, `${bytes} bytes read after the pause`);
    assert.equal(reports.length, 1, 'one warning once the reader caught up');
  } finally {
    await killHard(child);
  }
});
