// Evident KB web console. Talks only to the REST API under /api/v1. DOM is built with textContent
// (never innerHTML with data), so names from claims cannot inject markup.
import { sourceCell } from './provenance-link.js';
import { showQuery } from './query.js';
import { colourControl, showTopics } from './topics.js';
import { timelineChart } from './timeline-chart.js';

const API = '/api/v1';
const $ = (sel) => document.querySelector(sel);

/** h('div', { class: 'x', onclick }, child, 'text', ...) */
function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(
    tag === 'svg' || attrs.svg ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml',
    tag,
  );
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'svg' || v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat())
    if (c !== null && c !== undefined && c !== false)
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}
const s = (tag, attrs = {}, ...children) => h(tag, { ...attrs, svg: true }, ...children);

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code;
    this.field = body?.error?.details?.field;
    // Extra data the error carries (a PROFILE stopped by a budget: `plan`).
    this.data = body?.error?.data;
  }
}

let token = sessionStorage.getItem('kb-token') || '';
async function api(path, options = {}) {
  const headers = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(API + path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  if (res.status === 401 && !options.retried) {
    token = await askToken();
    return api(path, { ...options, retried: true });
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

// Several requests may hit 401 at once (the page loads in parallel): they share one prompt.
let tokenPrompt = null;
function askToken() {
  tokenPrompt ??= promptToken().finally(() => {
    tokenPrompt = null;
  });
  return tokenPrompt;
}
function promptToken() {
  const d = $('#token-dialog');
  return new Promise((resolve) => {
    d.addEventListener(
      'close',
      () => {
        const t = $('#token-input').value.trim();
        sessionStorage.setItem('kb-token', t);
        resolve(t);
      },
      { once: true },
    );
    d.showModal();
  });
}

const enc = encodeURIComponent;
const pct = (x) => `${Math.round(x * 100)}%`;
const fmtDate = (iso) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ');
const TYPE_COLORS = {
  gene: '#2557d6',
  protein: '#7a5af8',
  disease: '#d92d20',
  drug: '#12805c',
  compound: '#0e9384',
  pathway: '#dc6803',
  phenotype: '#c11574',
  variant: '#6172f3',
  cell_type: '#ca8504',
  tissue: '#a15c07',
};
const colorOf = (type) => TYPE_COLORS[type] ?? '#667085';

// ---- health --------------------------------------------------------------------------------------

const METRICS = [
  ['multi_source_ratio', 'Multi-source entities', 0.3],
  ['corroboration_ratio', 'Corroborated claims', 0.25],
  ['freshness', 'Freshness', 0.2],
  ['source_diversity', 'Source diversity', 0.15],
  ['confidence_trend', 'Confidence trend', 0.1],
];

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

async function loadHealth() {
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
    $('#health-chart').replaceChildren(healthChart(health.metrics));
    $('#health-chart').setAttribute(
      'aria-label',
      METRICS.map(([k, l]) => `${l} ${pct(health.metrics[k] ?? 0)}`).join(', '),
    );
  } catch (e) {
    $('#health-chart').replaceChildren(h('p', { class: 'result err', text: e.message }));
  }
}

async function loadVocabulary() {
  try {
    const schema = await api('/schema');
    const types = new Set(schema.entity_types.map((t) => t.type));
    const preds = new Map(schema.predicates.map((p) => [p.predicate, p.predicate_class]));
    for (const [name, spec] of Object.entries(schema.registered?.predicates ?? {})) {
      for (const t of [...(spec.subject_types ?? []), ...(spec.object_types ?? [])]) types.add(t);
      if (!preds.has(name)) preds.set(name, spec.class ?? spec.predicate_class ?? '');
    }
    $('#entity-types').replaceChildren(...[...types].sort().map((t) => h('option', { value: t })));
    $('#predicates').replaceChildren(...[...preds.keys()].sort().map((p) => h('option', { value: p })));
    $('#predicate-classes').replaceChildren(
      ...[...new Set([...preds.values()].filter(Boolean))].sort().map((c) => h('option', { value: c })),
    );
    predicateClass = preds;
  } catch {
    /* the form still works with free text */
  }
}
let predicateClass = new Map();

// ---- search with suggestions ---------------------------------------------------------------------

const search = $('#search');
const list = $('#suggestions');
let hits = [];
let active = -1;
let searchSeq = 0;

function renderSuggestions() {
  list.replaceChildren(
    ...hits.map((hit, i) =>
      h(
        'li',
        {
          role: 'option',
          'aria-selected': i === active ? 'true' : 'false',
          'data-id': hit.id,
          onmousedown: (e) => {
            e.preventDefault();
            openEntity(hit.id);
          },
        },
        h(
          'span',
          {},
          h('span', {
            class: 'badge',
            style: `background:${colorOf(hit.type)}1a;color:${colorOf(hit.type)}`,
            text: hit.type,
          }),
          ' ',
          hit.name,
        ),
        h('span', {
          class: 'why',
          text: `${hit.match === 'all' ? '' : `${hit.match} · `}${hit.claim_count} claim${hit.claim_count === 1 ? '' : 's'}`,
        }),
      ),
    ),
  );
  list.hidden = hits.length === 0;
}

let timer;
search.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const q = search.value.trim();
    const seq = ++searchSeq;
    if (!q) {
      hits = [];
      renderSuggestions();
      return;
    }
    try {
      const r = await api(`/entities?query=${enc(q)}&limit=8`);
      if (seq !== searchSeq) return;
      hits = r.results;
      active = hits.length ? 0 : -1;
      renderSuggestions();
    } catch {
      hits = [];
      renderSuggestions();
    }
  }, 120);
});
search.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    if (!hits.length) return;
    active = (active + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length;
    renderSuggestions();
  } else if (e.key === 'Enter') {
    e.preventDefault();
    if (hits[active]) openEntity(hits[active].id);
    else if (search.value.trim()) showResults(search.value.trim());
  } else if (e.key === 'Escape') {
    hits = [];
    renderSuggestions();
  }
});
search.addEventListener('blur', () =>
  setTimeout(() => {
    list.hidden = true;
  }, 100),
);
search.addEventListener('focus', () => {
  if (hits.length) list.hidden = false;
});

