// The compound job's poses page (GET /v1/results/{id}?format=html), rendered from a docked job's real results
// (fixtures/results/SOURCES.md): rows in docking-score order and the page says so, no temporary path of the
// service's machine in any message, the protein as a cartoon with the pose's pocket residues as sticks; then the
// same page in Chromium, where the viewer's own atoms are read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { GenerationInput, GenerationResult } from '@evident/compound-generation';
import { findDockingTools } from '@evident/docking';
import { testOutputPath } from '@evident/testkit';
import { cgKind } from '../src/kinds/cg/index.js';
import { openTarget } from '../src/kinds/cg/target.js';
import { ORDER_NOTE, PAGE_POSES, renderResultsPage } from '../src/kinds/cg/results-page.js';
import { summarizeGeneration } from '../src/kinds/cg/summary.js';
import { withoutTempPaths } from '../src/kinds/cg/tool-messages.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const fixture = join(import.meta.dirname, 'fixtures/results/cg-2src-docked.json');
const docked = (): GenerationResult => JSON.parse(readFileSync(fixture, 'utf8'));

/** The same results ranked the other way round: the combined score need not agree with docking. */
function reRanked(): GenerationResult {
  const r = docked();
  r.molecules.sort((a, b) => b.docking_score! - a.docking_score!);
  r.molecules.forEach((m, i) => {
    m.rank = i + 1;
  });
  return r;
}

interface PageMolecule {
  rank: number;
  docking_score: number;
  sdf: string;
  site: Array<{ chain: string; resi: number; resn: string; named: boolean }>;
}
const pageData = (html: string) => {
  const json = /<script type="application\/json" id="evident-data">(.*?)<\/script>/s.exec(html)?.[1];
  assert.ok(json, 'the page carries its data');
  return JSON.parse(json) as { molecules: PageMolecule[]; warnings: string[]; pocket_pdb: string };
};
/** The page without the inlined viewer library (whose own text is not the page's). */
const pageText = (html: string) => html.replace(/<script>[\s\S]*?<\/script>/, '');

const TEMP_PATH = new RegExp(
  `(^|[^\\w./-])(/tmp|/var/tmp|${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})/\\S`,
  'm',
);

