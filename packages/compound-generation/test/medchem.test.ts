import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRDKit, parseSmiles, hasSubstructMatch } from '../src/rdkit.js';
import { stabilityAlerts, stabilityHits, unwantedAlertNames } from '../src/chem/alerts.js';
import { qedParams } from '../src/chem/qed.js';
import { blockingAlerts, medchemAlerts, medchemHits, MICHAEL_ACCEPTOR_UNWANTED } from '../src/chem/medchem.js';
import { Evaluator } from '../src/scoring/evaluate.js';
import { validateRequest } from '../src/request.js';
import { FragmentLibrary } from '../src/generation/library.js';

const rd = await loadRDKit();

function withMol<T>(smiles: string, fn: (m: NonNullable<ReturnType<typeof parseSmiles>>) => T): T {
  const m = parseSmiles(rd, smiles);
  assert.ok(m, `RDKit parses ${smiles}`);
  try {
    return fn(m);
  } finally {
    m.delete();
  }
}

const medchem = (s: string) => withMol(s, (m) => medchemHits(rd, m).map((h) => h.slice('medchem:'.length)));
/** The alerts that existed before the med-chem list: QED unwanted groups and stability alerts. */
const existing = (s: string) =>
  withMol(s, (m) => {
    const smarts = qedParams().structural_alert_smarts;
    const idx = smarts.flatMap((q, i) => (hasSubstructMatch(rd, m, q) ? [i] : []));
    return [...unwantedAlertNames(idx), ...stabilityHits(rd, m)];
  });

test('the med-chem list is documented: name, group, SMARTS, reason, examples on both sides', () => {
  const alerts = medchemAlerts();
  assert.ok(alerts.length >= 12);
  assert.equal(new Set(alerts.map((a) => a.name)).size, alerts.length, 'names are unique');
  const groups = new Set(alerts.map((a) => a.group));
  for (const g of [
    'formaldehyde_release',
    'phenol_keto_tautomer',
    'michael_acceptor',
    'monofluoride',
    'oxidisable_dihydroarene',
    'vinyl_arene',
  ])
    assert.ok(groups.has(g as never), `group ${g} present`);
  for (const a of alerts) {
    assert.match(a.name, /^[a-z0-9_]+$/);
    assert.ok(a.reason.length > 40, `${a.name} has a reason`);
    assert.ok(a.positives.length >= 1 && a.negatives.length >= 1, `${a.name} has examples on both sides`);
    assert.ok(rd.get_qmol(a.smarts)?.is_valid(), `${a.name} SMARTS compiles`);
  }
});

test('every entry flags its positive examples and none of its negative ones', () => {
  for (const a of medchemAlerts()) {
    for (const s of a.positives) assert.ok(medchem(s).includes(a.name), `${a.name} should flag ${s}`);
    for (const s of a.negatives) assert.ok(!medchem(s).includes(a.name), `${a.name} should not flag ${s}`);
  }
});

test('the cases an entry leaves out to its covered_by alerts are reported by those alerts', () => {
  // one neighbouring case per entry that names an existing alert in its notes: that alert fires on it
  const cases: Array<[string, string]> = [
    ['CN(C)CN(C)C', 'stability:acyclic_aminal'],
    ['OCN1CCCCC1', 'stability:acyclic_aminal'],
    ['C=CC(=O)N', 'unwanted:C=!@CC=[O,S]'],
    ['O=C1C=CC(=O)C=C1', 'unwanted:C1(=[O,N])C=CC(=[O,N])C=C1'],
    ['C=CC#N', 'unwanted:C=[C!r]C#N'],
    ['FCN1CCCC1', 'unwanted:NC[F,Cl,Br,I]'],
    ['c1ccc(C=Cc2ccccc2)cc1', 'unwanted:c1ccccc1[C;!R]=[C;!R]c2ccccc2'],
    ['COC=Cc1ccccc1', 'stability:vinyl_ether_acyclic'],
    ['C1=CN=CCN1', 'stability:aliphatic_ring_imine'],
  ];
  for (const [s, alert] of cases) {
    assert.ok(existing(s).includes(alert), `${s} is reported by ${alert}`);
    assert.deepEqual(medchem(s), [], `${s} is not reported a second time by the med-chem list`);
  }
  // and the named covered_by alerts exist (no typo): each is a stability alert name or a QED SMARTS
  const unwanted = new Set(qedParams().structural_alert_smarts.map((s) => `unwanted:${s}`));
  const stability = new Set(stabilityAlerts().map((a) => `stability:${a.name}`));
  for (const a of medchemAlerts())
    for (const c of a.covered_by) assert.ok(unwanted.has(c) || stability.has(c), `${a.name}: ${c} exists`);
  for (const c of MICHAEL_ACCEPTOR_UNWANTED) assert.ok(unwanted.has(c), `${c} is a QED unwanted group`);
});