function openEntity(id) {
  hits = [];
  renderSuggestions();
  search.value = '';
  location.hash = `#/entity/${enc(id)}`;
}

// ---- views ---------------------------------------------------------------------------------------

const main = $('#main');
let graph = null;

function entityLink(e) {
  return h(
    'a',
    { href: `#/entity/${enc(e.id)}` },
    h('span', { class: 'badge', style: `background:${colorOf(e.type)}1a;color:${colorOf(e.type)}`, text: e.type }),
    ' ',
    e.name,
  );
}

async function showHome() {
  main.replaceChildren(h('div', { class: 'card' }, h('p', { class: 'muted', text: 'Loading…' })));
  const [top, bridges, gaps] = await Promise.all([
    api('/entities?limit=12'),
    api('/insights/bridges?top_k=8'),
    api('/insights/gaps?limit=8'),
  ]);
  main.replaceChildren(
    h(
      'section',
      { class: 'card' },
      h('h1', { text: 'Overview' }),
      h('p', { class: 'muted', text: 'Search for an entity above, or start from the most-claimed entities below.' }),
    ),
    h(
      'div',
      { class: 'grid2' },
      h(
        'section',
        { class: 'card' },
        h('h2', { text: 'Most-claimed entities' }),
        top.results.length
          ? h(
              'ul',
              { class: 'list', id: 'top-entities' },
              top.results.map((e) =>
                h(
                  'li',
                  {},
                  entityLink(e),
                  h('span', { class: 'muted small', text: `${e.claim_count} claim${e.claim_count === 1 ? '' : 's'}` }),
                ),
              ),
            )
          : h('p', { class: 'empty', text: 'No claims yet: add the first one with the form.' }),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', { text: 'Predicted links' }),
        bridges.bridges.length
          ? h(
              'ul',
              { class: 'list' },
              bridges.bridges.map((b) =>
                h(
                  'li',
                  {},
                  h('span', {}, entityLink(b.source), ' ↔ ', entityLink(b.target)),
                  h('span', {
                    class: 'muted small',
                    title: b.reason,
                    text: `${b.suggested_predicate ?? 'link'} · ${b.score.toFixed(2)}`,
                  }),
                ),
              ),
            )
          : h('p', { class: 'empty', text: 'No predictions yet (needs shared neighbours).' }),
      ),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', { text: 'Confidence alerts' }),
      gaps.alerts.length
        ? h(
            'ul',
            { class: 'list' },
            gaps.alerts.map((a) =>
              h(
                'li',
                {},
                entityLink(a.entity),
                h(
                  'span',
                  { class: 'small' },
                  a.alerts.map((x) =>
                    h('span', { class: 'status degraded', style: 'margin-left:4px', text: x.replace('_', ' ') }),
                  ),
                ),
              ),
            ),
          )
        : h('p', { class: 'empty', text: 'No alerts.' }),
    ),
  );
}

