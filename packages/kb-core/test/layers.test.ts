// kb-core's layers (ARCHITECTURE.md, "kb-core's layers"): every import in src goes down the stated layers, never
// up and never sideways between two folders of one layer (the stages do not import each other). A static scan of
// the import and export-from statements of every file in src, type-only imports included: a type that must be
// imported upward belongs lower.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Lowest first. A folder may import its own files and any folder of a lower layer. */
export const LAYERS: readonly (readonly string[])[] = [
  // the public types, the errors and the call forms: files at the root of src
  ['(root)'],
  ['model'],
  ['vocab'],
  ['store'],
  ['graph'],
  // helpers of the stages: the stages' worker threads, and the embedders search ranks with
  ['offload', 'embeddings'],
  // the stages: functions over a ReadContext
  ['analytics', 'cypher', 'reasoning', 'search', 'topology'],
  ['write'],
  ['replica'],
  ['facade'],
  // index.ts, the package's exports
  ['(entry)'],
];

const ENTRY = 'index.ts';

function layerOf(folder: string): number {
  const i = LAYERS.findIndex((l) => l.includes(folder));
  if (i < 0) throw new Error(`src/${folder} is in no layer: place it in LAYERS and in ARCHITECTURE.md`);
  return i;
}

/** The part of src a file belongs to: its top folder, '(root)' for a file at the root, '(entry)' for index.ts. */
function partOf(file: string): string {
  const rel = relative(SRC, file).split('\\').join('/');
  if (rel === ENTRY) return '(entry)';
  const slash = rel.indexOf('/');
  return slash < 0 ? '(root)' : rel.slice(0, slash);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// `import ... from '…'`, `import '…'`, `export ... from '…'`, `import('…')`, over several lines too.
const SPECIFIERS =
  /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative module specifiers of a file's import statements, comments removed first. */
export function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(SPECIFIERS)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.startsWith('.')) out.push(spec);
  }
  return out;
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = partOf(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(`${SRC}/`)) {
        found.push(`${relative(SRC, file)} imports ${spec}, outside src`);
        continue;
      }
      const to = partOf(target);
      if (to === from) continue;
      const [a, b] = [layerOf(from), layerOf(to)];
      if (b > a) found.push(`${relative(SRC, file)} imports ${spec}: ${to} is above ${from}`);
      else if (b === a) found.push(`${relative(SRC, file)} imports ${spec}: ${to} and ${from} are one layer`);
    }
  }
  return found;
}

test('every folder of src is in a layer', () => {
  const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
  for (const f of folders) assert.doesNotThrow(() => layerOf(f), f);
});

test('imports in src only go down the layers', () => {
  assert.deepEqual(violations(), []);
});

test('the scan sees every form of import', () => {
  const text = [
    "import { a } from './a.js';",
    "import type { B } from '../b.js';",
    'import {\n  c,\n  type D,\n} from "../c/d.js";',
    "export * from './e.js';",
    "export type { F } from './f.js';",
    "import './g.js';",
    "const h = await import('./h.js');",
    "import x from 'node:fs';",
    "// import { no } from './commented.js';",
    "/* export { no } from './block.js'; */",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['./a.js', '../b.js', '../c/d.js', './e.js', './f.js', './g.js', './h.js']);
});
