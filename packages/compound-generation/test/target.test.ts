// The target fields of a request, read against real structures (wwPDB 2SRC: c-Src with AMP-PNP; 1LEE:
// plasmepsin II with an inhibitor), and the docked search (AutoDock Vina; required under CI=true): the target
// changes the molecules, and every returned molecule carries its pose in its own pocket. Whether each set docks
// better into its own pocket than the other's is a property of a few molecules' means under a docking whose ligand
// preparation is not repeatable: one run at a test's budget cannot show it either way, so it is measured over
// seeds by `npm run bench:target` (README "Target specificity"); test/docking-estimate.test.ts shows, with
// repeatable ports, that the search follows what docking says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  analyseTarget,
  generateCompounds,
  generateFromInput,
  validateRequest,
  InvalidRequestError,
  type DockingPort,
  type GenerationInput,
} from '@evident/compound-generation';
import { DockingSession, findDockingTools, smilesDockingPort } from '@evident/docking';

const fixture = (f: string) =>
  readFileSync(fileURLToPath(new URL(`../../protein-structure/test/fixtures/${f}`, import.meta.url)));
const SRC = fixture('2src.pdb');
const PLM = fixture('1lee.pdb');
// UniProt numbering by each file's DBREF: c-Src K297/T340/M343 (author 295/338/341); plasmepsin II catalytic
// aspartates D158/D338 and flap tyrosine Y201 (author 34/214/77).
const srcRequest = { target_uniprot: 'P12931', binding_site: { residues: ['K297', 'T340', 'M343'] } };
const plmRequest = { target_uniprot: 'P46925', binding_site: { residues: ['D158', 'D338', 'Y201'] } };

async function problems(body: unknown): Promise<Array<{ path: string; message: string }>> {
  try {
    await validateRequest(body);
  } catch (e) {
    assert.ok(e instanceof InvalidRequestError, String(e));
    return [...e.problems];
  }
  assert.fail('expected InvalidRequestError');
}

test('a structure in the request is read at validation: residues, chain and pocket are placed on it', async () => {
  const input = await validateRequest({ ...srcRequest, structure: SRC.toString('base64') });
  assert.equal(input.target.structure, SRC.toString('utf8'));
  assert.equal(input.options.docking, true);
  const site = analyseTarget(
    input.target.structure!,
    { uniprot: 'P12931', residues: input.residues, target: input.target },
    { id: 'request', source: 'request' },
  );
  assert.equal(site.summary.structure?.chain, 'A');
  assert.equal(site.summary.pocket?.source, 'ligand');
  // the ANP box: AMP-PNP's atoms inside, and the named residues' contacts come out in UniProt numbering
  const anp = SRC.toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith('HETATM') && l.slice(17, 20) === 'ANP')
    .map((l) => ({
      x: Number(l.slice(30, 38)),
      y: Number(l.slice(38, 46)),
      z: Number(l.slice(46, 54)),
      element: l.slice(76, 78).trim(),
    }));
  const { center, size } = site.box;
  for (const a of anp)
    for (const [k, v] of [a.x, a.y, a.z].entries()) assert.ok(Math.abs(v - center[k]!) <= size[k]! / 2);
  const contacts = site.contacts(anp);
  for (const r of ['K297', 'T340', 'M343']) assert.ok(contacts.includes(r), `${r} in ${contacts.join(' ')}`);
  // the receptor keeps the chain's modified residues (phospho-Tyr527 is PTR, a HETATM record) but no ligand or water
  const het = new Set(
    site.receptorPdb
      .split('\n')
      .filter((l) => l.startsWith('HETATM'))
      .map((l) => l.slice(17, 20)),
  );
  assert.deepEqual([...het], ['PTR']);
  assert.ok(site.summary.pocket_pdb.includes(' LYS A 295'));
});

test('the target fields are checked and named', async () => {
  const b64 = SRC.toString('base64');
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ ...srcRequest, structure: b64, binding_site: { residues: ['W340'] } }, '/binding_site/residues/0', /W340/],
    [{ ...srcRequest, structure: b64, chain: 'Q' }, '/chain', /Q/],
    [{ ...srcRequest, structure: b64, pocket: { center: [10, 20, 58], size: [3, 20, 20] } }, '/pocket/size/0', /small/],
    [
      { ...srcRequest, structure: b64, pocket: { center: [10, 20, 58], size: [20, 20, 90] } },
      '/pocket/size/2',
      /large/,
    ],
    [{ ...srcRequest, structure: b64, pocket: { center: [500, 500, 500], size: [20, 20, 20] } }, '/pocket', /no atom/],
    [{ ...srcRequest, structure: b64, pocket: { center: [1, 2], size: [20, 20, 20] } }, '/pocket/center', /three/],
    [{ ...srcRequest, structure: '%%%' }, '/structure', /base64/],
    [{ ...srcRequest, structure: Buffer.from('just some text\n').toString('base64') }, '/structure', /./],
    [{ ...srcRequest, structure: b64, pdb_id: '2SRC' }, '/pdb_id', /not both/],
    [{ ...srcRequest, pdb_id: 'SRC' }, '/pdb_id', /four-character/],
    [{ ...srcRequest, options: { docking_budget: 5 }, num_molecules: 10 }, '/options/docking_budget', /at least/],
    [{ ...srcRequest, options: { docking_exhaustiveness: 0 } }, '/options/docking_exhaustiveness', /between/],
  ];
  for (const [body, path, message] of cases) {
    const ps = await problems(body);
    const p = ps.find((x) => x.path === path);
    assert.ok(p, `${path} expected in ${JSON.stringify(ps)}`);
    assert.match(p.message, message);
  }
});

