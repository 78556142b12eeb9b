// The call log of a run as CSV (call, smiles, score, then per endpoint its transformed value and "<name> (raw)"):
// the one writer behind Oracle.toCsv, the CLI's calls.csv and the job API's ?format=calls.csv, so a log reads the
// same wherever it came from.
import type { EndpointInfo } from './profile.js';
import type { OracleCall } from './oracle.js';
import { csvField } from '../results.js';

export function callLogCsv(endpoints: readonly EndpointInfo[], calls: readonly OracleCall[]): string {
  const names = endpoints.map((e) => e.name);
  const header = ['call', 'smiles', 'score', ...names.flatMap((n) => [n, `${n} (raw)`])];
  const rows = [header.map(csvField).join(',')];
  for (const c of calls) {
    const byName = new Map(c.components.map((e) => [e.name, e]));
    const cells: unknown[] = [c.call, c.smiles, c.score];
    for (const n of names) {
      const e = byName.get(n);
      cells.push(e?.value ?? '', e?.raw ?? '');
    }
    rows.push(cells.map(csvField).join(','));
  }
  return `${rows.join('\n')}\n`;
}