/** Claims that answer the query by meaning and words (GET /search), each end a link to its entity. */
function claimResults(found) {
  const end = (pair, id) => entityLink({ id, name: pair[0], type: pair[1] });
  return h(
    'section',
    { class: 'card', id: 'claim-results' },
    h('h2', { text: 'Claims' }),
    found.pending
      ? h('p', {
          class: 'muted small',
          text: `${found.pending} claims not indexed by meaning yet (found by words meanwhile)`,
        })
      : null,
    found.results.length
      ? h(
          'ul',
          { class: 'list' },
          found.results.map((r) =>
            h(
              'li',
              {},
              end(r.claim.subject, r.claim.subject_id),
              ` ${r.claim.predicate[0].replace(/_/g, ' ')} `,
              end(r.claim.object, r.claim.object_id),
              h('span', { class: 'muted small', text: ` · confidence ${r.claim.confidence.toFixed(2)}` }),
            ),
          ),
        )
      : h('p', { class: 'empty', text: 'No claim matches.' }),
  );
}

async function showResults(q) {
  const [r, found] = await Promise.all([
    api(`/entities?query=${enc(q)}&limit=50`),
    api(`/search?query=${enc(q)}&k=20`).catch(() => ({ results: [], pending: 0 })),
  ]);
  main.replaceChildren(
    claimResults(found),
    h(
      'section',
      { class: 'card' },
      h('h1', { text: `Results for “${q}”` }),
      h('p', { class: 'muted', text: `${r.total} entities` }),
      r.results.length
        ? h(
            'ul',
            { class: 'list' },
            r.results.map((e) =>
              h(
                'li',
                {},
                entityLink(e),
                h('span', { class: 'muted small', text: `${e.match} · ${e.claim_count} claims` }),
              ),
            ),
          )
        : h('p', { class: 'empty', text: 'Nothing matches.' }),
    ),
  );
}

