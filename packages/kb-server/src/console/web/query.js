// @ts-check
// Query view (#/query, issue #20): an openCypher box (POST /query) showing the result as a table, and as a graph
// when it holds nodes, relationships or paths. Errors from the API are shown with their position in the query.
// Explain and Profile (or an EXPLAIN / PROFILE prefix) show the plan the engine runs as an indented tree.
import { drawMiniGraph } from './mini-graph.js';

const EXAMPLES = [
  'MATCH (e:Entity) RETURN e.type AS type, count(*) AS entities ORDER BY entities DESC',
  'MATCH (d:Drug)-[r]->(x) RETURN d.name AS drug, type(r) AS rel, x.name AS target, r.confidence AS confidence',
  "MATCH p = (a {name: 'olaparib'})-[*1..2]-(b) RETURN p LIMIT 10",
];
// Bound on what the graph draws (the table shows every row the API returned).
const MAX_GRAPH_NODES = 300;

let last = EXAMPLES[0];

/** Renders the query view into `main`. ctx: { api, h, enc, colorOf }. */
export function showQuery(main, ctx) {
  const { h } = ctx;
  const input = h('textarea', {
    id: 'cypher-input',
    rows: 4,
    spellcheck: 'false',
    'aria-label': 'Cypher query',
    placeholder: 'MATCH (n:Entity) RETURN n.name LIMIT 10',
  });
  input.value = last;
  const out = h('div', { id: 'query-output', 'aria-live': 'polite' });
  // mode: undefined (run), 'explain' or 'profile' (the API's fields of the same names).
  const run = async (mode) => {
    last = input.value;
    const buttons = [button, explainButton, profileButton];
    for (const b of buttons) b.disabled = true;
    out.replaceChildren(h('p', { class: 'muted', text: mode === 'explain' ? 'Planning…' : 'Running…' }));
    try {
      const body = { cypher: input.value, ...(mode ? { [mode]: true } : {}) };
      const r = await ctx.api('/query', { method: 'POST', body });
      renderResult(out, ctx, r);
    } catch (/** @type {any} */ e) {
      // Positions are those of the text as sent: the API passes the mode to the engine, not as a prefix. A
      // PROFILE stopped by a budget also shows its plan: where the rows and the time went until then.
      const plan = e.data?.plan;
      out.replaceChildren(queryError(ctx, e, input.value), ...(plan ? [planCard(ctx, plan)] : []));
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  };
  const button = h('button', { type: 'submit', class: 'primary', id: 'query-run', text: 'Run' });
  /**
   * @param {'explain' | 'profile'} mode
   * @param {string} text
   * @param {string} title
   */
  const modeButton = (mode, text, title) =>
    h('button', { type: 'button', id: `query-${mode}`, title, text, onclick: () => run(mode) });
  const explainButton = modeButton('explain', 'Explain', 'Show the plan without running the query');
  const profileButton = modeButton(
    'profile',
    'Profile',
    'Run the query and show the plan with rows and time per operator',
  );
  const form = h(
    'form',
    {
      id: 'query-form',
      class: 'form',
      onsubmit: (e) => {
        e.preventDefault();
        run();
      },
    },
    input,
    h(
      'div',
      { class: 'toolbar' },
      h(
        'select',
        {
          'aria-label': 'Example queries',
          onchange: (e) => {
            if (e.target.value) input.value = e.target.value;
          },
        },
        h('option', { value: '', text: 'examples…' }),
        EXAMPLES.map((q) => h('option', { value: q, text: q })),
      ),
      explainButton,
      profileButton,
      button,
    ),
  );
  // Ctrl/Cmd+Enter runs, as in other query consoles.
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      run();
    }
  });
  main.replaceChildren(
    h(
      'section',
      { class: 'card', id: 'query-view' },
      h('h1', { text: 'Cypher query' }),
      h('p', {
        class: 'muted small',
        text: 'Read-only openCypher over the knowledge graph: a node per entity (label: its type and Entity), a relationship per active fact (type: the predicate, upper-cased).',
      }),
      form,
    ),
    out,
  );
}

// The API's message ends with "(line L, column C)" for syntax errors: point at that place in the query.
function queryError(ctx, e, cypher) {
  const { h } = ctx;
  const m = /line (\d+), column (\d+)/.exec(e.message);
  const lines = [h('div', { text: `${e.code ? `${e.code}: ` : ''}${e.message}` })];
  if (m) {
    const line = cypher.split('\n')[Number(m[1]) - 1] ?? '';
    const column = Number(m[2]);
    lines.push(
      h('pre', { class: 'query-caret', id: 'query-caret' }, `${line}\n${' '.repeat(Math.max(0, column - 1))}^`),
    );
  }
  return h('div', { class: 'error-banner', id: 'query-error', role: 'alert' }, lines);
}

const isGraphValue = (v) => v && typeof v === 'object' && ['node', 'relationship', 'path'].includes(v.kind);

