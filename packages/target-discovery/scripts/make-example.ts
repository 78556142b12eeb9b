// Writes the example study (examples/*.csv) and its request body (examples/request.json) used in the README.
// Run: node --conditions=evident-source --import tsx scripts/make-example.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticStudy } from '../src/examples/synthetic.js';

const dir = fileURLToPath(new URL('../examples/', import.meta.url));
mkdirSync(dir, { recursive: true });
const study = syntheticStudy();
writeFileSync(dir + 'tumor_vs_normal_counts.csv', study.countsCsv);
writeFileSync(dir + 'tumor_vs_normal_metadata.csv', study.metadataCsv);
writeFileSync(dir + 'planted_genes.csv', 'symbol,log2_fold_change\n' + study.planted.map((p) => `${p.symbol},${p.log2_fold_change.toFixed(3)}`).join('\n') + '\n');
const request = {
  expression_matrix: Buffer.from(study.countsCsv).toString('base64'),
  metadata: Buffer.from(study.metadataCsv).toString('base64'),
  condition_column: 'condition',
  case_value: 'tumor',
  control_value: 'normal',
  options: { include_druggability: true, min_fold_change: 1.5, max_pvalue: 0.05, covariates: ['batch'] },
};
writeFileSync(dir + 'request.json', JSON.stringify(request) + '\n');
console.log(`wrote ${study.symbols.length} genes x ${study.sampleIds.length} samples, ${study.planted.length} planted, to ${dir}`);
