// Writes all_bcrabl_features.tsv, the rows enrichment.R analyses for ALL: the features the engine tests on the ALL
// data with the HG-U95A probe annotation (one probe set per gene) and the Entrez id each resolved to (empty when
// none). R's enrichment then runs on the same rows and genes as the engine; the reference test checks that the
// engine still tests exactly these.
//   node --conditions=evident-source --import tsx packages/target-discovery/test/reference/export-all-features.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { discoverTargets, geneIndex } from '@evident/target-discovery';
import { ref } from '../helpers.js';

const annotation = gunzipSync(readFileSync(new URL('../fixtures/hgu95a-annotation.tsv.gz', import.meta.url))).toString(
  'utf8',
);
const result = discoverTargets({
  expression_matrix: ref('all_bcrabl_expr.csv'),
  metadata: ref('all_bcrabl_meta.csv'),
  condition_column: 'mol.biol',
  case_value: 'BCR/ABL',
  control_value: 'NEG',
  options: { feature_annotation: annotation, include_druggability: false },
});
const genes = geneIndex();
const lines = result.table.rows.map(
  ([id, symbol]) => `${id}\t${symbol ? (genes.bySymbol(symbol)?.entrez_id ?? '') : ''}`,
);
writeFileSync(new URL('./all_bcrabl_features.tsv', import.meta.url), `feature_id\tentrez_id\n${lines.join('\n')}\n`);
console.log(`${lines.length} features`);