/**
 * Marketed drugs and the med-chem alerts each must raise: none, except where the chemistry is the alerted one.
 * (QED unwanted groups and stability alerts are a separate, older list and are not asserted here.)
 */
const DRUGS: Array<{ name: string; smiles: string; expect: string[]; why: string }> = [
  {
    name: 'imatinib',
    smiles: 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1',
    expect: [],
    why: 'benzamide, anilinopyrimidine, N-methylpiperazine: nothing alerted',
  },
  {
    name: 'gefitinib',
    smiles: 'COc1cc2ncnc(Nc3ccc(F)c(Cl)c3)c2cc1OCCCN1CCOCC1',
    expect: [],
    why: 'aryl fluoride only',
  },
  {
    name: 'erlotinib',
    smiles: 'COCCOc1cc2ncnc(Nc3cccc(C#C)c3)c2cc1OCCOC',
    expect: [],
    why: 'terminal aryl alkyne is not an acceptor (QED flags it as C#C)',
  },
  {
    name: 'osimertinib',
    smiles: 'COc1cc(N(C)CCN(C)C)c(NC(=O)C=C)cc1Nc1nccc(-c2cn(C)c3ccccc23)n1',
    expect: [],
    why: 'its acrylamide is reported by QED unwanted:C=!@CC=[O,S], a Michael acceptor (see the covalent test)',
  },
  {
    name: 'ibrutinib',
    smiles: 'C=CC(=O)N1CCC[C@@H](n2nc(-c3ccc(Oc4ccccc4)cc3)c3c(N)ncnc32)C1',
    expect: [],
    why: 'acrylamide as for osimertinib',
  },
  {
    name: 'acalabrutinib',
    smiles: 'CC#CC(=O)N1CCC[C@H]1c1nc(-c2ccc(C(=O)Nc3ccccn3)cc2)c2c(N)nccn12',
    expect: [],
    why: 'but-2-ynamide warhead, reported by QED unwanted:C#C',
  },
  {
    name: 'atorvastatin',
    smiles: 'CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O',
    expect: [],
    why: 'aromatic pyrrole, aryl F',
  },
  {
    name: 'rosuvastatin',
    smiles: 'CC(C)c1nc(N(C)S(C)(=O)=O)nc(-c2ccc(F)cc2)c1/C=C/[C@@H](O)C[C@@H](O)CC(=O)O',
    expect: ['vinyl_arene'],
    why: 'justified: the (E)-6-heptenoate is a C=C conjugated to the pyrimidine, not in a ring - a vinyl arene by definition, kept in the drug for its shape',
  },
  {
    name: 'celecoxib',
    smiles: 'Cc1ccc(-c2cc(C(F)(F)F)nn2-c2ccc(S(N)(=O)=O)cc2)cc1',
    expect: [],
    why: 'CF3 is not a monofluoride',
  },
  {
    name: 'sildenafil',
    smiles: 'CCCc1nn(C)c2c(=O)[nH]c(-c3cc(S(=O)(=O)N4CCN(C)CC4)ccc3OCC)nc12',
    expect: [],
    why: 'aromatic pyrazolopyrimidinone',
  },
  {
    name: 'tadalafil',
    smiles: 'CN1CC(=O)N2[C@H](Cc3c([nH]c4ccccc34)[C@H]2c2ccc3OCOc3c2)C1=O',
    expect: [],
    why: 'methylenedioxy is O-CH2-O, not N-CH2-O',
  },
  {
    name: 'lapatinib',
    smiles: 'CS(=O)(=O)CCNCc1ccc(-c2ccc3ncnc(Nc4ccc(OCc5cccc(F)c5)c(Cl)c4)c3c2)o1',
    expect: [],
    why: 'aryl F, saturated sulfone',
  },
  {
    name: 'sitagliptin',
    smiles: 'N[C@@H](CC(=O)N1CCn2c(nnc2C(F)(F)F)C1)Cc1cc(F)c(F)cc1F',
    expect: [],
    why: 'triazolopiperazine CH2 sits between an amide N and an aromatic carbon, not two nitrogens',
  },
  {
    name: 'losartan',
    smiles: 'CCCCc1nc(Cl)c(CO)n1Cc1ccc(-c2ccccc2-c2nnn[nH]2)cc1',
    expect: [],
    why: 'N-benzyl imidazole is not an aminal',
  },
  { name: 'omeprazole', smiles: 'COc1ccc2[nH]c(S(=O)Cc3ncc(C)c(OC)c3C)nc2c1', expect: [], why: 'nothing alerted' },
  {
    name: 'clopidogrel',
    smiles: 'COC(=O)[C@H](c1ccccc1Cl)N1CCc2sccc2C1',
    expect: [],
    why: 'tetrahydrothienopyridine is saturated at nitrogen',
  },
  {
    name: 'linezolid',
    smiles: 'CC(=O)NC[C@H]1CN(c2ccc(N3CCOCC3)c(F)c2)C(=O)O1',
    expect: [],
    why: 'oxazolidinone: the carbon between N and O is the carbonyl',
  },
  { name: 'efavirenz', smiles: 'O=C1Nc2ccc(Cl)cc2[C@@](C#CC2CC2)(C(F)(F)F)O1', expect: [], why: 'CF3, carbamate' },
  {
    name: 'sofosbuvir',
    smiles: 'CC(C)OC(=O)[C@@H](C)N[P@](=O)(OC[C@H]1O[C@@H](n2ccc(=O)[nH]c2=O)[C@](C)(F)[C@@H]1O)Oc1ccccc1',
    expect: [],
    why: "tertiary 2'-fluoride carries no hydrogen: not a CH2F/CHF",
  },
  {
    name: 'emtricitabine',
    smiles: 'Nc1nc(=O)n([C@@H]2CS[C@H](CO)O2)cc1F',
    expect: [],
    why: 'nucleoside N-CH-O is an aromatic N on a ring CH, not a CH2 aminal',
  },
  {
    name: 'tamoxifen',
    smiles: 'CC/C(=C(/c1ccccc1)c1ccc(OCCN(C)C)cc1)c1ccccc1',
    expect: [],
    why: 'its stilbene C=C is QED unwanted:c1ccccc1[C;!R]=[C;!R]c2ccccc2 already',
  },
  {
    name: 'spiperone',
    smiles: 'O=C(CCCN1CCC2(CC1)C(=O)NCN2c1ccccc1)c1ccc(F)cc1',
    expect: [],
    why: 'ring N-CH2-N with a lactam N: a stable acyl aminal',
  },
  {
    name: 'paroxetine',
    smiles: 'Fc1ccc([C@@H]2CCNC[C@H]2COc2ccc3c(c2)OCO3)cc1',
    expect: [],
    why: 'aryl F, methylenedioxy',
  },
  { name: 'warfarin', smiles: 'CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O', expect: [], why: 'aromatic 4-hydroxycoumarin' },
  { name: 'donepezil', smiles: 'COc1cc2c(cc1OC)C(=O)C(CC1CCN(Cc3ccccc3)CC1)C2', expect: [], why: 'saturated indanone' },
  {
    name: 'ezetimibe',
    smiles: 'O=C1[C@H](CC[C@H](O)c2ccc(F)cc2)[C@@H](c2ccc(O)cc2)N1c1ccc(F)cc1',
    expect: [],
    why: 'aryl fluorides only',
  },
  {
    name: 'amlodipine',
    smiles: 'CCOC(=O)C1=C(COCCN)NC(C)=C(C(=O)OC)C1c1ccccc1Cl',
    expect: ['dihydropyridine_1_4'],
    why: 'justified: a Hantzsch 1,4-dihydropyridine, cleared by CYP3A4 oxidation to the pyridine (its enoates are vinylogous carbamates, so not Michael acceptors)',
  },
  {
    name: 'fluticasone propionate',
    smiles: 'CCC(=O)O[C@]1(C(=O)SCF)[C@@H](C)C[C@H]2[C@@H]3C[C@H](F)C4=CC(=O)C=C[C@]4(C)[C@@]3(F)[C@@H](O)C[C@@]21C',
    expect: ['michael_ring_enone', 'alkyl_monofluoride'],
    why: 'justified: the steroid 1,4-dien-3-one is a (weak) ring Michael acceptor, and S-CH2F and 6-CHF are monofluorides (inhaled drug, designed for rapid inactivation)',
  },
  {
    name: 'methenamine',
    smiles: 'C1N2CN3CN1CN(C2)C3',
    expect: ['ring_aminal_ch2'],
    why: 'justified: hexamine is a urinary antiseptic because it releases formaldehyde in acid urine',
  },
];