function cell(ctx, v) {
  const { h } = ctx;
  if (v === null || v === undefined) return h('span', { class: 'muted', text: 'null' });
  if (Array.isArray(v))
    return h(
      'span',
      {},
      '[',
      v.flatMap((x, i) => (i ? [', ', cell(ctx, x)] : [cell(ctx, x)])),
      ']',
    );
  if (typeof v !== 'object') return String(v);
  if (v.kind === 'node') {
    const type = v.properties?.type;
    return h(
      'a',
      { href: `#/entity/${ctx.enc(v.id)}`, class: 'node-cell' },
      type
        ? h('span', {
            class: 'badge',
            style: `background:${ctx.colorOf(type)}1a;color:${ctx.colorOf(type)}`,
            text: type,
          })
        : null,
      ' ',
      v.properties?.name ?? v.id,
    );
  }
  if (v.kind === 'relationship') return h('span', { class: 'pred', text: `[:${v.type}]` });
  if (v.kind === 'path') {
    const names = v.nodes.map((n) => n.properties?.name ?? n.id);
    return h('span', {
      text: names.map((n, i) => (i ? `${relText(v.relationships[i - 1], v.nodes[i - 1])}${n}` : n)).join(''),
    });
  }
  return JSON.stringify(v);
}
const relText = (r, from) => (r.start === from.id ? ` -[:${r.type}]-> ` : ` <-[:${r.type}]- `);

function renderResult(out, ctx, r) {
  const { h } = ctx;
  const table = h(
    'table',
    { id: 'query-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        r.columns.map((c) => h('th', { text: c })),
      ),
    ),
    h(
      'tbody',
      {},
      r.rows.length
        ? r.rows.map((row) =>
            h(
              'tr',
              {},
              row.map((v) => h('td', {}, cell(ctx, v))),
            ),
          )
        : h('tr', {}, h('td', { colspan: Math.max(1, r.columns.length), class: 'empty', text: 'No rows.' })),
    ),
  );
  const g = collectGraph(r.rows, ctx);
  const parts = [];
  if (r.plan) parts.push(planCard(ctx, r.plan));
  let graphEl = null;
  if (g.nodes.length) {
    graphEl = h('div', { id: 'query-graph', class: 'mini-graph', role: 'img', 'aria-label': 'Graph of the result' });
    parts.push(
      h(
        'section',
        { class: 'card graph-card' },
        h('header', {}, h('h2', { text: `Graph (${g.nodes.length} nodes, ${g.edges.length} relationships)` })),
        graphEl,
        h(
          'div',
          { class: 'legend' },
          h('span', { text: `click a node to open it${g.truncated ? ` · first ${MAX_GRAPH_NODES} nodes` : ''}` }),
        ),
      ),
    );
  }
  parts.push(
    h(
      'section',
      { class: 'card' },
      h('p', {
        class: 'muted small',
        id: 'query-stats',
        text: `${r.stats.rows} row${r.stats.rows === 1 ? '' : 's'} in ${r.stats.elapsed_ms.toFixed(1)} ms`,
      }),
      h('div', { class: 'table-scroll' }, table),
    ),
  );
  out.replaceChildren(...parts);
  /** @type {any} */ (window).kbQueryGraph = graphEl
    ? drawMiniGraph(graphEl, g, (id) => {
        location.hash = `#/entity/${ctx.enc(id)}`;
      })
    : null;
}

// The plan as Neo4j prints it: each operator with its details and estimated rows (PROFILE: rows and own time),
// the operators it reads indented below it.
function planCard(ctx, plan) {
  const { h } = ctx;
  const profiled = plan.rows !== undefined;
  const item = (p) =>
    h(
      'li',
      { class: 'plan-op' },
      h(
        'div',
        { class: 'plan-line' },
        h('strong', { class: 'plan-operator', text: p.operator }),
        p.details ? h('code', { class: 'plan-details', text: p.details }) : null,
        h('span', {
          class: 'plan-stats muted small',
          text: `est. ${p.estimated_rows}${p.rows === undefined ? '' : ` · rows ${p.rows} · ${p.time_ms} ms`}`,
        }),
      ),
      p.children.length ? h('ul', { class: 'plan-tree' }, p.children.map(item)) : null,
    );
  return h(
    'section',
    { class: 'card', id: 'query-plan' },
    h('header', {}, h('h2', { text: profiled ? 'Profile' : 'Plan (not run)' })),
    h('ul', { class: 'plan-tree plan-root' }, item(plan)),
  );
}

// Nodes and relationships anywhere in the rows (inside paths and lists too); relationships whose ends are not
// in the result bring no node of their own (the API gives only the ids).
function collectGraph(rows, ctx) {
  const nodes = new Map();
  const edges = new Map();
  let truncated = false;
  const visit = (v) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isGraphValue(v)) return;
    if (v.kind === 'node') {
      if (nodes.has(v.id)) return;
      if (nodes.size >= MAX_GRAPH_NODES) {
        truncated = true;
        return;
      }
      nodes.set(v.id, { id: v.id, label: v.properties?.name ?? v.id, colour: ctx.colorOf(v.properties?.type) });
    } else if (v.kind === 'relationship') {
      edges.set(v.id, { id: `r:${v.id}`, source: v.start, target: v.end, label: v.type });
    } else {
      v.nodes.forEach(visit);
      v.relationships.forEach(visit);
    }
  };
  rows.forEach(visit);
  return {
    nodes: [...nodes.values()],
    edges: [...edges.values()].filter((e) => nodes.has(e.source) && nodes.has(e.target)),
    truncated,
  };
}
