import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { referencePath } from '@evident/testkit';
import { loadRDKit, parseSmiles, patternFingerprint, hasSubstructMatch } from '../src/rdkit.js';
import { painsAlerts, painsHits, stabilityAlerts, stabilityHits } from '../src/chem/alerts.js';
import { qedParams } from '../src/chem/qed.js';

test('alert tables load and compile: 480 PAINS, 116 unwanted groups, stability alerts', async () => {
  const rd = await loadRDKit();
  assert.equal(painsAlerts().length, 480);
  assert.equal(qedParams().structural_alert_smarts.length, 116);
  assert.ok(stabilityAlerts().length >= 20);
  const m = parseSmiles(rd, 'c1ccccc1')!;
  for (const a of [...painsAlerts(), ...stabilityAlerts()]) hasSubstructMatch(rd, m, a.smarts);
  m.delete();
});

test('known PAINS and unstable groups are flagged; ordinary drugs are not', async () => {
  const rd = await loadRDKit();
  const hits = (s: string) => {
    const m = parseSmiles(rd, s)!;
    try {
      return [...painsHits(rd, m), ...stabilityHits(rd, m)];
    } finally {
      m.delete();
    }
  };
  // a 5-benzylidene rhodanine (ene_rhod PAINS family)
  assert.ok(hits('O=C1NC(=S)SC1=Cc1ccccc1').some((h) => h.startsWith('pains:ene_rhod')));
  assert.ok(hits('O=C1C=CC(c2ccccc2)=C1O').includes('stability:cyclopentadienone'));
  assert.ok(hits('c1ccc(-c2nnc(C3CCCCC3)nn2)cc1').includes('stability:tetrazine_1245'));
  for (const drug of [
    'CC(=O)Nc1ccc(O)cc1',
    'COc1cc2ncnc(Nc3cccc(Cl)c3F)c2cc1OC',
    'CN1CCN(Cc2ccc(C(=O)Nc3ccc(C)c(Nc4nccc(-c5cccnc5)n4)c3)cc2)CC1',
  ]) {
    assert.deepEqual(hits(drug), [], drug);
  }
});

test('pattern-fingerprint screening never changes a match result', async () => {
  const rd = await loadRDKit();
  const patterns = [
    ...painsAlerts().map((a) => a.smarts),
    ...stabilityAlerts().map((a) => a.smarts),
    ...qedParams().structural_alert_smarts,
  ];
  const smiles = readFileSync(referencePath('chemistry', 'nci_public_ref.csv'), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1, 301)
    .map((l) => l.split(',')[1]!);
  let matches = 0;
  for (const s of smiles) {
    const m = parseSmiles(rd, s);
    if (!m) continue;
    const fp = patternFingerprint(m);
    for (const p of patterns) {
      const full = hasSubstructMatch(rd, m, p);
      assert.equal(hasSubstructMatch(rd, m, p, fp), full, `${s} / ${p}`);
      if (full) matches++;
    }
    m.delete();
  }
  assert.ok(matches > 50, `only ${matches} matches: the check would be vacuous`);
});

test('PAINS matching agrees with RDKit FilterCatalog (RDKit 2022.09) on the reference set', async () => {
  const rd = await loadRDKit();
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/pains-filtercatalog.json', import.meta.url), 'utf8')) as {
    hits: Record<string, string[]>;
  };
  const rows = readFileSync(referencePath('chemistry', 'nci_public_ref.csv'), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(','));
  let agree = 0;
  let flagged = 0;
  for (const [id, smiles] of rows) {
    const m = parseSmiles(rd, smiles!);
    if (!m) continue;
    const got = [...new Set(painsHits(rd, m, patternFingerprint(m)).map((h) => h.slice('pains:'.length)))].sort();
    m.delete();
    const want = fixture.hits[id!] ?? [];
    if (JSON.stringify(got) === JSON.stringify(want)) agree++;
    if (want.length) flagged++;
  }
  console.log(`# PAINS: ${agree} of ${rows.length} molecules agree (${flagged} flagged by RDKit)`);
  assert.ok(flagged > 100);
  assert.ok(agree >= rows.length - 1, `${agree}`);
});
