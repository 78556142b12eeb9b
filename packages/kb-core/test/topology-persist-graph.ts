// The graph the topology persistence tests keep and reopen: 12 planted communities of 20 entities (n0..n239), each
// a ring with chords, joined to the next community by one claim; sources named by `source`, so that two bases can
// have the same entities and facts from claims of other ids.
import type { ClaimInput } from '../src/index.js';

export function plantedClaims(source: string): ClaimInput[] {
  const out: ClaimInput[] = [];
  const link = (a: number, b: number, src: string) =>
    out.push({
      subject: [`n${a}`, 'gene'],
      predicate: ['interacts_with', 'association'],
      object: [`n${b}`, 'gene'],
      provenance: { source_type: 'literature', source_id: src },
    });
  for (let c = 0; c < 12; c++) {
    const at = (i: number) => c * 20 + (i % 20);
    for (let i = 0; i < 20; i++) {
      link(at(i), at(i + 1), `${source}-${c}`);
      link(at(i), at(i + 5), `${source}-${c}`);
    }
    link(at(3), ((c + 1) % 12) * 20 + 11, `${source}-bridge`);
  }
  return out;
}
