// The web console's Topics and Query views in a real browser (Playwright + Debian's chromium, offline: only the
// console's own origin is reachable): compute topics and see the tree and the entities coloured by topic, colour
// the entity graph by topic; run Cypher and see a table, a path as a graph, and a bad query's error with its
// position. Expected values come from the library on the same base. Screenshots go to .test-output/kb-web/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testOutputPath } from '@evident/testkit';
import type { FastifyInstance } from 'fastify';
import { quickstart, type KbDB, type ClaimInput } from '@evident/kb';
import { buildConsole } from '../src/console/server.js';
import { tempKb } from './helpers.js';

// Callbacks passed to page.evaluate/waitForFunction run in the browser; the package compiles without DOM types.
declare const document: any;
declare const window: any;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `no chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`;
if (skip && process.env.CI === 'true') throw new Error(`web console test needs a browser: ${skip}`);

const kb = tempKb('web-topics.kb');
let db: KbDB;
let app: FastifyInstance;
let browser: Browser;
let page: Page;
let base = '';
const pageErrors: string[] = [];
const foreign: string[] = [];

const c = (s: [string, string], p: [string, string], o: [string, string], source_id: string): ClaimInput => ({
  subject: s,
  predicate: p,
  object: o,
  provenance: { source_type: 'literature', source_id },
});

// Two clusters (DNA repair genes and diseases; PARP inhibitors) joined by one edge, and a separate pair.
async function seed(db: KbDB) {
  const G = (n: string): [string, string] => [n, 'gene'];
  const D = (n: string): [string, string] => [n, 'disease'];
  const R = (n: string): [string, string] => [n, 'drug'];
  const P = (n: string): [string, string] => [n, 'protein'];
  const assoc: [string, string] = ['associated_with', 'association'];
  const targets: [string, string] = ['targets', 'pharmacology'];
  const interacts: [string, string] = ['interacts_with', 'molecular'];
  await db.ingestBatch([
    c(G('BRCA1'), assoc, D('breast cancer'), 'PMID:1'),
    c(G('BRCA1'), assoc, D('ovarian cancer'), 'PMID:2'),
    c(G('BRCA2'), assoc, D('breast cancer'), 'PMID:3'),
    c(G('BRCA2'), assoc, D('ovarian cancer'), 'PMID:4'),
    c(G('PALB2'), interacts, G('BRCA2'), 'PMID:5'),
    c(G('PALB2'), assoc, D('breast cancer'), 'PMID:6'),
    c(R('olaparib'), targets, P('PARP1'), 'PMID:7'),
    c(R('talazoparib'), targets, P('PARP1'), 'PMID:8'),
    c(R('niraparib'), targets, P('PARP1'), 'PMID:9'),
    c(R('olaparib'), targets, P('PARP2'), 'PMID:10'),
    c(R('niraparib'), targets, P('PARP2'), 'PMID:11'),
    c(P('PARP1'), interacts, P('BRCA1 protein'), 'PMID:12'),
    c(G('BRCA1'), ['encodes', 'genetic'], P('BRCA1 protein'), 'PMID:13'),
    c(R('metformin'), ['treats', 'pharmacology'], D('type 2 diabetes'), 'PMID:14'),
  ]);
}

before(async () => {
  if (skip) return;
  db = await quickstart(kb.path);
  await seed(db);
  app = await buildConsole(db);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-extensions',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // The 409 (no topics yet) and 400 (bad query) answers are logged by the browser; script errors are not expected.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) pageErrors.push(m.text());
  });
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith(base)) return route.continue();
    foreign.push(route.request().url());
    return route.abort();
  });
  mkdirSync(testOutputPath('kb-web'), { recursive: true });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await db?.close();
  kb.cleanup();
});

async function withDiagnostics(name: string, run: () => Promise<void>) {
  try {
    await run();
  } catch (e) {
    await page
      .screenshot({ path: testOutputPath('kb-web', `${name}-failure.png`), fullPage: true })
      .catch(() => undefined);
    throw new Error(`${(e as Error).message}\npage errors: ${pageErrors.join('; ')}`, { cause: e });
  }
}

