// @ts-check
// The health panel: the base's health score, its counts, and a bar per metric of the score.
import { api } from './api.js';
import { $, h, pct, s } from './dom.js';
import { vectorsText } from './vectors.js';

/** @type {[key: string, label: string, weight: number][]} */
const METRICS = [
  ['multi_source_ratio', 'Multi-source entities', 0.3],
  ['corroboration_ratio', 'Corroborated claims', 0.25],
  ['freshness', 'Freshness', 0.2],
  ['source_diversity', 'Source diversity', 0.15],
  ['confidence_trend', 'Confidence trend', 0.1],
];

/** @param {Record<string, number | undefined>} metrics */
function healthChart(metrics) {
  const W = 300,
    row = 34,
    labelW = 150,
    barW = W - labelW - 40;
  const svg = s('svg', { viewBox: `0 0 ${W} ${METRICS.length * row}`, 'aria-hidden': 'true' });
  METRICS.forEach(([key, label, weight], i) => {
    const v = Math.max(0, Math.min(1, Number(metrics[key] ?? 0)));
    const y = i * row;
    const color = v >= 0.66 ? '#12805c' : v >= 0.33 ? '#dc6803' : '#d92d20';
    svg.append(
      s('text', { x: 0, y: y + 13, text: label }),
      s('text', {
        x: 0,
        y: y + 26,
        class: 'muted',
        style: 'fill:#667085;font-size:10px',
        text: `weight ${Math.round(weight * 100)}%`,
      }),
      s('rect', { x: labelW, y: y + 6, width: barW, height: 12, rx: 6, fill: '#eef2f6' }),
      s(
        'rect',
        { x: labelW, y: y + 6, width: Math.max(2, barW * v), height: 12, rx: 6, fill: color },
        s('title', { text: `${label}: ${v.toFixed(3)}` }),
      ),
      s('text', { x: labelW + barW + 6, y: y + 16, class: 'val', text: pct(v) }),
    );
  });
  return svg;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let vectorsTimer;

/**
 * The vectors line (GET /embeddings/status), asked again every 3 s while vectors are pending; an error leaves
 * the line out rather than fail the panel.
 */
async function loadVectors() {
  clearTimeout(vectorsTimer);
  const st = await api('/embeddings/status').then(
    (r) => r.status,
    () => undefined,
  );
  if (st === undefined) return;
  const line = h('div', { id: 'health-vectors', text: vectorsText(st) });
  const old = document.getElementById('health-vectors');
  if (old) old.replaceWith(line);
  else $('#health-stats').append(line);
  if (st !== null && st.pending > 0) vectorsTimer = setTimeout(loadVectors, 3000);
}

/** Fills the health panel (GET /health, /stats and /embeddings/status); an error is shown in the panel. */
export async function loadHealth() {
  try {
    const [health, stats] = await Promise.all([api('/health'), api('/stats')]);
    const score = Math.round(health.score);
    const el = $('#health-score');
    el.replaceChildren(String(score), h('small', { text: '/100' }));
    el.style.color = score >= 66 ? '#12805c' : score >= 33 ? '#dc6803' : '#d92d20';
    $('#health-stats').replaceChildren(
      h('div', {}, h('b', { text: stats.entity_count.toLocaleString() }), ' entities'),
      h('div', {}, h('b', { text: stats.claim_count.toLocaleString() }), ' active claims'),
      h('div', {}, h('b', { text: stats.sources.toLocaleString() }), ' sources'),
    );
    await loadVectors();
    $('#health-chart').replaceChildren(healthChart(health.metrics));
    $('#health-chart').setAttribute(
      'aria-label',
      METRICS.map(([k, l]) => `${l} ${pct(health.metrics[k] ?? 0)}`).join(', '),
    );
  } catch (e) {
    $('#health-chart').replaceChildren(h('p', { class: 'result err', text: /** @type {Error} */ (e).message }));
  }
}
