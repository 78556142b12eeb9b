// What the examples and `npm start` write (work/, data/) is neither tracked nor linted (issue 36, point 9): the
// README's compound example once saved poses.html at the root, and `npm run lint` then failed on 8,611
// diagnostics. Here, in a repository of its own with this repository's .gitignore and biome.json, a clean source
// file beside generated pages and JSON that Biome would refuse: git ignores them and `biome check .` passes.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot, tempDir } from '../src/index.js';

// A page with the faults a generated results page has for a linter: no lang, an image without alt, a click
// handler on a div, eval; and JSON formatted as a program writes it.
const PAGE =
  '<html><body><img src="x.png"><div onclick="go()">pose</div><script>var x = 1; eval("go()")</script></body></html>\n';
const JSON_TEXT = '{"job_id":"td_1",   "targets":[ ]}\n';

test('work/ and data/ are ignored by git and by Biome, at the root only', (t) => {
  const dir = tempDir('evident-ignored-');
  t.after(dir.cleanup);
  const root = dir.path;
  execFileSync('git', ['init', '--quiet'], { cwd: root });
  copyFileSync(join(repoRoot, '.gitignore'), join(root, '.gitignore'));
  copyFileSync(join(repoRoot, 'biome.json'), join(root, 'biome.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'ok.ts'), "export const ok = 'yes';\n");
  const generated = ['work/poses.html', 'work/results.json', 'data/page.html'];
  for (const f of generated) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), f.endsWith('.html') ? PAGE : JSON_TEXT);
  }

  const ignored = spawnSync('git', ['check-ignore', ...generated], { cwd: root, encoding: 'utf8' });
  assert.deepEqual(ignored.stdout.trim().split('\n'), generated, 'git ignores what the examples write');

  const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
  const lint = spawnSync(biome, ['check', '.'], { cwd: root, encoding: 'utf8' });
  assert.equal(lint.status, 0, `biome check . fails on generated output:\n${lint.stdout}\n${lint.stderr}`);

  // The same page as source (a package's web page) is linted: the ignore is for output folders, not for HTML.
  mkdirSync(join(root, 'src', 'work'));
  writeFileSync(join(root, 'src', 'work', 'page.html'), PAGE);
  const source = spawnSync(biome, ['check', '.'], { cwd: root, encoding: 'utf8' });
  assert.notEqual(source.status, 0, 'an HTML page in the source tree is still linted');
  assert.match(source.stdout + source.stderr, /src\/work\/page\.html/);
});
