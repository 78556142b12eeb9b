// GET /v1/results/{id}?format=html for a compound-generation job: one self-contained page (the viewer library
// inlined, the data as JSON) that shows the top poses in the pocket in 3D, so it opens from a file, offline.
// The viewer is 3Dmol.js (npm `3dmol`, BSD-3-Clause): kept, small (540 kB minified), reads SDF and PDB as they are.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GeneratedMolecule, GenerationResult } from '@evident/compound-generation';
import { SITE_CUTOFF, siteResidueFinder } from './pose-site.js';
import { withoutTempPaths } from './tool-messages.js';

/** Poses the page carries, the best docking scores (the viewer shows one at a time over the pocket; the table lists them). */
export const PAGE_POSES = 20;

let viewerSource: string | undefined;
function viewerLibrary(): string {
  viewerSource ??= readFileSync(createRequire(import.meta.url).resolve('3dmol/build/3Dmol-min.js'), 'utf8');
  return viewerSource;
}

/** JSON inside a <script> element: nothing in it may close the element or open a comment. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Best docking score first (Vina kcal/mol: lower binds better); a molecule without one last; then by rank. */
const byDockingScore = (a: GeneratedMolecule, b: GeneratedMolecule) =>
  (a.docking_score ?? Number.POSITIVE_INFINITY) - (b.docking_score ?? Number.POSITIVE_INFINITY) || a.rank - b.rank;

/** The order the table's rows are in, said on the page: the results rank by another score. */
export const ORDER_NOTE =
  "Rows are sorted by Vina docking score, best (most negative) first. # is the molecule's rank in the results, " +
  'which orders them by the combined score (score column: drug-likeness, synthesizability and docking together), ' +
  'so the two orders can differ.';

export function renderResultsPage(jobId: string, result: GenerationResult): string {
  const posed = result.molecules
    .filter((m) => m.pose)
    .sort(byDockingScore)
    .slice(0, PAGE_POSES);
  const siteOf = siteResidueFinder(result);
  const { pocket_pdb: pocketPdb, ...target } = result.target;
  const warnings = result.warnings.map(withoutTempPaths);
  const data = {
    job_id: jobId,
    target,
    guidance: result.guidance,
    warnings,
    pocket_pdb: pocketPdb ?? '',
    molecules: posed.map((m) => ({
      rank: m.rank,
      smiles: m.smiles,
      docking_score: m.docking_score,
      total: m.scores.total,
      qed: m.properties.qed,
      contacts: m.contacts,
      sdf: m.pose?.data ?? '',
      site: siteOf(m.pose?.data ?? ''),
    })),
  };
  const t = result.target;
  const structure = t.structure ? `${t.structure.id} (${t.structure.source}, chain ${t.structure.chain})` : 'none';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Evident: ${escapeHtml(jobId)} poses</title>
<style>
body{font:14px system-ui,sans-serif;margin:16px;color:#222}
#layout{display:flex;gap:16px;align-items:flex-start}
#viewer{flex:none;width:640px;height:520px;position:relative;border:1px solid #ccc}
table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}
tr.sel{background:#eef4ff}tbody tr{cursor:pointer}.warn{color:#a15c00}.note{color:#555}
code{font-size:12px}td.contacts{min-width:220px}td.smiles{min-width:200px;word-break:break-all}
</style></head><body>
<h1>Top poses: ${escapeHtml(t.uniprot)}</h1>
<p>Structure ${escapeHtml(structure)}; guidance <b>${escapeHtml(result.guidance)}</b>;
${data.molecules.length} of ${result.molecules.length} molecules with a pose shown.</p>
<p class="note" id="order">${escapeHtml(ORDER_NOTE)}</p>
<p class="note">The protein around the pocket is drawn as a cartoon; the residues within ${SITE_CUTOFF} Å of the pose
shown as sticks (grey carbons), with the binding-site residues of the request (orange carbons); the pose in green.</p>
${warnings.map((w) => `<p class="warn">${escapeHtml(w)}</p>`).join('\n')}
<div id="layout"><div id="viewer" data-ready="false"></div>
<table><thead><tr><th>#</th><th>Vina (kcal/mol)</th><th>score</th><th>QED</th><th>contacts</th><th>SMILES</th></tr></thead>
<tbody id="poses"></tbody></table></div>
<script type="application/json" id="evident-data">${scriptJson(data)}</script>
<script>${viewerLibrary()}</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById('evident-data').textContent);
  var el = document.getElementById('viewer');
  var viewer = $3Dmol.createViewer(el, { backgroundColor: 'white' });
  var pocket = viewer.addModel(data.pocket_pdb, 'pdb');
  var ligand = null;
  // The protein as a cartoon; the pocket residues of the pose shown as sticks over it.
  function styleProtein(site) {
    pocket.setStyle({}, { cartoon: { color: 'lightgray', opacity: 0.8 } });
    site.forEach(function (r) {
      var stick = { radius: 0.15, colorscheme: r.named ? 'orangeCarbon' : 'grayCarbon' };
      pocket.setStyle({ chain: r.chain, resi: r.resi }, { stick: stick }, true); // true: added to the cartoon
    });
  }
  // What the viewer drew, read back from its atoms (the tests compare it with the data).
  function report() {
    var sticks = {}, cartoon = 0, lines = 0;
    pocket.selectedAtoms({}).forEach(function (a) {
      if (a.style.stick) sticks[a.chain + ':' + a.resi] = true;
      if (a.style.cartoon) cartoon++;
      if (a.style.line) lines++;
    });
    el.dataset.stickResidues = Object.keys(sticks).sort().join(' ');
    el.dataset.cartoonAtoms = String(cartoon);
    el.dataset.lineAtoms = String(lines);
  }
  function show(i) {
    if (ligand) viewer.removeModel(ligand);
    var m = data.molecules[i];
    ligand = viewer.addModel(m.sdf, 'sdf');
    ligand.setStyle({}, { stick: { radius: 0.22, colorscheme: 'greenCarbon' } });
    styleProtein(m.site);
    // The pose and its pocket residues in view, seen from a little way off.
    viewer.zoomTo({ model: pocket, resi: m.site.map(function (r) { return r.resi; }) });
    viewer.zoom(0.9);
    viewer.render();
    var rows = document.querySelectorAll('#poses tr');
    for (var k = 0; k < rows.length; k++) rows[k].className = k === i ? 'sel' : '';
    el.dataset.shown = String(m.rank);
    el.dataset.atoms = String(ligand.selectedAtoms({}).length);
    report();
  }
  var body = document.getElementById('poses');
  data.molecules.forEach(function (m, i) {
    var tr = document.createElement('tr');
    [m.rank, m.docking_score, m.total, m.qed, m.contacts.join(' '), m.smiles].forEach(function (v, j) {
      var td = document.createElement('td');
      if (j >= 4) td.className = j === 4 ? 'contacts' : 'smiles';
      if (j === 5) { var c = document.createElement('code'); c.textContent = String(v); td.appendChild(c); }
      else td.textContent = String(v);
      tr.appendChild(td);
    });
    tr.addEventListener('click', function () { show(i); });
    body.appendChild(tr);
  });
  el.dataset.pocketAtoms = String(pocket.selectedAtoms({}).length);
  if (data.molecules.length) show(0);
  else { styleProtein([]); viewer.zoomTo(); viewer.render(); report(); }
  el.dataset.ready = 'true';
})();
</script></body></html>
`;
}