test('the rows are in docking-score order, best first, and the page says that # is the rank by another score', () => {
  for (const result of [docked(), reRanked()]) {
    const html = renderResultsPage('cg_page', result);
    const rows = pageData(html).molecules;
    const posed = result.molecules.filter((m) => m.pose);
    assert.equal(rows.length, Math.min(PAGE_POSES, posed.length));
    const scores = rows.map((m) => m.docking_score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );
    assert.equal(scores[0], Math.min(...posed.map((m) => m.docking_score!)));
    assert.ok(pageText(html).includes(ORDER_NOTE.replace(/'/g, '&#39;')), 'the order is said on the page');
  }
  // Re-ranked, the best pose is the last by rank: the table does not follow the rank.
  const rows = pageData(renderResultsPage('cg_page', reRanked())).molecules;
  assert.equal(rows[0]!.rank, rows.length);
  assert.match(ORDER_NOTE, /sorted by Vina docking score, best \(most negative\) first/);
});

test('no temporary path of the service machine reaches the reader: page, terminal summary, the message cleaner', () => {
  const result = docked();
  // The fixture keeps what the service wrote before: Open Babel naming its scratch file.
  assert.ok(
    result.warnings.some((w) => TEMP_PATH.test(w)),
    'the stored warning names a temp path',
  );
  const html = renderResultsPage('cg_page', result);
  assert.doesNotMatch(pageText(html), TEMP_PATH);
  assert.ok(pageData(html).warnings.some((w) => w.includes('(title is receptor.pdb)')));
  for (const line of summarizeGeneration(result, 3)) assert.doesNotMatch(line, TEMP_PATH);

  const ob =
    'Failed to kekulize aromatic bonds in OBMol::PerceiveBondOrders (title is /tmp/evident-docking-receptor-er5KFQ/receptor.pdb)';
  assert.equal(
    withoutTempPaths(ob),
    'Failed to kekulize aromatic bonds in OBMol::PerceiveBondOrders (title is receptor.pdb)',
  );
  assert.equal(withoutTempPaths(`${join(tmpdir(), 'x-1', 'lig.sdf')}: bad`), 'lig.sdf: bad');
  assert.equal(withoutTempPaths('in /var/tmp/run/a.pdbqt, and /tmp/b'), 'in a.pdbqt, and b');
  // Paths elsewhere, and folders that only start like one, are left as they are.
  for (const kept of ['see /home/u/tmp/x.pdb', '/tmpfs/a.pdb', 'receptor.pdb', 'http://host/tmp/a'])
    assert.equal(withoutTempPaths(kept), kept);
});

test("the service's own warnings no longer carry the path: Open Babel's receptor warning as a job now stores it", async (t) => {
  const tools = await findDockingTools().then(
    () => null,
    (e: Error) => e.message,
  );
  if (tools && process.env.CI !== 'true') return t.skip(`docking tools missing (${tools})`);
  const structure = readFileSync(join(import.meta.dirname, '../../protein-structure/test/fixtures/2src.pdb'));
  const input = await cgKind.prepare({
    target_uniprot: 'P12931',
    binding_site: { residues: ['K297', 'T340', 'M343'] },
    structure: structure.toString('base64'),
    num_molecules: 1,
  } as never);
  // Receptor preparation only (Open Babel); nothing is docked.
  const opened = await openTarget(input as GenerationInput, { progress() {}, signal: new AbortController().signal });
  try {
    const warnings = opened.target.summary.warnings.filter((w) => w.startsWith('receptor preparation: '));
    assert.ok(warnings.length > 0, 'Open Babel warns about 2SRC (a residue it cannot kekulize)');
    for (const w of warnings) assert.doesNotMatch(w, TEMP_PATH);
    assert.ok(
      warnings.some((w) => w.includes('(title is receptor.pdb)')),
      warnings.join('\n'),
    );
  } finally {
    await opened.close();
  }
});

/** Heavy atoms of a PDB text's ATOM/HETATM records, with chain and author residue number. */
const pdbAtoms = (pdb: string) =>
  pdb
    .split('\n')
    .filter((l) => /^(ATOM {2}|HETATM)/.test(l))
    .map((l) => ({
      chain: l[21]!,
      resi: Number(l.slice(22, 26)),
      x: Number(l.slice(30, 38)),
      y: Number(l.slice(38, 46)),
      z: Number(l.slice(46, 54)),
      element: (l.slice(76, 78).trim() || l.slice(12, 14).trim()).toUpperCase(),
    }))
    .filter((a) => a.element !== 'H');

/** Heavy atoms of an SDF's first molecule, read by whitespace (the page reads fixed columns). */
function sdfHeavyAtoms(sdf: string) {
  const lines = sdf.split('\n');
  const n = Number(lines[3]!.trim().split(/\s+/)[0]);
  return lines
    .slice(4, 4 + n)
    .map((l) => l.trim().split(/\s+/))
    .map(([x, y, z, element]) => ({ x: Number(x), y: Number(y), z: Number(z), element: element! }))
    .filter((a) => a.element !== 'H');
}

test("the protein is a cartoon and each pose's pocket residues are sticks: those within 4 Å, and the named ones", () => {
  const result = docked();
  const html = renderResultsPage('cg_page', result);
  const data = pageData(html);
  const protein = pdbAtoms(data.pocket_pdb);
  assert.ok(protein.length > 50);
  const named = new Set(result.target.resolved_residues!.map((r) => r.author_number));
  // The results' contacts are in UniProt numbering; 2SRC's DBREF puts it at author + 2 (cg-target.test.ts).
  const offsets = new Set(result.target.resolved_residues!.map((r) => r.uniprot_number! - r.author_number));
  assert.equal(offsets.size, 1);
  const offset = [...offsets][0]!;
  for (const m of data.molecules) {
    const pose = sdfHeavyAtoms(m.sdf);
    assert.ok(pose.length > 10);
    const near = new Set<number>();
    for (const a of protein)
      if (pose.some((p) => (p.x - a.x) ** 2 + (p.y - a.y) ** 2 + (p.z - a.z) ** 2 <= 16)) near.add(a.resi);
    const expected = [...new Set([...near, ...named])].sort((a, b) => a - b);
    assert.deepEqual(
      m.site.map((r) => r.resi),
      expected,
      `pose of #${m.rank}`,
    );
    assert.ok(m.site.every((r) => r.chain === 'A' && r.named === named.has(r.resi)));
    // The same residues the engine reported as the molecule's contacts.
    const molecule = result.molecules.find((x) => x.rank === m.rank)!;
    assert.deepEqual(
      [...near].map((n) => n + offset).sort((a, b) => a - b),
      molecule.contacts.map((c) => Number(c.slice(1))).sort((a, b) => a - b),
    );
  }
  // The viewer is told so: a cartoon for the whole protein, sticks added for the site's residues, no lines.
  const script = /<\/script>\s*<script>\s*(\(function \(\) \{[\s\S]*?\}\)\(\);)\s*<\/script>/.exec(html)?.[1];
  assert.ok(script, "the page's own script");
  assert.match(script, /pocket\.setStyle\(\{\}, \{ cartoon: \{/);
  assert.match(script, /pocket\.setStyle\(\{ chain: r\.chain, resi: r\.resi \}, \{ stick: stick \}, true\)/);
  assert.doesNotMatch(script, /\bline\s*:/);
});

test('in Chromium: rows by score, the cartoon with the shown pose’s site as sticks, for every row clicked', async (t) => {
  if (!existsSync(CHROMIUM) && process.env.CI !== 'true') return t.skip(`no Chromium at ${CHROMIUM}`);
  const result = reRanked();
  const html = renderResultsPage('cg_page', result);
  const data = pageData(html);
  const out = testOutputPath('cg-poses-page');
  mkdirSync(out, { recursive: true });
  const file = join(out, 'poses.html');
  writeFileSync(file, html);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--no-first-run',
        '--disable-sync',
        '--disable-extensions',
      ],
    });
    const tab = await browser.newPage({ viewport: { width: 1300, height: 800 } });
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    await tab.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.continue() : r.abort()));
    await tab.goto(`file://${file}`);
    await tab.waitForSelector('#viewer[data-ready="true"]', { timeout: 30_000 });
    const viewer = () =>
      tab.$eval('#viewer', (el) => ({ ...(el as unknown as { dataset: Record<string, string> }).dataset }));
    const firstColumn = await tab.locator('#poses tr td:first-child').allTextContents();
    assert.deepEqual(
      firstColumn,
      data.molecules.map((m) => String(m.rank)),
    );
    const rows = await tab.locator('#poses tr').count();
    assert.equal(rows, data.molecules.length);
    for (let i = 0; i < rows; i++) {
      if (i > 0) await tab.locator('#poses tr').nth(i).click();
      const v = await viewer();
      const m = data.molecules[i]!;
      assert.equal(v.shown, String(m.rank));
      assert.equal(
        v.stickResidues,
        m.site
          .map((r) => `${r.chain}:${r.resi}`)
          .sort()
          .join(' '),
      );
      assert.equal(v.cartoonAtoms, v.pocketAtoms, 'every protein atom is in the cartoon');
      assert.equal(v.lineAtoms, '0');
    }
    assert.deepEqual(errors, []);
    await tab.locator('#poses tr').first().click();
    const shot = await tab.locator('#viewer').screenshot({ path: join(out, 'viewer.png') });
    assert.ok(shot.length > 5_000, `screenshot of ${shot.length} bytes`);
  } finally {
    await browser?.close();
  }
});