async function showEntity(id, opts = {}) {
  const depth = opts.depth ?? 2;
  let entity, frame, claims;
  try {
    [entity, frame, claims] = await Promise.all([
      api(`/entities/${enc(id)}`),
      api(`/entities/${enc(id)}/context?depth=${depth}`),
      api(`/entities/${enc(id)}/claims?limit=200${opts.all ? '&status=all' : ''}`),
    ]);
  } catch (e) {
    main.replaceChildren(
      h('div', {
        class: 'error-banner',
        text: e.status === 404 ? `No entity “${id}” (it may have been retracted).` : e.message,
      }),
    );
    return;
  }
  const rels = frame.direct_relationships;
  const head = h(
    'section',
    { class: 'card', id: 'entity-view', 'data-entity': entity.id },
    h(
      'div',
      { class: 'entity-head' },
      h(
        'div',
        {},
        h(
          'h1',
          {},
          entity.name,
          ' ',
          h('span', {
            class: 'badge',
            style: `background:${colorOf(entity.type)}1a;color:${colorOf(entity.type)}`,
            text: entity.type,
          }),
        ),
        h('div', { class: 'id', text: entity.id }),
        h(
          'div',
          { class: 'meta' },
          h('span', {}, h('b', { text: entity.claim_count }), ' claims'),
          h('span', {}, h('b', { text: entity.source_count }), ' sources'),
          h('span', {}, h('b', { text: rels.length }), ' relationships'),
          h('span', {}, h('b', { text: frame.entities.length }), ` entities within ${depth} hops`),
        ),
      ),
    ),
    entity.aliases.length > 1
      ? h('div', { class: 'aliases muted', text: `Also written as: ${entity.aliases.join(', ')}` })
      : null,
    h('p', { class: 'narrative', text: frame.narrative }),
  );

  const depthSel = h(
    'select',
    {
      class: 'depth',
      'aria-label': 'Graph depth',
      onchange: (e) => showEntity(id, { ...opts, depth: Number(e.target.value) }),
    },
    [1, 2, 3].map((d) => h('option', { value: d, selected: d === depth, text: `${d} hop${d > 1 ? 's' : ''}` })),
  );
  const types = [...new Set([entity.type, ...frame.entities.map((e) => e.type)])];
  const graphCard = h(
    'section',
    { class: 'card graph-card' },
    h(
      'header',
      {},
      h('h2', { text: 'Relationships' }),
      h(
        'span',
        { class: 'inline' },
        colourControl(views, () => graph),
        depthSel,
      ),
    ),
    h('div', {
      id: 'graph',
      role: 'img',
      'aria-label': `Graph of ${entity.name} and ${frame.entities.length} related entities`,
    }),
    h(
      'div',
      { class: 'legend' },
      types.map((t) => h('span', {}, h('i', { style: `background:${colorOf(t)}` }), t)),
      h('span', {
        text: 'click a node to open it · solid edge: direct relationship (width = confidence) · dashed: reached through it',
      }),
    ),
  );

  const predicates = [...new Set(claims.claims.map((c) => c.predicate[0]))].sort();
  const filter = h(
    'select',
    { 'aria-label': 'Filter by predicate', onchange: () => renderRows() },
    h('option', { value: '', text: 'all predicates' }),
    predicates.map((p) => h('option', { value: p, text: p })),
  );
  const showAll = h(
    'label',
    { class: 'inline small' },
    h('input', {
      type: 'checkbox',
      checked: !!opts.all,
      onchange: (e) => showEntity(id, { ...opts, all: e.target.checked }),
    }),
    'include retracted / degraded',
  );
  const tbody = h('tbody');
  const renderRows = () => {
    const p = filter.value;
    const rows = claims.claims.filter((c) => !p || c.predicate[0] === p);
    tbody.replaceChildren(
      ...rows.map((c) =>
        h(
          'tr',
          {
            class: c.status,
            'data-claim': c.claim_id,
            title: 'Click for the claim’s provenance trail',
            onclick: (e) => {
              if (e.target.closest('a')) return;
              showAudit(c.claim_id, auditCard);
            },
          },
          h(
            'td',
            { class: 'triple' },
            side(c.subject, c.subject_id, entity.id),
            ' ',
            h('span', { class: 'pred', title: c.predicate[1], text: c.predicate[0] }),
            ' ',
            side(c.object, c.object_id, entity.id),
          ),
          h(
            'td',
            {},
            h(
              'div',
              { class: 'conf', title: String(c.confidence) },
              h('div', { class: 'bar' }, h('i', { style: `width:${Math.round(c.confidence * 100)}%` })),
              h('span', { class: 'small', text: c.confidence.toFixed(2) }),
            ),
          ),
          h('td', {}, h('span', { class: `status ${c.status}`, text: c.status })),
          h('td', { class: 'src' }, sourceCell(h, c.provenance)),
          h('td', { class: 'small muted', text: fmtDate(c.created_at) }),
        ),
      ),
    );
    if (!rows.length) tbody.append(h('tr', {}, h('td', { colspan: 5, class: 'empty', text: 'No claims.' })));
  };
  const side = (pair, eid, focal) =>
    eid === focal ? h('b', { text: pair[0] }) : h('a', { href: `#/entity/${enc(eid)}`, text: pair[0] });
  renderRows();
  const claimsCard = h(
    'section',
    { class: 'card' },
    h(
      'div',
      { class: 'toolbar' },
      h('h2', { style: 'margin:0', text: `Claims (${claims.total})` }),
      h('div', { class: 'inline' }, filter, showAll),
    ),
    h(
      'table',
      { id: 'claims-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Claim', 'Confidence', 'Status', 'Source', 'Recorded (UTC)'].map((t) => h('th', { text: t })),
        ),
      ),
      tbody,
    ),
  );

  const auditCard = h('section', { class: 'card', id: 'audit-view', hidden: true });
  const timelineCard = h('section', { class: 'card', id: 'timeline-view' }, h('h2', { text: 'Timeline' }));
  main.replaceChildren(head, graphCard, claimsCard, auditCard, timelineCard);
  drawGraph(entity, frame);
  showTimeline(entity.id, timelineCard);
  // Pre-fill the claim form's subject with this entity: the usual next step is adding to it.
  const f = $('#claim-form');
  if (!f.subject_name.value) {
    f.subject_name.value = entity.name;
    f.subject_type.value = entity.type;
  }
}