test('marketed drugs raise no med-chem alert unless the chemistry is the alerted one', () => {
  assert.ok(DRUGS.length >= 20);
  for (const d of DRUGS) assert.deepEqual(medchem(d.smiles).sort(), [...d.expect].sort(), `${d.name}: ${d.why}`);
});

test('blockingAlerts: Michael acceptors stop blocking only under covalent_design', () => {
  const check = (smiles: string, covalent: boolean) =>
    withMol(smiles, (m) => {
      const alerts = [
        ...unwantedAlertNames(
          qedParams().structural_alert_smarts.flatMap((q, i) => (hasSubstructMatch(rd, m, q) ? [i] : [])),
        ),
        ...stabilityHits(rd, m),
        ...medchemHits(rd, m),
      ];
      return { alerts, blocking: blockingAlerts(rd, m, alerts, { covalent_design: covalent }) };
    });
  const osi = DRUGS.find((d) => d.name === 'osimertinib')!.smiles;
  assert.deepEqual(check(osi, false).blocking, ['unwanted:C=!@CC=[O,S]']);
  assert.deepEqual(check(osi, true).blocking, []);
  assert.ok(check(osi, true).alerts.includes('unwanted:C=!@CC=[O,S]'), 'still reported');
  // the ynamide warhead: QED's alkyne alert names only the warhead, so it stops blocking too
  const acala = DRUGS.find((d) => d.name === 'acalabrutinib')!.smiles;
  assert.deepEqual(check(acala, false).blocking, ['unwanted:C#C']);
  assert.deepEqual(check(acala, true).blocking, []);
  // an acrylamide plus a plain aryl alkyne: the alkyne still blocks
  assert.deepEqual(check('C=CC(=O)Nc1cccc(C#C)c1', true).blocking, ['unwanted:C#C']);
  // a ring enone (medchem) and a vinyl sulfonamide stop blocking; a monofluoride beside them does not
  assert.deepEqual(check('O=C1C=CCCC1CCF', true).blocking, ['medchem:alkyl_monofluoride']);
  assert.deepEqual(check('C=CS(=O)(=O)Nc1ccccc1', true).blocking, []);
  assert.deepEqual(check('C=CS(=O)(=O)Nc1ccccc1', false).blocking, ['medchem:michael_vinyl_sulfonyl']);
});