interface GraphNode {
  id: string;
  topic: string;
  colour: string;
  rendered: string;
}
// The nodes of a cytoscape graph the page exposes on window, with their topic and rendered colour.
const graphNodes = (name: string) =>
  page.evaluate(
    (n) =>
      window[n].nodes().map((x: any) => ({
        id: x.id(),
        topic: x.data('topic'),
        colour: x.data('colour'),
        rendered: x.style('background-color'),
      })),
    name,
  ) as Promise<GraphNode[]>;

test('topics view: compute, the topic tree with sizes and labels, entities coloured by topic', { skip }, () =>
  withDiagnostics('topics', async () => {
    await page.goto(`${base}/#/topics`);
    await page.waitForSelector('#topics-empty');
    await page.click('#topology-form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#topology-result')?.classList.contains('ok'));
    await page.waitForSelector('#topic-tree li');
    // The form's default n_iterations, -1, iterates until an iteration moves nothing: two at least.
    const iterations = /after (\d+) Leiden iterations/.exec((await page.textContent('#topology-result')) ?? '');
    assert.ok(iterations && Number(iterations[1]) >= 2, `${await page.textContent('#topology-result')}`);

    const topics = await db.topics();
    assert.ok(topics.some((t) => t.level === 0) && topics.length > 1, 'the base has a hierarchy');
    assert.equal(await page.locator('#topic-tree li').count(), topics.length, 'one tree item per topic');
    for (const t of topics) {
      const li = page.locator(`#topic-tree li[data-topic="${t.topic_id}"]`);
      const row = (await li.locator(':scope > button').textContent())!;
      assert.ok(row.includes(t.label), `label of ${t.topic_id}: ${row}`);
      assert.ok(row.includes(`${t.size} entit`), `size of ${t.topic_id}: ${row}`);
      // Children are nested under their parent.
      for (const child of t.children)
        assert.equal(
          await li.locator(`:scope > ul > li[data-topic="${child}"]`).count(),
          1,
          `${child} under ${t.topic_id}`,
        );
    }

    // Every entity of every level-0 topic is drawn with its topic's colour; different topics, different colours.
    await page.waitForFunction(() => window.kbTopicGraph?.nodes().length > 0);
    const nodes = new Map((await graphNodes('kbTopicGraph')).map((n) => [n.id, n]));
    const level0 = topics.filter((t) => t.level === 0);
    const colourOf = new Map<string, string>();
    for (const t of level0) {
      const { entities } = await db.queryTopic(t.topic_id, { limit: 1000 });
      assert.equal(entities.length, t.size);
      for (const e of entities) {
        const n = nodes.get(e.id);
        assert.ok(n, `${e.id} drawn`);
        assert.equal(n.topic, t.topic_id, `${e.id} in ${t.topic_id}`);
        if (!colourOf.has(t.topic_id)) colourOf.set(t.topic_id, n.rendered);
        assert.equal(n.rendered, colourOf.get(t.topic_id), `${e.id} has its topic's colour`);
      }
    }
    assert.equal(
      nodes.size,
      level0.reduce((a, t) => a + t.size, 0),
      'no other nodes',
    );
    assert.equal(new Set(colourOf.values()).size, level0.length, 'one colour per topic');
    await page.screenshot({ path: testOutputPath('kb-web', 'topics.png'), fullPage: true });

    // The entity view's graph, coloured by topic: the same colours as the topics view.
    await page.goto(`${base}/#/entity/${encodeURIComponent('gene:brca1')}`);
    await page.waitForSelector('#graph canvas');
    await page.selectOption('#graph-colour', 'topic');
    await page.waitForFunction(() => window.kbGraph.$id('gene:brca1').data('topic'));
    const entityNodes = await graphNodes('kbGraph');
    assert.ok(entityNodes.length > 3);
    for (const n of entityNodes) {
      assert.equal(n.topic, nodes.get(n.id)!.topic, `${n.id}: topic`);
      assert.equal(n.rendered, nodes.get(n.id)!.rendered, `${n.id}: colour`);
    }
    // Back to entity types: the colours are the type colours again (two types, two colours here).
    await page.selectOption('#graph-colour', 'type');
    const byType = await graphNodes('kbGraph');
    assert.equal(
      byType.find((n) => n.id === 'gene:brca1')!.rendered,
      byType.find((n) => n.id === 'gene:brca2')!.rendered,
    );
    assert.notEqual(
      byType.find((n) => n.id === 'gene:brca1')!.rendered,
      byType.find((n) => n.id === 'disease:breast cancer')!.rendered,
    );

    // A new claim makes the topology stale, and the page says so.
    await db.ingest(['PALB2', 'gene'], ['associated_with', 'association'], ['ovarian cancer', 'disease'], {
      source_type: 'literature',
      source_id: 'PMID:15',
    });
    await page.goto(`${base}/#/topics`);
    await page.waitForFunction(() => /stale/.test(document.querySelector('#topology-status')?.textContent ?? ''));
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(foreign, [], 'only the console origin is contacted');
  }),
);

