// The TCK runner: every scenario (outlines expanded by the Gherkin compiler into pickles) of every `.feature`
// file under the given folders, each on a fresh in-memory graph. Every scenario passes or fails; none is
// skipped: a step this runner does not know fails its scenario.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import {
  CypherError,
  equivalenceKey,
  MemoryGraph,
  type Procedure,
  type ProcedureField,
  type Result,
  runCypher,
  type Value,
} from '../src/index.js';
import { fromValue, parseTckValue, sameBag, sameValue, showValue, type TckValue } from './values.js';

export interface ScenarioResult {
  name: string;
  passed: boolean;
  reason?: string;
}

export interface FeatureResult {
  file: string;
  scenarios: ScenarioResult[];
}

export function featureFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    const st = statSync(d);
    if (st.isFile()) {
      if (d.endsWith('.feature')) out.push(d);
      return;
    }
    for (const n of readdirSync(d).sort()) walk(join(d, n));
  };
  for (const d of dirs) walk(resolve(d));
  return out;
}

/** The `graphs/` folder beside a given folder or one of its parents. */
export function findGraphsDir(dir: string): string | undefined {
  let d = resolve(dir);
  for (;;) {
    const g = join(d, 'graphs');
    if (existsSync(g) && statSync(g).isDirectory()) return g;
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

interface Step {
  text: string;
  doc?: string;
  table?: string[][];
}

export function parseFeature(file: string): { name: string; pickles: { name: string; steps: Step[] }[] } {
  const newId = IdGenerator.uuid();
  const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
  const doc = parser.parse(readFileSync(file, 'utf8'));
  const pickles = compile(doc, file, newId).map((p) => ({
    name: p.name,
    steps: p.steps.map((s) => ({
      text: s.text,
      doc: s.argument?.docString?.content,
      table: s.argument?.dataTable?.rows.map((r) => r.cells.map((c) => c.value)),
    })),
  }));
  return { name: doc.feature?.name ?? basename(file), pickles };
}

interface Snapshot {
  nodes: Set<number>;
  rels: Set<number>;
  labels: Set<string>;
  props: Set<string>;
}

function snapshot(g: MemoryGraph): Snapshot {
  const s: Snapshot = { nodes: new Set(), rels: new Set(), labels: new Set(), props: new Set() };
  for (const n of g.nodes) {
    s.nodes.add(n.id);
    for (const l of n.labels) s.labels.add(l);
    for (const [k, v] of Object.entries(n.properties)) s.props.add(`n${n.id}.${k}=${equivalenceKey(v)}`);
  }
  for (const r of g.relationships) {
    s.rels.add(r.id);
    for (const [k, v] of Object.entries(r.properties)) s.props.add(`r${r.id}.${k}=${equivalenceKey(v)}`);
  }
  return s;
}

function sideEffects(a: Snapshot, b: Snapshot): Record<string, number> {
  const diff = <T>(x: Set<T>, y: Set<T>) => [...y].filter((v) => !x.has(v)).length;
  return {
    '+nodes': diff(a.nodes, b.nodes),
    '-nodes': diff(b.nodes, a.nodes),
    '+relationships': diff(a.rels, b.rels),
    '-relationships': diff(b.rels, a.rels),
    '+labels': diff(a.labels, b.labels),
    '-labels': diff(b.labels, a.labels),
    '+properties': diff(a.props, b.props),
    '-properties': diff(b.props, a.props),
  };
}

class Failure extends Error {}

export function runScenario(steps: Step[], graphsDir: string | undefined): void {
  let graph = new MemoryGraph();
  let params: Record<string, Value> = {};
  const procedures = new Map<string, Procedure>();
  let result: Result | undefined;
  let error: unknown;
  let before: Snapshot | undefined;
  let after: Snapshot | undefined;
  const run = (q: string) => runCypher(graph, q, params, { procedures });
  for (const step of steps) {
    const t = step.text.trim();
    const named = /^the (.+) graph$/.exec(t);
    const proc = /^there exists a procedure ([\w.]+)\((.*?)\) :: \((.*?)\)\s*:?$/.exec(t);
    const raised = /^an? (\w+) should be raised at (compile time|runtime|any time): (\S+)$/.exec(t);
    if (t === 'an empty graph' || t === 'any graph') graph = new MemoryGraph();
    else if (named) {
      if (!graphsDir) throw new Failure(`no graphs folder for the ${named[1]} graph`);
      graph = new MemoryGraph();
      runCypher(graph, readFileSync(join(graphsDir, named[1]!, `${named[1]}.cypher`), 'utf8'));
    } else if (proc) {
      procedures.set(proc[1]!, tableProcedure(fields(proc[2]!), fields(proc[3]!), step.table ?? []));
    } else if (t === 'having executed:') run(step.doc ?? '');
    else if (t === 'parameters are:') {
      params = {};
      for (const row of step.table ?? []) params[row[0]!] = toValue(parseTckValue(row[1]!));
    } else if (t === 'executing query:' || t === 'executing control query:') {
      before = snapshot(graph);
      result = undefined;
      error = undefined;
      try {
        result = run(step.doc ?? '');
      } catch (e) {
        error = e;
      }
      after = snapshot(graph);
    } else if (
      /^the result should be(, in (any )?order)?( \(ignoring element order for lists\))?:?$/.test(t) ||
      t.startsWith('the result should be, in order (ignoring')
    ) {
      const ordered = t.includes('in order');
      const unorderedLists = t.includes('ignoring element order for lists');
      checkResult(result, error, step.table ?? [], ordered, unorderedLists);
    } else if (t === 'the result should be empty') checkResult(result, error, [], false, false);
    else if (t === 'no side effects' || t === 'the side effects should be:') {
      if (error) throw new Failure(`the query failed: ${String((error as Error).message)}`);
      const got = sideEffects(before!, after!);
      const want: Record<string, number> = {};
      for (const row of step.table ?? []) want[row[0]!.trim()] = Number(row[1]);
      for (const k of Object.keys(got)) {
        if (got[k] !== (want[k] ?? 0)) throw new Failure(`side effect ${k}: expected ${want[k] ?? 0}, got ${got[k]}`);
      }
    } else if (raised) {
      const m = raised;
      if (!error) throw new Failure(`expected ${m[1]} (${m[3]}), the query succeeded`);
      if (!(error instanceof CypherError)) throw new Failure(`expected ${m[1]}, got ${String(error)}`);
      if (error.kind !== m[1])
        throw new Failure(`expected ${m[1]}, got ${error.kind} (${error.detail}: ${error.message})`);
      const phase = m[2] === 'compile time' ? 'compile' : m[2] === 'runtime' ? 'runtime' : error.phase;
      if (error.phase !== phase) throw new Failure(`expected ${m[1]} at ${m[2]}, raised at ${error.phase}`);
    } else throw new Failure(`unknown step: ${t}`);
  }
}

/** `name :: TYPE?, …` of a procedure signature. */
function fields(text: string): ProcedureField[] {
  return text
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '')
    .map((f) => {
      const [name, type] = f.split('::').map((x) => x.trim()) as [string, string];
      return { name, type };
    });
}

/** A procedure whose rows are a table: the inputs' columns select rows, the outputs' columns are returned. */
function tableProcedure(inputs: ProcedureField[], outputs: ProcedureField[], table: string[][]): Procedure {
  const header = table[0] ?? [];
  const data = table.slice(1).map((r) => r.map((cell) => toValue(parseTckValue(cell))));
  return {
    inputs,
    outputs,
    *call(args) {
      for (const row of data) {
        const ok = inputs.every(
          (f, i) => equivalenceKey(row[header.indexOf(f.name)] ?? null) === equivalenceKey(args[i]!),
        );
        if (ok) yield outputs.map((o) => row[header.indexOf(o.name)] ?? null);
      }
    },
  };
}

function toValue(v: TckValue): Value {
  switch (v.t) {
    case 'null':
      return null;
    case 'list':
      return v.items.map(toValue);
    case 'map':
      return Object.fromEntries([...v.entries].map(([k, x]) => [k, toValue(x)]));
    case 'node':
    case 'rel':
    case 'path':
      throw new Failure('a graph element cannot be a parameter');
    default:
      return v.v;
  }
}

function checkResult(result: Result | undefined, error: unknown, table: string[][], ordered: boolean, u: boolean) {
  if (error) throw new Failure(`the query failed: ${(error as Error).message}`);
  if (!result) throw new Failure('no query was executed');
  const header = table[0] ?? [];
  const expected = table.slice(1).map((r) => r.map(parseTckValue));
  if (table.length > 0) {
    const same = header.length === result.columns.length && header.every((h) => result.columns.includes(h));
    if (!same) throw new Failure(`columns: expected ${header.join(', ')}, got ${result.columns.join(', ')}`);
  }
  const idx = header.map((h) => result.columns.indexOf(h));
  const actual = result.rows.map((r) => idx.map((i) => fromValue(r[i]!)));
  const rowEq = (a: TckValue[], b: TckValue[], uu: boolean) => a.every((x, i) => sameValue(x, b[i]!, uu));
  const ok = ordered
    ? actual.length === expected.length && actual.every((r, i) => rowEq(r, expected[i]!, u))
    : sameBag(actual, expected, u, rowEq);
  if (!ok) {
    const show = (rows: TckValue[][]) => rows.map((r) => `| ${r.map(showValue).join(' | ')} |`).join('\n');
    throw new Failure(`rows differ:\nexpected\n${show(expected)}\ngot\n${show(actual)}`);
  }
}

export function runFeatures(dirs: string[]): FeatureResult[] {
  const out: FeatureResult[] = [];
  for (const dir of dirs) {
    const graphsDir = findGraphsDir(dir);
    for (const file of featureFiles([dir])) {
      const f = parseFeature(file);
      const scenarios = f.pickles.map((p) => {
        try {
          runScenario(p.steps, graphsDir);
          return { name: p.name, passed: true };
        } catch (e) {
          return { name: p.name, passed: false, reason: e instanceof Error ? e.message : String(e) };
        }
      });
      out.push({ file: relative(process.cwd(), file), scenarios });
    }
  }
  return out;
}
