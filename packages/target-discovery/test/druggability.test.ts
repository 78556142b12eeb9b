import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTargets, geneIndex, priorityScore } from '@evident/target-discovery';

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

test('families follow the documented GO/Pfam rules', () => {
  const idx = geneIndex();
  const fam = (s: string) => idx.bySymbol(s)!.family;
  assert.equal(fam('ABL1'), 'kinase');
  assert.equal(fam('DRD2'), 'GPCR');
  assert.equal(fam('ESR1'), 'nuclear receptor');
  assert.equal(fam('SCN5A'), 'ion channel');
  assert.equal(fam('MMP9'), 'protease');
  assert.equal(fam('PTPN1'), 'phosphatase');
  assert.equal(fam('SLC6A4'), 'transporter');
  assert.equal(fam('GAPDH'), 'other enzyme');
  assert.equal(fam('ACTB'), 'other');
  const egfr = idx.bySymbol('EGFR')!;
  assert.ok(egfr.evidence_go_mf.includes('GO:0004672'));
  assert.ok(egfr.evidence_pfam.includes('PF07714'));
});

test('tiers follow Finan et al. 2017: approved-drug targets 1, their close homologues 2, druggable families 3', () => {
  const idx = geneIndex();
  const gene = (s: string) => {
    const r = idx.bySymbol(s);
    assert.ok(r, `${s} is in the table`);
    return r;
  };
  // Efficacy targets of approved drugs, whatever their GO family.
  for (const [symbol, drug] of [
    ['PARP1', 'olaparib'],
    ['EGFR', 'erlotinib'],
    ['HDAC1', 'vorinostat'],
    ['EZH2', 'tazemetostat'],
    ['EZH1', 'valemetostat'],
    ['ESR1', 'tamoxifen'],
    ['TNF', 'adalimumab'],
  ] as const) {
    const r = gene(symbol);
    assert.equal(r.tier, 1, `${symbol} tier`);
    assert.equal(r.tier_source, 'approved_drug');
    assert.ok(r.drugs.includes(drug), `${symbol} drugs ${r.drugs.join(', ')}`);
    assert.match(r.tier_evidence, new RegExp(drug));
  }
  // A close homologue: same symbol root and Pfam architecture as a tier-1 gene.
  const hdac8 = gene('HDAC8');
  assert.equal(hdac8.tier, 2);
  assert.equal(hdac8.tier_source, 'homologue');
  assert.match(hdac8.tier_evidence, /HDAC[1-3]/);
  // Druggable family without drug precedent; no druggable evidence at all.
  assert.deepEqual([gene('MAP3K19').tier, gene('MAP3K19').tier_source], [3, 'druggable_family']);
  assert.deepEqual([gene('ACTB').tier, gene('ACTB').tier_source], [4, 'none']);
  // Olfactory and taste receptors are GPCRs but never tier 1 or 2.
  const chemosensory = idx.all().filter((r) => /^(OR\d+[A-Z]+\d+[A-Z]*|TAS1R\d|TAS2R\d+)$/.test(r.symbol));
  assert.ok(chemosensory.length > 300, `${chemosensory.length} olfactory/taste receptors`);
  for (const r of chemosensory) assert.ok(r.tier >= 3, `${r.symbol} is tier ${r.tier}`);
  assert.equal(gene('OR2A4').family, 'GPCR');
  // Every tier-1 gene names its drugs; no other tier does.
  for (const r of idx.all()) assert.equal(r.tier === 1, r.drugs.length > 0, r.symbol);
});

test('safety liabilities: the Bowes et al. 2012 panel is flagged, KCNH2 (hERG) first among them', () => {
  const idx = geneIndex();
  const kcnh2 = idx.bySymbol('KCNH2')!;
  assert.match(kcnh2.safety_liability ?? '', /hERG/);
  assert.match(kcnh2.safety_liability ?? '', /QT/);
  const flagged = idx.all().filter((r) => r.safety_liability !== null);
  assert.equal(flagged.length, 46); // 44 panel targets, two of them two-subunit channels
  for (const s of ['SCN5A', 'CACNA1C', 'HTR2B', 'OPRM1', 'PTGS1', 'SLC6A4', 'AR', 'NR3C1', 'LCK']) {
    assert.ok(idx.bySymbol(s)?.safety_liability, `${s} flagged`);
  }
  for (const s of ['EGFR', 'PARP1', 'GAPDH']) assert.equal(idx.bySymbol(s)?.safety_liability, null, s);
});

test('the priority score lowers a safety liability by a documented 10 points', () => {
  assert.equal(priorityScore(1e-6, 2, 1, true) - priorityScore(1e-6, 2, 1, true, true), 10);
  assert.equal(priorityScore(1, 0, 4, true, true), 0); // floored at 0
  assert.equal(priorityScore(1e-6, 2, 1, false, true), priorityScore(1e-6, 2, 1, false)); // no druggability, no flag
});

test('KCNH2 ranks below an otherwise equal tier-1 gene and shows its liability in the results', () => {
  // 40 genes x 8 log-expression samples; KCNH2 and EGFR (both tier 1) carry the same strong change.
  const symbols = [
    'KCNH2',
    'EGFR',
    ...geneIndex()
      .all()
      .filter((r) => r.tier === 4)
      .slice(0, 38)
      .map((r) => r.symbol),
  ];
  const samples = Array.from({ length: 8 }, (_, j) => `s${j + 1}`);
  const noise = (g: number, j: number) => Math.sin(g * 12.9898 + j * 78.233) * 0.3;
  const rows = symbols.map((s, g) => {
    const lift = g < 2 ? 3 : 0;
    return [s, ...samples.map((_, j) => (8 + (j < 4 ? lift : 0) + noise(g < 2 ? 0 : g, j)).toFixed(4))].join(',');
  });
  const r = discoverTargets({
    expression_matrix: [['gene', ...samples].join(','), ...rows].join('\n'),
    metadata: ['sample,group', ...samples.map((s, j) => `${s},${j < 4 ? 'case' : 'control'}`)].join('\n'),
    condition_column: 'group',
    case_value: 'case',
    control_value: 'control',
  });
  const kcnh2 = r.targets.find((t) => t.gene_symbol === 'KCNH2');
  const egfr = r.targets.find((t) => t.gene_symbol === 'EGFR');
  assert.ok(kcnh2 && egfr, 'both significant');
  assert.equal(kcnh2.p_value, egfr.p_value); // the same statistics...
  assert.equal(kcnh2.druggability?.tier, 1);
  assert.equal(kcnh2.druggability?.safety_liability, true);
  assert.match(kcnh2.druggability?.safety_concern ?? '', /hERG/);
  assert.equal(egfr.druggability?.safety_liability, false);
  assert.ok(kcnh2.rank > egfr.rank, `KCNH2 rank ${kcnh2.rank}, EGFR ${egfr.rank}`); // ...ranked lower
  assert.ok(Math.abs(egfr.priority_score - kcnh2.priority_score - 10) < 1e-9);
});
