// @ts-check
// Topics view (#/topics, issue #18): compute the topic hierarchy (POST /topology/compute), show the topic tree
// with sizes and labels (GET /topology), and the entities of the finest topics coloured by topic
// (GET /topics/{id}). Also colours the entity view's graph by topic on request. Errors from the API are shown.
import { drawMiniGraph } from './mini-graph.js';

// Distinct hues for the finest topics, largest first; past the palette, colours repeat.
const PALETTE = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#42d4f4',
  '#f032e6',
  '#9a6324',
  '#469990',
  '#808000',
  '#000075',
  '#bfef45',
];
const UNKNOWN = '#c3cad6';
// Bounds on what the page fetches: the topic graph is an overview, not the whole base.
const MAX_TOPICS = 40;
const PER_TOPIC = 200;

let cache = null; // { key, topics, status, members: Map(entity id -> topic), colours: Map(topic id -> colour), graph }

async function load(ctx, force = false) {
  const r = await ctx.api('/topology');
  const key = `${r.status?.log_seq}@${r.status?.computed_at}`;
  if (!force && cache?.key === key) {
    // The same computation, but whether it is current changes with every claim.
    cache.status = r.status;
    return cache;
  }
  const level0 = r.topics
    .filter((t) => t.level === 0)
    .sort((a, b) => b.size - a.size || (a.topic_id < b.topic_id ? -1 : 1));
  const colours = new Map(level0.map((t, i) => [t.topic_id, PALETTE[i % PALETTE.length]]));
  const shown = level0.slice(0, MAX_TOPICS);
  const details = await Promise.all(shown.map((t) => ctx.api(`/topics/${ctx.enc(t.topic_id)}?limit=${PER_TOPIC}`)));
  const members = new Map();
  const nodes = [];
  const edges = [];
  details.forEach((d, i) => {
    const topic = shown[i];
    for (const e of d.entities) {
      members.set(e.id, topic.topic_id);
      nodes.push({ id: e.id, label: e.name, colour: colours.get(topic.topic_id), topic: topic.topic_id });
    }
    d.relationships.forEach((rel, j) => {
      edges.push({ id: `${topic.topic_id}:${j}`, source: rel.subject_id, target: rel.object_id, label: rel.predicate });
    });
  });
  cache = {
    key,
    topics: r.topics,
    status: r.status,
    members,
    colours,
    graph: { nodes, edges },
    truncated: level0.length > shown.length,
  };
  return cache;
}

function errorBanner(ctx, e) {
  return ctx.h('div', {
    class: 'error-banner',
    role: 'alert',
    text: `${e.code ? `${e.code}: ` : ''}${e.message}`,
  });
}

function tree(ctx, topics, colours, onPick) {
  const { h } = ctx;
  const byId = new Map(topics.map((t) => [t.topic_id, t]));
  const node = (t) =>
    h(
      'li',
      { 'data-topic': t.topic_id, 'data-level': t.level },
      h(
        'button',
        { type: 'button', class: 'topic-row', onclick: () => onPick(t) },
        h('i', { class: 'swatch', style: `background:${colours.get(t.topic_id) ?? '#667085'}` }),
        h('span', { class: 'topic-label', text: t.label }),
        h('span', { class: 'topic-size muted small', text: `${t.size} entit${t.size === 1 ? 'y' : 'ies'}` }),
        h('span', { class: 'muted small', text: ` · level ${t.level}` }),
      ),
      t.children.length
        ? h(
            'ul',
            {},
            t.children
              .map((c) => byId.get(c))
              .filter(Boolean)
              .sort((a, b) => b.size - a.size)
              .map(node),
          )
        : null,
    );
  const roots = topics.filter((t) => t.parent_id === null || !byId.has(t.parent_id)).sort((a, b) => b.size - a.size);
  return h('ul', { class: 'topic-tree', id: 'topic-tree' }, roots.map(node));
}

/** Renders the topics view into `main`. ctx: { api, h, enc }. */
export async function showTopics(main, ctx) {
  const { h, api } = ctx;
  const out = h('p', { class: 'result', id: 'topology-result', role: 'status' });
  const num = (name, label, attrs) =>
    h('label', { class: 'inline small' }, label, ' ', h('input', { name, type: 'number', ...attrs }));
  const form = h(
    'form',
    { id: 'topology-form', class: 'toolbar', autocomplete: 'off' },
    h(
      'div',
      { class: 'inline' },
      num('resolution', 'resolution', { min: 0.01, max: 1000, step: 'any', value: 1 }),
      num('levels', 'levels', { min: 1, max: 10, step: 1, value: 3 }),
      num('seed', 'seed', { min: 0, step: 1, value: 0 }),
      num('restarts', 'runs', {
        min: 1,
        max: 16,
        step: 1,
        value: 3,
        title: 'Leiden runs from seeds seed, seed + 1, ...; the partition of highest modularity is kept',
      }),
      num('n_iterations', 'iterations', {
        min: -1,
        max: 100000,
        step: 1,
        value: -1,
        title:
          "Leiden iterations, as leidenalg's n_iterations: -1 until no node moves; 2 (leidenalg's default) is much faster on large graphs",
      }),
    ),
    h('button', { type: 'submit', class: 'primary', text: 'Compute topics' }),
  );
  const body = h('div', { id: 'topics-body' });
  main.replaceChildren(
    h(
      'section',
      { class: 'card', id: 'topics-view' },
      h('h1', { text: 'Topics' }),
      h('p', { class: 'muted', text: 'Leiden communities over the active claims, as a hierarchy (level 0: finest).' }),
      form,
      out,
    ),
    body,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    out.className = 'result';
    out.textContent = 'Computing…';
    try {
      const r = await api('/topology/compute', {
        method: 'POST',
        body: {
          resolution: Number(form.resolution.value),
          levels: Number(form.levels.value),
          seed: Number(form.seed.value),
          n_iterations: Number(form.n_iterations.value),
          restarts: Number(form.restarts.value),
        },
      });
      out.className = 'result ok';
      out.textContent = `Computed ${r.topics.length} topics over ${r.entity_count} entities and ${r.edge_count} edges; level-0 modularity ${r.levels[0]?.modularity.toFixed(3) ?? '–'} after ${r.levels[0]?.iterations ?? 0} Leiden iterations.`;
      await render(body, ctx, true);
    } catch (/** @type {any} */ err) {
      out.className = 'result err';
      out.textContent = `${err.code ? `${err.code}: ` : ''}${err.message}`;
    } finally {
      button.disabled = false;
    }
  });
  await render(body, ctx, false);
}

