// kb-console's #! line (issue 37): it starts node with glibc's mmap threshold fixed, which the README's memory
// figures depend on; the hostile bench reads the same line (bench/shebang.ts) to start the console as a user would.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { shebangLaunch } from '../bench/shebang.js';

const bin = fileURLToPath(new URL('../src/bin/kb-console.ts', import.meta.url));

describe('kb-console launch line', () => {
  it('fixes malloc’s mmap threshold and runs node', () => {
    const launch = shebangLaunch(bin, {});
    assert.deepEqual(launch.env, { MALLOC_MMAP_THRESHOLD_: '131072' });
    assert.deepEqual(launch.nodeFlags, []);
  });

  it('leaves a variable the caller set to the caller, as env would', () => {
    assert.deepEqual(shebangLaunch(bin, { MALLOC_MMAP_THRESHOLD_: '65536' }).env, {});
  });

  it('a script with the bin’s line gets the variable when run directly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-launch-'));
    try {
      const script = join(dir, 'probe.mjs');
      const line = readFileSync(bin, 'utf8').split('\n', 1)[0];
      writeFileSync(script, `${line}\nprocess.stdout.write(process.env.MALLOC_MMAP_THRESHOLD_ ?? 'unset');\n`, {
        mode: 0o700,
      });
      const env = { ...process.env };
      delete env.MALLOC_MMAP_THRESHOLD_;
      assert.equal(execFileSync(script, { env, encoding: 'utf8' }), '131072');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a line that does not run node', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-launch-'));
    try {
      const script = join(dir, 'x.js');
      writeFileSync(script, '#!/usr/bin/env -S A=1 python3\n');
      assert.throws(() => shebangLaunch(script, {}), /not node/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
