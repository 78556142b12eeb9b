// Per-step CPU cost of an ingest (validate, entry, JSON, apply: resolve, duplicate check and index update in one pass), for profiling.
import { GraphState } from '../src/graph/state.js';
import { Registry } from '../src/model/registry.js';
import { validateClaimInput } from '../src/model/validate.js';
import type { ClaimInput } from '../src/index.js';
import type { ClaimEntry } from '../src/store/types.js';
const N = 200_000,
  E = N / 10;
let seed = 1;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const claims: ClaimInput[] = [];
for (let i = 0; i < N; i++)
  claims.push({
    subject: [`E${Math.floor(rnd() * E)}`, 'gene'],
    predicate: [`rel_${i % 50}`, 'c'],
    object: [`E${Math.floor(rnd() * E)}`, 'disease'],
    provenance: { source_type: 'literature', source_id: `pmid:${i % 50000}` },
    confidence: 0.5,
  });
const cpu = (label: string, fn: () => void) => {
  const c = process.cpuUsage();
  fn();
  const u = process.cpuUsage(c);
  console.log(label.padEnd(12), ((u.user + u.system) / N).toFixed(2), 'us/claim');
};
const s = new GraphState(new Registry());
cpu('validate', () => {
  for (const c of claims) validateClaimInput(c);
});
let entries: ClaimEntry[] = [];
cpu('entry', () => {
  entries = claims.map((c, i) => ({
    kind: 'claim',
    claim_id: `clm_0123456789abcdef${i.toString(16).padStart(16, '0')}`,
    subject: [c.subject[0], c.subject[1]],
    predicate: [c.predicate[0], c.predicate[1]],
    object: [c.object[0], c.object[1]],
    provenance: { source_type: c.provenance.source_type, source_id: c.provenance.source_id },
    confidence: c.confidence!,
  }));
});
cpu('stringify', () => {
  for (let i = 0; i < N; i += 4096) JSON.stringify(entries.slice(i, i + 4096));
});
cpu('apply', () => {
  for (let i = 0; i < N; i++) s.applyClaim(entries[i]!, 1, null);
});
const s2 = new GraphState(new Registry());
cpu('apply-fresh', () => {
  for (let i = 0; i < N; i++) s2.applyClaim(entries[i]!, 1, null);
});
cpu('apply-dups', () => {
  for (let i = 0; i < N; i++) s2.applyClaim(entries[i]!, 1, null);
});