test('the evaluator filters med-chem alerts, and lets Michael acceptors through with covalent_design', async () => {
  const base = {
    target_uniprot: 'P00533',
    binding_site: { residues: ['C797', 'M793'] },
    constraints: { mw_range: [100, 1000], logp_range: [-10, 15], hbd_max: 50, hba_max: 50 },
  };
  const plain = new Evaluator(rd, await validateRequest(base));
  const covalent = new Evaluator(rd, await validateRequest({ ...base, options: { covalent_design: true } }));
  const osi = DRUGS.find((d) => d.name === 'osimertinib')!.smiles;
  const a = plain.evaluate(osi).result!;
  const b = covalent.evaluate(osi).result!;
  assert.equal(a.passes, false);
  assert.equal(b.passes, true);
  assert.deepEqual(a.alerts, b.alerts, 'the same alerts are reported either way');
  assert.ok(b.fitness > a.fitness, 'no alert penalty under covalent design');
  // a med-chem alert outside the Michael group blocks in both
  for (const ev of [plain, covalent]) {
    const r = ev.evaluate('FCCOc1ccc(C(=O)Nc2ccccc2)cc1').result!;
    assert.ok(r.alerts.includes('medchem:alkyl_monofluoride'));
    assert.equal(r.passes, false);
  }
  await assert.rejects(validateRequest({ ...base, options: { covalent_design: 'yes' } }), (e: Error) =>
    /\/options\/covalent_design/.test(JSON.stringify((e as { problems?: unknown }).problems)),
  );
  assert.equal((await validateRequest(base)).options.covalent_design, false);
});

test('no building block of the fragment library carries a med-chem alert (it would only waste evaluations)', () => {
  const blocks = FragmentLibrary.load().blocks;
  assert.ok(blocks.length > 100);
  for (const b of blocks) {
    // close each attachment point with hydrogen: the block as the smallest molecule it can appear in
    const closed = b.smiles.replace(/\[\*:\d+\]/g, '[H]');
    assert.deepEqual(medchem(closed), [], `${b.name} (${b.smiles})`);
  }
});
