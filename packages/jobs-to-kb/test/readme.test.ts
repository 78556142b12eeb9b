// The README's example runs as written from the repository root (@evident/testkit, readme.ts) and prints what it
// says: the claims of the top targets, none on a second export, none left after the retraction.
import assert from 'node:assert/strict';
import { testReadmeExamples } from '@evident/testkit';

testReadmeExamples('packages/jobs-to-kb/README.md', {
  timeoutMs: 300_000,
  check: (_example, run) => {
    const lines = run.stdout.trim().split('\n');
    const first = /^(\d+) claims from evident-job:td_\S+$/.exec(lines[0]!);
    assert.ok(first, lines[0]);
    const n = Number(first[1]);
    assert.ok(n > 0 && n <= 10, `${n} claims (top 10)`);
    assert.equal(lines[1], '0 new claims on a second export');
    const claims = lines.slice(2, -1);
    assert.equal(claims.length, n);
    for (const l of claims)
      assert.match(l, /^\S+ (up|down)regulated_in tumor 0\.\d+ http:\/\/127\.0\.0\.1:\d+\/v1\/results\/td_/);
    assert.equal(lines.at(-1), '0 claims left after retraction');
  },
});