test('query view: a table, a path as a graph, errors with their position', { skip }, () =>
  withDiagnostics('query', async () => {
    await page.goto(`${base}/#/query`);
    const run = async (cypher: string) => {
      await page.fill('#cypher-input', cypher);
      await page.click('#query-run');
    };

    // A table: the columns and cells the library answers.
    const tableQuery =
      'MATCH (g:gene)-[r]->(d:disease) RETURN g.name AS gene, type(r) AS rel, d.name AS disease ORDER BY gene, disease';
    const expected = await db.rawQuery(tableQuery);
    await run(tableQuery);
    await page.waitForSelector('#query-table');
    const headers = await page.locator('#query-table thead th').allTextContents();
    assert.deepEqual(headers, expected.columns);
    const cells = await page
      .locator('#query-table tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td: any) => td.textContent)));
    assert.deepEqual(
      cells,
      expected.rows.map((r) => r.map(String)),
    );
    assert.equal(await page.locator('#query-graph').count(), 0, 'no graph for scalar results');
    assert.match((await page.textContent('#query-stats'))!, new RegExp(`^${expected.rows.length} rows`));

    // Profile: the plan tree the library answers for PROFILE, one operator per item, nested as in the tree, with
    // estimated rows, rows and time; the rows still shown. Explain: the same operators, not run.
    type Plan = { operator: string; details: string; estimated_rows: number; rows?: number; children: Plan[] };
    const flat = (p: Plan, depth = 0): [number, string, string][] => [
      [depth, p.operator, p.details],
      ...p.children.flatMap((c) => flat(c, depth + 1)),
    ];
    const shownPlan = () =>
      page.locator('#query-plan .plan-op').evaluateAll((items) =>
        items.map((li: any) => {
          let depth = 0;
          for (let e = li.parentElement; e && !e.classList.contains('plan-root'); e = e.parentElement)
            if (e.classList.contains('plan-op')) depth++;
          const line = li.querySelector('.plan-line');
          return {
            op: [
              depth,
              line.querySelector('.plan-operator').textContent,
              line.querySelector('.plan-details')?.textContent ?? '',
            ],
            stats: line.querySelector('.plan-stats').textContent,
          };
        }),
      );
    const profiled = (await db.rawQuery(`PROFILE ${tableQuery}`)).plan as Plan;
    await page.fill('#cypher-input', tableQuery);
    await page.click('#query-profile');
    await page.waitForSelector('#query-plan');
    const profile = await shownPlan();
    assert.deepEqual(
      profile.map((o) => o.op),
      flat(profiled),
    );
    assert.ok(profile.length > 1, 'a tree, not one operator');
    for (const o of profile) assert.match(o.stats, /^est\. [\d.]+ · rows \d+ · [\d.]+ ms$/, o.stats);
    assert.match(profile[0]!.stats, new RegExp(`rows ${expected.rows.length} ·`), 'the top operator gave the rows');
    assert.equal(await page.locator('#query-table tbody tr').count(), expected.rows.length, 'PROFILE runs the query');
    await page.screenshot({ path: testOutputPath('kb-web', 'query-profile.png'), fullPage: true });

    await page.click('#query-explain');
    await page.waitForFunction(() => /not run/.test(document.querySelector('#query-plan h2')?.textContent ?? ''));
    const explained = await shownPlan();
    assert.deepEqual(
      explained.map((o) => o.op),
      flat(profiled),
    );
    for (const o of explained) assert.match(o.stats, /^est\. [\d.]+$/, o.stats);
    assert.equal(await page.textContent('#query-table tbody td'), 'No rows.');
    await run(tableQuery);
    await page.waitForFunction(() => !document.querySelector('#query-plan') && document.querySelector('#query-table'));

    // A syntax error on the first line under Profile: the caret under the text as typed (the API's position is the text's).
    const badFirst = 'MATCH (n:gene RETURN n';
    const apiBad = (await app.inject({ method: 'POST', url: '/api/v1/query', payload: { cypher: badFirst } })).json();
    const badColumn = Number(/line 1, column (\d+)/.exec(apiBad.error.message)![1]);
    await page.fill('#cypher-input', badFirst);
    await page.click('#query-profile');
    await page.waitForSelector('#query-caret');
    assert.equal((await page.textContent('#query-caret'))!.split('\n')[1]!.indexOf('^'), badColumn - 1);

    // A PROFILE past the row budget (10,000 by default): the error, and the plan with the rows until it stopped.
    await page.fill('#cypher-input', 'UNWIND range(1, 20000) AS i RETURN i');
    await page.click('#query-profile');
    await page.waitForSelector('#query-error');
    assert.match((await page.textContent('#query-error'))!, /cypher_too_many_rows/);
    await page.waitForSelector('#query-plan');
    assert.match((await page.textContent('#query-plan .plan-stats'))!, /rows 10001 ·/);

    // A path: a small graph with its nodes and relationships, and the path written out in the table.
    const pathQuery = "MATCH p = (:drug {name: 'talazoparib'})-[:TARGETS]->(:protein)-[:INTERACTS_WITH]->(x) RETURN p";
    const paths = await db.rawQuery(pathQuery);
    assert.equal(paths.rows.length, 1);
    const path = paths.rows[0]![0] as { nodes: { id: string }[]; relationships: { id: string }[] };
    await run(pathQuery);
    await page.waitForFunction(() => window.kbQueryGraph?.nodes().length > 0);
    const drawn = await page.evaluate(() => ({
      nodes: window.kbQueryGraph
        .nodes()
        .map((n: any) => n.id())
        .sort(),
      edges: window.kbQueryGraph.edges().map((e: any) => [e.source().id(), e.data('label'), e.target().id()]),
    }));
    assert.deepEqual(drawn.nodes, path.nodes.map((n) => n.id).sort());
    assert.deepEqual(drawn.edges.sort(), [
      ['drug:talazoparib', 'TARGETS', 'protein:parp1'],
      ['protein:parp1', 'INTERACTS_WITH', 'protein:brca1 protein'],
    ]);
    assert.equal(
      (await page.textContent('#query-table tbody td'))!.trim(),
      'talazoparib -[:TARGETS]-> PARP1 -[:INTERACTS_WITH]-> BRCA1 protein',
    );
    await page.screenshot({ path: testOutputPath('kb-web', 'query-path.png'), fullPage: true });

    // A syntax error: the API's code and message, and a caret under the place it names.
    const bad = 'MATCH (n:gene)\nWHERE n.name = 1\nRETURN n ORDER';
    const api = (await app.inject({ method: 'POST', url: '/api/v1/query', payload: { cypher: bad } })).json();
    const [, line, column] = /line (\d+), column (\d+)/.exec(api.error.message)!.map(Number);
    await run(bad);
    await page.waitForSelector('#query-error');
    const banner = (await page.textContent('#query-error'))!;
    assert.ok(banner.includes(`${api.error.code}: ${api.error.message}`), banner);
    const [shown, caret] = (await page.textContent('#query-caret'))!.split('\n');
    assert.equal(shown, bad.split('\n')[line! - 1]);
    assert.equal(caret!.indexOf('^'), column! - 1, 'caret under the column the API names');
    assert.equal(await page.locator('#query-table').count(), 0, 'the old result is gone');

    // A type error and a write clause: shown as the API says them.
    await run("RETURN 1 + 'a' * 2");
    await page.waitForFunction(() =>
      /cypher_type_error/.test(document.querySelector('#query-error')?.textContent ?? ''),
    );
    await run("CREATE (n:gene {name: 'x'})");
    await page.waitForFunction(() =>
      /cypher_read_only/.test(document.querySelector('#query-error')?.textContent ?? ''),
    );
    await page.screenshot({ path: testOutputPath('kb-web', 'query-error.png'), fullPage: true });
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(foreign, [], 'only the console origin is contacted');
  }),
);
