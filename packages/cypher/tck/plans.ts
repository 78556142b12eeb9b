// npm run tck:plans -- DIR...: how many of the TCK's queries (each "executing query:" step of each scenario,
// outlines expanded) the planner plans, and why the others are interpreted or refused (one JSON line:
// { queries, planned, interpreted: { reason: count }, refused }; refused: the TCK's compile-error scenarios).
import { resolve } from 'node:path';
import { compile, MemoryGraph, planOf } from '../src/index.js';
import { check } from '../src/semantic.js';
import { featureFiles, parseFeature } from './runner.js';

const base = process.env.INIT_CWD ?? process.cwd();
const dirs = process.argv.slice(2).map((d) => resolve(base, d));
if (dirs.length === 0) {
  console.error('usage: npm run tck:plans -- DIR...');
  process.exit(2);
}
let queries = 0;
let planned = 0;
let refused = 0;
const interpreted: Record<string, number> = {};
for (const file of featureFiles(dirs)) {
  for (const p of parseFeature(file).pickles) {
    for (const s of p.steps) {
      if (s.text !== 'executing query:' || s.doc === undefined) continue;
      queries++;
      let plan: ReturnType<typeof planOf>;
      try {
        plan = planOf(check(compile(s.doc)), new MemoryGraph());
      } catch (e) {
        if (process.env.DEBUG_PLANS) console.error(String(e).slice(0, 100));
        refused++;
        continue;
      }
      if (plan.op === 'Interpret') interpreted[plan.reason] = (interpreted[plan.reason] ?? 0) + 1;
      else planned++;
    }
  }
}
console.log(JSON.stringify({ queries, planned, interpreted, refused }));
