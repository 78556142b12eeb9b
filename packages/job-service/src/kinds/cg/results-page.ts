// GET /v1/results/{id}?format=html for a compound-generation job: one self-contained page (the viewer library
// inlined, the data as JSON) that shows the top poses in the pocket in 3D, so it opens from a file, offline.
// The viewer is 3Dmol.js (npm `3dmol`, BSD-3-Clause): kept, small (540 kB minified), reads SDF and PDB as they are.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { GenerationResult } from '@evident/compound-generation';

/** Poses the page carries (the viewer shows one at a time over the pocket; the table lists them). */
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

export function renderResultsPage(jobId: string, result: GenerationResult): string {
  const posed = result.molecules.filter((m) => m.pose).slice(0, PAGE_POSES);
  const data = {
    job_id: jobId,
    target: result.target,
    guidance: result.guidance,
    warnings: result.warnings,
    pocket_pdb: result.target.pocket_pdb ?? '',
    molecules: posed.map((m) => ({
      rank: m.rank,
      smiles: m.smiles,
      docking_score: m.docking_score,
      qed: m.properties.qed,
      contacts: m.contacts,
      sdf: m.pose?.data ?? '',
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
#viewer{width:640px;height:520px;position:relative;border:1px solid #ccc}
table{border-collapse:collapse}td,th{padding:3px 8px;border-bottom:1px solid #eee;text-align:left}
tr.sel{background:#eef4ff}tbody tr{cursor:pointer}.warn{color:#a15c00}
code{font-size:12px}
</style></head><body>
<h1>Top poses: ${escapeHtml(t.uniprot)}</h1>
<p>Structure ${escapeHtml(structure)}; guidance <b>${escapeHtml(result.guidance)}</b>;
${data.molecules.length} of ${result.molecules.length} molecules with a pose shown.</p>
${result.warnings.map((w) => `<p class="warn">${escapeHtml(w)}</p>`).join('\n')}
<div id="layout"><div id="viewer" data-ready="false"></div>
<table><thead><tr><th>#</th><th>Vina (kcal/mol)</th><th>QED</th><th>contacts</th><th>SMILES</th></tr></thead>
<tbody id="poses"></tbody></table></div>
<script type="application/json" id="evident-data">${scriptJson(data)}</script>
<script>${viewerLibrary()}</script>
<script>
(function () {
  var data = JSON.parse(document.getElementById('evident-data').textContent);
  var el = document.getElementById('viewer');
  var viewer = $3Dmol.createViewer(el, { backgroundColor: 'white' });
  var pocket = viewer.addModel(data.pocket_pdb, 'pdb');
  pocket.setStyle({}, { stick: { radius: 0.07, colorscheme: 'grayCarbon' } });
  var ligand = null;
  function show(i) {
    if (ligand) viewer.removeModel(ligand);
    var m = data.molecules[i];
    ligand = viewer.addModel(m.sdf, 'sdf');
    ligand.setStyle({}, { stick: { radius: 0.22, colorscheme: 'greenCarbon' } });
    pocket.setStyle({}, { stick: { radius: 0.07, colorscheme: 'grayCarbon' } });
    viewer.zoomTo({ model: ligand });
    viewer.zoom(0.7);
    viewer.render();
    var rows = document.querySelectorAll('#poses tr');
    for (var k = 0; k < rows.length; k++) rows[k].className = k === i ? 'sel' : '';
    el.dataset.shown = String(m.rank);
    el.dataset.atoms = String(ligand.selectedAtoms({}).length);
  }
  var body = document.getElementById('poses');
  data.molecules.forEach(function (m, i) {
    var tr = document.createElement('tr');
    [m.rank, m.docking_score, m.qed, m.contacts.join(' '), m.smiles].forEach(function (v, j) {
      var td = document.createElement('td');
      if (j === 4) { var c = document.createElement('code'); c.textContent = String(v); td.appendChild(c); }
      else td.textContent = String(v);
      tr.appendChild(td);
    });
    tr.addEventListener('click', function () { show(i); });
    body.appendChild(tr);
  });
  el.dataset.pocketAtoms = String(pocket.selectedAtoms({}).length);
  if (data.molecules.length) show(0);
  el.dataset.ready = 'true';
})();
</script></body></html>
`;
}
