// The server's log lines never hold its event loop: with stdout a pipe that its reader stops reading (a log
// shipper that falls behind, a bench busy with its own work), requests are still answered. pino's default wrote
// each line synchronously: once the pipe was full, every request waited for the reader (issue 37's fuzz stall).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '@evident/testkit';
import { jsonLine, killHard, spawnCli } from './helpers.js';

const dir = tempDir('evident-jobs-log-pipe-');
after(() => dir.cleanup());

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