// A claim's provenance trail (GET /claims/{id}/audit): source, what it derives from, what derives from it,
// corroboration by other sources, and its retraction or degradation with the reason.
async function showAudit(claimId, card) {
  card.hidden = false;
  card.replaceChildren(h('h2', { text: `Audit of ${claimId}` }), h('p', { class: 'muted', text: 'Loading…' }));
  try {
    const a = await api(`/claims/${enc(claimId)}/audit`);
    const triple = (c) => `${c.subject[0]} ${c.predicate[0]} ${c.object[0]} (${c.provenance.source_id}, ${c.status})`;
    const list = (title, items, text) =>
      h(
        'div',
        {},
        h('h3', { text: `${title} (${items.length})` }),
        items.length
          ? h(
              'ul',
              {},
              items.map((x) => h('li', { text: text(x) })),
            )
          : h('p', { class: 'muted small', text: 'none' }),
      );
    card.replaceChildren(
      h('h2', { text: `Audit of ${claimId}` }),
      h('p', { text: `${triple(a.claim)} · source ${a.source.source_id} (${a.source.source_type})` }),
      list(
        'Events',
        a.events,
        (e) => `${fmtDate(e.at)} ${e.event}${e.reason ? ` by ${e.source_id}: ${e.reason}` : ''}`,
      ),
      list('Derived from', a.derived_from, (c) => `${'↑'.repeat(c.depth)} ${triple(c)}`),
      list('Derived claims', a.dependants, (c) => `${'↓'.repeat(c.depth)} ${triple(c)}`),
      list('Corroborating claims', a.corroborating, triple),
    );
  } catch (err) {
    card.replaceChildren(h('div', { class: 'error-banner', text: err.message }));
  }
}

// The entity's timeline (GET /insights/evolution/{id}): claims added, retracted and degraded, oldest first.
async function showTimeline(id, card) {
  try {
    const ev = await api(`/insights/evolution/${enc(id)}`);
    const rows = ev.events.slice(-50).reverse();
    card.append(
      timelineChart(s, ev.events, fmtDate),
      h('p', {
        class: 'muted small',
        text: `${ev.events.length} events over ${ev.relationships.length} relationships; newest first${ev.events.length > 50 ? ' (last 50)' : ''}.`,
      }),
      h(
        'ul',
        { class: 'timeline' },
        rows.map((e) => h('li', { 'data-event': e.event, text: `${fmtDate(e.at)} · ${e.event} · ${e.claim_id}` })),
      ),
    );
  } catch (err) {
    card.append(h('p', { class: 'muted small', text: err.message }));
  }
}

