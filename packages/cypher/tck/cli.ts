// npm run tck -- DIR...: runs the TCK features under each folder and prints per-feature counts, then one JSON
// line { scenarios, passed, failed }. --verbose prints each failure's reason.
import { resolve } from 'node:path';
import { runFeatures } from './runner.js';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const base = process.env.INIT_CWD ?? process.cwd();
const dirs = args.filter((a) => !a.startsWith('--')).map((d) => resolve(base, d));
if (dirs.length === 0) {
  console.error('usage: npm run tck -- [--verbose] DIR...');
  process.exit(2);
}
let scenarios = 0;
let passed = 0;
for (const f of runFeatures(dirs)) {
  const p = f.scenarios.filter((s) => s.passed).length;
  scenarios += f.scenarios.length;
  passed += p;
  console.log(`${f.file}: ${p}/${f.scenarios.length}`);
  if (verbose) {
    for (const s of f.scenarios)
      if (!s.passed) console.log(`  FAIL ${s.name}\n    ${s.reason?.replace(/\n/g, '\n    ')}`);
  }
}
console.log(JSON.stringify({ scenarios, passed, failed: scenarios - passed }));
