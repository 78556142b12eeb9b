import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { open } from '../src/index.js';
import { tempKb } from './helpers.js';

const writer = fileURLToPath(new URL('./fixtures/catch-up-writer.ts', import.meta.url));
const FIRST = 1500;
const SECOND = 3000;

/** Runs the writer and kills it with SIGKILL while its search stage is catching up; returns the last status seen. */
function killDuringCatchUp(path: string): Promise<{ pending: number; progress: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=evident-source', '--import', 'tsx', writer, path, String(FIRST), String(SECOND)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let buf = '';
    let err = '';
    let last: { pending: number; progress: number } | null = null;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.startsWith('status ') || last !== null) continue;
        const st = JSON.parse(line.slice(7)) as { pending: number; progress: number };
        // Mid-way: some of the catch-up done, some left.
        if (st.pending > 0 && st.progress > 0) {
          last = st;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' || last === null) reject(new Error(`writer ended (code ${code}, ${signal}): ${err}`));
      else resolve(last);
    });
  });
}

test('kill -9 during a background catch-up: nothing is lost and the next open resumes it', {
  timeout: 180_000,
}, async () => {
  const t = tempKb();
  try {
    const killedAt = await killDuringCatchUp(t.path);
    assert.ok(killedAt.pending > 0 && killedAt.progress > 0 && killedAt.progress < 1, JSON.stringify(killedAt));
    await using db = await open(t.path);
    assert.equal((await db.stats()).claim_count, FIRST + SECOND, 'every acknowledged claim is in the log');
    // The vectors saved at the clean close were loaded; what the killed process had not finished is pending.
    const resumed = db.embeddingStatus()!;
    assert.ok(resumed.indexed >= FIRST, `saved vectors loaded: ${JSON.stringify(resumed)}`);
    await db.embeddingsReady();
    const done = db.embeddingStatus()!;
    assert.equal(done.pending, 0);
    assert.equal(done.progress, 1);
    assert.equal(done.eta_ms, null);
    assert.equal(done.indexed, FIRST + SECOND, 'every fact has its vector');
    // A claim of the second batch is found by meaning alone.
    const { results } = await db.search(`drug${FIRST + 7} kinase${(FIRST + 7) % 97}`, { k: 5, mode: 'semantic' });
    assert.ok(
      results.some((r) => r.claim.subject[0] === `drug${FIRST + 7}`),
      results.map((r) => r.claim.subject[0]).join(' '),
    );
  } finally {
    t.cleanup();
  }
});