function drawGraph(entity, frame) {
  if (graph) {
    graph.destroy();
    graph = null;
  }
  if (typeof window.cytoscape !== 'function') return;
  const nodes = [
    { data: { id: entity.id, label: entity.name, type: entity.type, focal: 1, size: 46 }, position: { x: 0, y: 0 } },
  ];
  // Initial positions on rings by distance (deterministic start for the force layout).
  frame.entities.forEach((e, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, frame.entities.length) + e.distance;
    nodes.push({
      data: {
        id: e.id,
        label: e.name,
        type: e.type,
        size: Math.max(20, 34 - e.distance * 5 + Math.min(10, Math.log2(1 + e.claim_count) * 2)),
      },
      position: { x: Math.cos(angle) * 120 * e.distance, y: Math.sin(angle) * 120 * e.distance },
    });
  });
  const known = new Set(nodes.map((n) => n.data.id));
  const edges = [];
  for (const r of frame.direct_relationships) {
    if (!known.has(r.target.id)) continue;
    const [src, dst] = r.direction === 'outgoing' ? [entity.id, r.target.id] : [r.target.id, entity.id];
    edges.push({
      data: {
        id: `${r.content_id}`,
        source: src,
        target: dst,
        label: r.predicate,
        width: 1 + 5 * r.confidence,
        direct: 1,
      },
    });
  }
  for (const e of frame.entities)
    if (e.distance > 1 && known.has(e.via))
      edges.push({ data: { id: `via:${e.via}->${e.id}`, source: e.via, target: e.id, label: '', width: 1 } });
  graph = window.cytoscape({
    container: document.getElementById('graph'),
    elements: { nodes, edges },
    wheelSensitivity: 0.3,
    style: [
      {
        selector: 'node',
        style: {
          'background-color': (n) => colorOf(n.data('type')),
          label: 'data(label)',
          width: 'data(size)',
          height: 'data(size)',
          'font-size': 12,
          color: '#1d2433',
          'text-valign': 'bottom',
          'text-margin-y': 4,
          'text-outline-color': '#fff',
          'text-outline-width': 2,
        },
      },
      {
        selector: 'node[focal = 1]',
        style: { 'border-width': 4, 'border-color': '#101828', 'font-weight': 'bold', 'font-size': 13 },
      },
      {
        selector: 'edge',
        style: {
          width: 'data(width)',
          'line-color': '#c3cad6',
          'target-arrow-color': '#c3cad6',
          'target-arrow-shape': 'triangle',
          'curve-style': 'bezier',
          'line-style': 'dashed',
        },
      },
      {
        selector: 'edge[direct = 1]',
        style: {
          'line-style': 'solid',
          'line-color': '#98a2b3',
          'target-arrow-color': '#98a2b3',
          label: 'data(label)',
          'font-size': 10,
          color: '#344054',
          'text-rotation': 'autorotate',
          'text-margin-y': -8,
          'text-background-color': '#fff',
          'text-background-opacity': 1,
          'text-background-padding': 2,
        },
      },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#8fb0ff' } },
    ],
    // Force-directed, seeded with the focal entity in the middle; fits the container.
    layout: {
      name: 'cose',
      animate: false,
      randomize: false,
      idealEdgeLength: () => 80,
      nodeRepulsion: () => 12000,
      edgeElasticity: () => 80,
      gravity: 0.6,
      padding: 30,
      numIter: 1500,
    },
  });
  graph.on('tap', 'node', (evt) => {
    if (evt.target.id() !== entity.id) location.hash = `#/entity/${enc(evt.target.id())}`;
  });
  window.kbGraph = graph;
}

// ---- forms ---------------------------------------------------------------------------------------

function say(el, ok, text) {
  el.className = `result ${ok ? 'ok' : 'err'}`;
  el.textContent = text;
}

$('#claim-form').predicate.addEventListener('change', (e) => {
  const cls = predicateClass.get(e.target.value.trim());
  if (cls && !$('#claim-form').predicate_class.value.trim()) $('#claim-form').predicate_class.value = cls;
});

$('#claim-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const f = e.target;
  const out = $('#claim-result');
  const body = {
    subject: [f.subject_name.value.trim(), f.subject_type.value.trim()],
    predicate: [f.predicate.value.trim(), f.predicate_class.value.trim()],
    object: [f.object_name.value.trim(), f.object_type.value.trim()],
    source_type: f.source_type.value,
    source_id: f.source_id.value.trim(),
  };
  if (f.confidence.value !== '') body.confidence = Number(f.confidence.value);
  const button = f.querySelector('button');
  button.disabled = true;
  try {
    const res = await fetchClaim(body);
    say(
      out,
      true,
      res.duplicate
        ? `Already recorded from this source (${res.claim.claim_id}).`
        : `Added ${res.claim.claim_id}: ${res.claim.subject[0]} ${res.claim.predicate[0]} ${res.claim.object[0]}.` +
            // A non-strict base stores what breaks the vocabulary, and says so.
            (res.claim.warnings?.length
              ? ` Warnings: ${res.claim.warnings.map((w) => `${w.field}: ${w.message}`).join('; ')}.`
              : ''),
    );
    f.object_name.value = '';
    f.source_id.value = '';
    await loadHealth();
    const cur = currentEntity();
    if (cur && (cur === res.claim.subject_id || cur === res.claim.object_id)) await showEntity(cur);
    else location.hash = `#/entity/${enc(res.claim.subject_id)}`;
  } catch (err) {
    say(out, false, err.field ? `${err.field}: ${err.message.replace(/^.*?: /, '')}` : err.message);
  } finally {
    button.disabled = false;
  }
});