test('a residue in the author numbering only is accepted with a warning naming its UniProt number', async () => {
  // T338 is the gatekeeper in 2SRC's own (chicken c-Src) numbering; UniProt P12931 numbers it T340 by the DBREF.
  const input = await validateRequest({
    ...srcRequest,
    binding_site: { residues: ['K297', 'T338'] },
    structure: SRC.toString('base64'),
  });
  const site = analyseTarget(
    input.target.structure!,
    { uniprot: 'P12931', residues: input.residues, target: input.target },
    { id: 'request', source: 'request' },
  );
  assert.ok(
    site.summary.warnings.some((w) => /T338/.test(w) && /T340/.test(w)),
    site.summary.warnings.join('\n'),
  );
});

test('docking without a docking engine is a clear error, not a silent surrogate run', async () => {
  await assert.rejects(
    generateCompounds({ ...srcRequest, num_molecules: 1, options: { max_evaluations: 100, population_size: 10 } }),
    (e: Error & { code?: string }) => e.code === 'docking_unavailable' && /options\.docking/.test(e.message),
  );
});

const tools = await findDockingTools().then(
  () => null,
  (e: Error) => e.message,
);
const skip = tools !== null && process.env.CI !== 'true' ? `docking tools missing: ${tools}` : false;
if (skip) console.log(`# skipping docked generation tests (${skip})`);

async function openPort(input: GenerationInput) {
  const site = analyseTarget(
    input.target.structure!,
    { uniprot: input.target_uniprot, residues: input.residues, target: input.target },
    { id: 'request', source: 'request' },
  );
  const session = await DockingSession.open({
    receptor: { pdb: site.receptorPdb },
    box: site.box,
    seed: input.options.seed,
    exhaustiveness: input.options.docking_exhaustiveness,
    concurrency: 2,
  });
  const dock = smilesDockingPort(session, site.contacts);
  const port: DockingPort = {
    dock: (s, signal, exhaustiveness) => dock.dock(s, signal, exhaustiveness),
    describe: () => ({
      engine: 'AutoDock Vina',
      version: '',
      exhaustiveness: input.options.docking_exhaustiveness,
      seed: input.options.seed,
      preparation: '',
    }),
  };
  return { site, session, port };
}

/** Mean position of the heavy atoms of the first record of an SDF (V2000 atom lines). */
function poseCentre(sdf: string): number[] {
  const lines = sdf.split('\n');
  const count = Number(lines[3]!.slice(0, 3));
  const heavy = lines
    .slice(4, 4 + count)
    .map((l) => ({ xyz: [0, 10, 20].map((o) => Number(l.slice(o, o + 10))), element: l.slice(31, 34).trim() }))
    .filter((a) => a.element !== 'H');
  return [0, 1, 2].map((k) => heavy.reduce((s, a) => s + a.xyz[k]!, 0) / heavy.length);
}

test('two targets give different molecules, each returned with a pose in its own pocket', { skip }, async () => {
  const options = {
    seed: 3,
    max_evaluations: 500,
    population_size: 30,
    docking_exhaustiveness: 1,
    docking_budget: 14,
    include_svg: false,
  };
  const constraints = { mw_range: [250, 450], logp_range: [0, 4.5] };
  const src = await validateRequest({
    ...srcRequest,
    structure: SRC.toString('base64'),
    constraints,
    num_molecules: 4,
    options,
  });
  const plm = await validateRequest({
    ...plmRequest,
    structure: PLM.toString('base64'),
    constraints,
    num_molecules: 4,
    options,
  });
  const a = await openPort(src);
  const b = await openPort(plm);
  try {
    const ra = await generateFromInput(src, { target: { port: a.port, summary: a.site.summary } });
    const rb = await generateFromInput(plm, { target: { port: b.port, summary: b.site.summary } });
    assert.equal(ra.guidance, 'structure');
    assert.ok(ra.docking!.calls <= 14 && rb.docking!.calls <= 14);
    const sa = ra.molecules.map((m) => m.smiles);
    const sb = rb.molecules.map((m) => m.smiles);
    assert.ok(sa.length >= 2 && sb.length >= 2, `${sa.length} and ${sb.length} molecules`);
    assert.notDeepEqual(sa, sb, 'the target changes the molecules');
    for (const [r, { box }] of [
      [ra, a.site],
      [rb, b.site],
    ] as const) {
      for (const m of r.molecules) {
        assert.ok(m.docking_score! < 0 && m.pose?.data.includes('$$$$') && m.contacts.length > 0);
        assert.ok(m.alerts.length === 0 || m.alerts.every((x) => !x.startsWith('medchem:')));
        // the pose was docked into its own target's box: its heavy atoms' centre lies inside it
        const centre = poseCentre(m.pose!.data);
        for (const k of [0, 1, 2])
          assert.ok(Math.abs(centre[k]! - box.center[k]!) <= box.size[k]! / 2, `${m.smiles} centre ${centre}`);
      }
    }
  } finally {
    await a.session.close();
    await b.session.close();
  }
});
