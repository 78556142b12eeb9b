// The call log of a run as CSV, from the calls optimize() returns: the same columns as Oracle.toCsv (call,
// smiles, score, then per endpoint its transformed value and "<name> (raw)"), so a log reads the same whether it
// came from an oracle, the CLI or the job API.
import type { EndpointInfo } from '../profile/profile.js';
import type { OracleCall } from '../profile/oracle.js';
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
