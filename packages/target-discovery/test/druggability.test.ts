import { test } from 'node:test';
import assert from 'node:assert/strict';
import { geneIndex } from '@evident/target-discovery';

test('the shipped gene table resolves symbols, aliases, Entrez and Ensembl ids', () => {
  const idx = geneIndex();
  assert.ok(idx.size > 30000, `table has ${idx.size} genes`);
  assert.equal(idx.resolve('EGFR')?.entrez_id, '1956');
  assert.equal(idx.resolve('egfr')?.symbol, 'EGFR'); // case-insensitive
  assert.equal(idx.resolve('ERBB1')?.symbol, 'EGFR'); // alias
  assert.equal(idx.resolve('1956')?.symbol, 'EGFR'); // Entrez
  assert.equal(idx.resolve('ENSG00000146648')?.symbol, 'EGFR'); // Ensembl
  assert.equal(idx.resolve('ENSG00000146648.18')?.symbol, 'EGFR'); // versioned Ensembl
  assert.equal(idx.resolve('ENSG00000146648|EGFR')?.symbol, 'EGFR');
  assert.equal(idx.resolve('1000_at'), undefined); // probe set ids are not genes
  assert.equal(idx.resolve('EGFR')?.uniprot, 'P00533');
});

test('families and tiers follow the documented GO/Pfam rules', () => {
  const idx = geneIndex();
  const fam = (s: string) => {
    const r = idx.bySymbol(s)!;
    return [r.family, r.tier];
  };
  assert.deepEqual(fam('ABL1'), ['kinase', 1]);
  assert.deepEqual(fam('DRD2'), ['GPCR', 1]);
  assert.deepEqual(fam('ESR1'), ['nuclear receptor', 1]);
  assert.deepEqual(fam('SCN5A'), ['ion channel', 1]);
  assert.deepEqual(fam('MMP9'), ['protease', 2]);
  assert.deepEqual(fam('PTPN1'), ['phosphatase', 2]);
  assert.deepEqual(fam('SLC6A4'), ['transporter', 2]);
  assert.deepEqual(fam('GAPDH'), ['other enzyme', 3]);
  assert.deepEqual(fam('ACTB'), ['other', 4]);
  const egfr = idx.bySymbol('EGFR')!;
  assert.ok(egfr.evidence_go_mf.includes('GO:0004672'));
  assert.ok(egfr.evidence_pfam.includes('PF07714'));
});
