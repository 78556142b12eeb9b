// One Node floor, said the same way everywhere (issue 36, point 11): the README and CONTRIBUTING say "Node.js N or
// newer", the root package.json's engines.node starts at N, and every installed package admits N (an installed
// package that does not is an EBADENGINE warning on `npm ci` and a break on the Node the README promises).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';
import { repoRoot } from '../src/index.js';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const rootEngines: string = readJson(join(repoRoot, 'package.json')).engines.node;
const floor = semver.minVersion(rootEngines)!;

test("the README and CONTRIBUTING state the root package.json's Node floor", () => {
  for (const doc of ['README.md', 'CONTRIBUTING.md']) {
    const said = /Node\.js (\d+) or newer/.exec(readFileSync(join(repoRoot, doc), 'utf8'));
    assert.ok(said, `${doc} says which Node it needs`);
    assert.equal(Number(said[1]), floor.major, `${doc} says Node.js ${said[1]}, engines.node is ${rootEngines}`);
  }
  assert.equal(floor.minor + floor.patch, 0, `engines.node starts at a major release (${rootEngines})`);
});

test("every workspace package that declares engines.node declares the root's", () => {
  for (const ws of readJson(join(repoRoot, 'package.json')).workspaces as string[]) {
    const engines = readJson(join(repoRoot, ws, 'package.json')).engines?.node;
    if (engines !== undefined) assert.equal(engines, rootEngines, ws);
  }
});

test('every installed package admits the Node floor (and the Node running the tests)', () => {
  const lock = readJson(join(repoRoot, 'package-lock.json'));
  const refused: string[] = [];
  let checked = 0;
  for (const [path, entry] of Object.entries<{ link?: boolean }>(lock.packages)) {
    if (!path.includes('node_modules/') || entry.link) continue;
    const manifest = join(repoRoot, path, 'package.json');
    if (!existsSync(manifest)) continue; // an optional package for another platform, not installed here
    checked++;
    const range = readJson(manifest).engines?.node;
    if (typeof range !== 'string') continue;
    const versions = [floor.version];
    if (semver.satisfies(process.version, rootEngines)) versions.push(process.version);
    for (const v of versions) {
      if (!semver.satisfies(v, range)) refused.push(`${path} (engines.node ${range}) refuses Node ${v}`);
    }
  }
  assert.ok(checked > 100, `${checked} installed packages checked`);
  assert.deepEqual(refused, [], refused.join('\n'));
});