async function render(body, ctx, force) {
  const { h } = ctx;
  let t;
  try {
    t = await load(ctx, force);
  } catch (/** @type {any} */ e) {
    body.replaceChildren(
      e.code === 'not_computed'
        ? h(
            'section',
            { class: 'card' },
            h('p', { class: 'empty', id: 'topics-empty', text: 'No topics yet: compute them above.' }),
          )
        : errorBanner(ctx, e),
    );
    return;
  }
  const graphEl = h('div', {
    id: 'topic-graph',
    class: 'mini-graph',
    role: 'img',
    'aria-label': 'Entities coloured by topic',
  });
  const status = t.status
    ? `Computed ${t.status.computed_at.slice(0, 16).replace('T', ' ')} UTC at log position ${t.status.log_seq}${t.status.current ? '' : ' · stale: claims changed since, compute again'}`
    : '';
  let cy = null;
  const pick = (topic) => {
    if (!cy) return;
    // A topic at any level is the union of its level-0 descendants.
    const leaves = new Set();
    const byId = new Map(t.topics.map((x) => [x.topic_id, x]));
    const walk = (x) => {
      if (x.level === 0) leaves.add(x.topic_id);
      else for (const c of x.children) if (byId.has(c)) walk(byId.get(c));
    };
    walk(topic);
    for (const n of cy.nodes()) n.toggleClass('dim', !leaves.has(n.data('topic')));
  };
  body.replaceChildren(
    h(
      'div',
      { class: 'grid2' },
      h(
        'section',
        { class: 'card' },
        h('h2', { text: `Topic tree (${t.topics.length})` }),
        h('p', { class: 'muted small', id: 'topology-status', text: status }),
        tree(ctx, t.topics, t.colours, pick),
      ),
      h(
        'section',
        { class: 'card graph-card' },
        h('header', {}, h('h2', { text: 'Entities by topic' })),
        graphEl,
        h(
          'div',
          { class: 'legend' },
          h('span', {
            text: `colour: level-0 topic · click a topic in the tree to highlight it${t.truncated ? ` · the ${MAX_TOPICS} largest topics shown` : ''}`,
          }),
        ),
      ),
    ),
  );
  cy = drawMiniGraph(graphEl, t.graph, (id) => {
    location.hash = `#/entity/${ctx.enc(id)}`;
  });
  /** @type {any} */ (window).kbTopicGraph = cy;
}

// ---- the entity view's graph, coloured by topic --------------------------------------------------

let colourMode = sessionStorage.getItem('kb-graph-colour') || 'type';

/** A select for the entity graph card: colour nodes by entity type or by topic. */
export function colourControl(ctx, getGraph) {
  const { h } = ctx;
  const note = h('span', { class: 'muted small', id: 'graph-colour-note', role: 'status' });
  const select = h(
    'select',
    {
      id: 'graph-colour',
      'aria-label': 'Colour nodes by',
      onchange: async (e) => {
        colourMode = e.target.value;
        sessionStorage.setItem('kb-graph-colour', colourMode);
        await applyColours(ctx, getGraph(), note);
      },
    },
    h('option', { value: 'type', selected: colourMode === 'type', text: 'colour: entity type' }),
    h('option', { value: 'topic', selected: colourMode === 'topic', text: 'colour: topic' }),
  );
  queueMicrotask(() => applyColours(ctx, getGraph(), note));
  return h('span', { class: 'inline' }, note, select);
}

async function applyColours(ctx, cy, note) {
  if (!cy) return;
  if (colourMode !== 'topic') {
    for (const n of cy.nodes()) n.removeStyle('background-color');
    note.textContent = '';
    return;
  }
  try {
    const t = await load(ctx);
    cy.nodes().forEach((n) => {
      const topic = t.members.get(n.id());
      n.data('topic', topic ?? '');
      n.style('background-color', topic ? t.colours.get(topic) : UNKNOWN);
    });
    const missing = cy.nodes().filter((n) => !n.data('topic')).length;
    note.textContent = missing ? `${missing} node${missing === 1 ? '' : 's'} in no shown topic (grey) · ` : '';
  } catch (/** @type {any} */ e) {
    note.textContent =
      e.code === 'not_computed' ? 'no topics yet: compute them on the Topics page · ' : `${e.message} · `;
  }
}
