// Writes the example study (examples/*.csv), its request body (examples/request.json) and the README's
// plots (docs/example-volcano.svg, docs/example-ma.svg).
// Run: npm run make-example -w @evident/target-discovery
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticStudy } from '../src/examples/synthetic.js';
import { discoverTargets } from '../src/discover.js';

const dir = fileURLToPath(new URL('../examples/', import.meta.url));
const docs = fileURLToPath(new URL('../docs/', import.meta.url));
mkdirSync(dir, { recursive: true });
mkdirSync(docs, { recursive: true });
const study = syntheticStudy();
writeFileSync(`${dir}tumor_vs_normal_counts.csv`, study.countsCsv);
writeFileSync(`${dir}tumor_vs_normal_metadata.csv`, study.metadataCsv);
writeFileSync(
  `${dir}planted_genes.csv`,
  `symbol,log2_fold_change\n${study.planted.map((p) => `${p.symbol},${p.log2_fold_change.toFixed(3)}`).join('\n')}\n`,
);
const request = {
  expression_matrix: Buffer.from(study.countsCsv).toString('base64'),
  metadata: Buffer.from(study.metadataCsv).toString('base64'),
  condition_column: 'condition',
  case_value: 'tumor',
  control_value: 'normal',
  options: { include_druggability: true, min_fold_change: 1.5, max_pvalue: 0.05, covariates: ['batch'] },
};
writeFileSync(`${dir}request.json`, `${JSON.stringify(request)}\n`);
const result = discoverTargets({ ...request, expression_matrix: study.countsCsv, metadata: study.metadataCsv });
writeFileSync(`${docs}example-volcano.svg`, result.plots.volcano_svg);
writeFileSync(`${docs}example-ma.svg`, result.plots.ma_svg);
console.log(
  `wrote ${study.symbols.length} genes x ${study.sampleIds.length} samples, ${study.planted.length} planted; ` +
    `${result.summary.significant} significant, ${result.summary.druggable_significant} druggable`,
);
console.log(JSON.stringify(result.targets.slice(0, 2), null, 2));
