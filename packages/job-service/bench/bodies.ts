// Request bodies the benchmarks send: a small target-discovery submission, and one whose base64 expression
// matrix makes the JSON body about a given size (a synthetic counts table, 200 samples, deterministic).
import { syntheticStudy } from '@evident/target-discovery';

const b64 = (s: string) => Buffer.from(s).toString('base64');

const small = syntheticStudy({ genes: 200, samplesPerGroup: 3 });
export const SMALL_TD_REQUEST = {
  expression_matrix: b64(small.countsCsv),
  metadata: b64(small.metadataCsv),
  condition_column: 'condition',
  case_value: 'tumor',
  control_value: 'normal',
};

/** A valid /v1/targets/discover body of about `bytes` bytes (the matrix is base64: 4/3 of its CSV). */
export function tdMatrixRequest(bytes: number, samples = 200) {
  const names = Array.from({ length: samples }, (_, i) => `S${i + 1}`);
  const metadata = ['sample,condition', ...names.map((n, i) => `${n},${i % 2 ? 'tumor' : 'normal'}`)].join('\n');
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 16;
  };
  const csvBytes = Math.floor((bytes * 3) / 4);
  const rows: string[] = [`gene_id,${names.join(',')}`];
  let size = rows[0]!.length;
  for (let g = 1; size < csvBytes; g++) {
    const cells = new Array<string>(samples);
    for (let s = 0; s < samples; s++) cells[s] = String(next() % 2000);
    const row = `GENE${g},${cells.join(',')}`;
    rows.push(row);
    size += row.length + 1;
  }
  return {
    expression_matrix: b64(rows.join('\n')),
    metadata: b64(metadata),
    condition_column: 'condition',
    case_value: 'tumor',
    control_value: 'normal',
  };
}