async function fetchClaim(body) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${API}/claims`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status === 401) {
    token = await askToken();
    return fetchClaim(body);
  }
  const json = await res.json();
  if (!res.ok) throw new ApiError(res.status, json);
  return { claim: json, duplicate: res.status === 200 };
}

// The retraction's impact, previewed in the confirmation dialog (GET /insights/impact: nothing is written).
async function showImpact(source_id, cascade) {
  const out = $('#confirm-impact');
  out.textContent = 'Checking what this would change…';
  try {
    const im = await api(`/insights/impact/${encodeURIComponent(source_id)}?cascade=${cascade}`);
    const n = (k, one, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
    const parts = [`Would retract ${n(im.retracted_claim_ids.length, 'claim')}`];
    if (cascade) parts.push(`degrade ${n(im.degraded_claim_ids.length, 'derived claim')}`);
    const orphans = im.orphaned_entities;
    parts.push(
      `leave ${n(orphans.length, 'entity', 'entities')} with no active claim${
        orphans.length
          ? ` (${orphans
              .slice(0, 5)
              .map((e) => e.name)
              .join(', ')}${orphans.length > 5 ? ', …' : ''})`
          : ''
      }`,
    );
    const gone = im.weakened_relationships.filter((r) => r.sources_after === 0).length;
    const single = im.weakened_relationships.length - gone;
    parts.push(`remove ${n(gone, 'relationship')} and leave ${n(single, 'relationship')} on a single source.`);
    out.textContent = parts.join(', ');
  } catch (err) {
    out.textContent = err.status === 404 ? `No source “${source_id}” in this base: nothing to retract.` : err.message;
  }
}

$('#retract-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const f = e.target;
  const out = $('#retract-result');
  const source_id = f.source_id.value.trim();
  $('#confirm-text').textContent =
    `Retract every claim from “${source_id}”${f.cascade.checked ? ' and degrade claims derived from them' : ''}? Reason: ${f.reason.value.trim()}`;
  const dialog = $('#confirm-dialog');
  dialog.returnValue = '';
  dialog.showModal();
  showImpact(source_id, f.cascade.checked);
  await new Promise((r) => dialog.addEventListener('close', r, { once: true }));
  if (dialog.returnValue !== 'ok') {
    say(out, true, 'Cancelled; nothing retracted.');
    return;
  }
  try {
    const r = await api('/retract', {
      method: 'POST',
      body: { source_id, reason: f.reason.value.trim(), cascade: f.cascade.checked },
    });
    say(
      out,
      true,
      `Retracted ${r.claim_ids.length} claim(s)${r.degraded_claim_ids.length ? `, degraded ${r.degraded_claim_ids.length}` : ''}.`,
    );
    f.reset();
    await loadHealth();
    route();
  } catch (err) {
    say(out, false, err.message);
  }
});

// ---- routing -------------------------------------------------------------------------------------

function currentEntity() {
  const m = /^#\/entity\/(.+)$/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

// What the topics and query views (topics.js, query.js) use from this page.
const views = { api, h, enc, colorOf };

async function route() {
  try {
    const id = currentEntity();
    if (location.hash === '#/topics') await showTopics(main, views);
    else if (location.hash === '#/query') showQuery(main, views);
    else if (id) await showEntity(id);
    else await showHome();
  } catch (e) {
    main.replaceChildren(h('div', { class: 'error-banner', text: e.message }));
  }
}

window.addEventListener('hashchange', route);
loadHealth();
loadVocabulary();
route();
