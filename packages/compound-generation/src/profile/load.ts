// Loading a scoring profile: REINVENT 4's scoring section (reinvent/scoring/config.py, validation.py) checked
// in full, with every problem reported at once by its JSON pointer, then built into a Profile.
import { loadRDKit, parseSmiles, type Mol } from '../rdkit.js';
import { smilesBoundsProblem } from '../smiles-bounds.js';
import type { DockingPort } from '../target/port.js';
import { AGGREGATION_ALIASES, AGGREGATIONS, type Aggregation } from './aggregate.js';
import { COMPONENT_NAMES, findComponent } from './components/registry.js';
import type { BuildContext, ExternalProcessSettings } from './components/types.js';
import { findScoringSection, readDocument, type ProfileFormat } from './document.js';
import { InvalidProfileError } from './errors.js';
import { runProcess, type ProcessRunner } from './external/run-process.js';
import { at, isRecord, ParamReader, type Problems, shown } from './params.js';
import { type BuiltComponent, Profile, type ScoringProfile } from './profile.js';
import { buildTransform } from './transforms.js';

export interface ExternalProcessOptions {
  /** Runs the scorer (default: a child process, ./external/run-process.ts). */
  runner?: ProcessRunner;
  /** Per run (one batch); default 300,000 ms. */
  timeoutMs?: number;
  /** stdout beyond this fails the run; default 16 MiB. */
  maxOutputBytes?: number;
  /** A relative `executable` is resolved against this directory (default: the working directory). */
  cwd?: string;
  /**
   * Decides what runs for a profile's `executable` and `args` (e.g. only a service's registered scorers):
   * returns the command, or a message saying why not (the profile is then refused).
   */
  resolve?: (executable: string, args: string) => { executable: string; args: readonly string[] } | string;
}

export interface ProfileLoadOptions {
  /** 'toml' or 'json'; by default JSON when the text starts with '{', else TOML. */
  format?: ProfileFormat;
  /** A name for the profile in messages (a file name). */
  source?: string;
  /** Which stage's scoring of a staged-learning file (from 0); needed when it has more than one. */
  stage?: number;
  /** Reads the file a `filename` key names (REINVENT's separate component file); without it, `filename` is refused. */
  readFile?: (name: string) => string;
  /** The docking engine VinaDocking uses; a profile with VinaDocking is refused without one. */
  docking?: DockingPort;
  /**
   * ExternalProcess settings, or false to refuse profiles that run a command (where profiles come from people
   * who may not run programs on this machine, such as an HTTP API). Default: allowed, with the defaults above.
   */
  externalProcess?: false | ExternalProcessOptions;
}

const SECTION_KEYS = ['type', 'component', 'parallel', 'use_pumas', 'filename', 'filetype'];
const ENDPOINT_KEYS = ['name', 'weight', 'params', 'transform'];

/** Parses a REINVENT 4 scoring configuration (TOML, or its JSON form) into a profile; InvalidProfileError if refused. */
export async function parseScoringProfile(text: string, options: ProfileLoadOptions = {}): Promise<ScoringProfile> {
  if (typeof text !== 'string') {
    throw new InvalidProfileError([{ path: '', message: 'the profile must be text (TOML or JSON)' }], options.source);
  }
  return loadScoringProfile(readDocument(text, options.format, options.source), options);
}

/** Loads a profile from its object form (parsed TOML or JSON, e.g. a request's `scoring`). */
export async function loadScoringProfile(doc: unknown, options: ProfileLoadOptions = {}): Promise<ScoringProfile> {
  const source = options.source;
  if (!isRecord(doc)) throw new InvalidProfileError([{ path: '', message: 'must be a table (a JSON object)' }], source);
  const found = findScoringSection(doc, options.stage);
  if (typeof found === 'string') {
    const [path, message] = found.startsWith('/') ? splitPointer(found) : ['', found];
    throw new InvalidProfileError([{ path, message }], source);
  }
  let { section } = found;
  const base = found.path;
  const problems: Problems = [];

  for (const key of Object.keys(section)) {
    if (found.path === '' && key !== 'component' && !SECTION_KEYS.includes(key)) continue;
    if (!SECTION_KEYS.includes(key)) {
      problems.push({
        path: at(base, key),
        message: `unknown key "${key}" (a scoring section has ${SECTION_KEYS.join(', ')})`,
      });
    }
  }
  if (section.filename !== undefined) section = { ...section, ...includeFile(section, base, options, problems) };
  if (section.use_pumas !== undefined && section.use_pumas !== false) {
    problems.push({ path: at(base, 'use_pumas'), message: "PUMAS transforms are not supported (use REINVENT's own)" });
  }
  if (section.parallel !== undefined) {
    const p = section.parallel;
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > 40) {
      problems.push({ path: at(base, 'parallel'), message: `must be a whole number from 1 to 40 (got ${shown(p)})` });
    }
  }
  const aggregation = readAggregation(section.type, at(base, 'type'), problems);

  const rd = await loadRDKit();
  const queries: Mol[] = [];
  const built: BuiltComponent[] = [];
  const externalProcess = externalSettings(options.externalProcess);
  const components = section.component;
  if (!Array.isArray(components) || components.length === 0) {
    problems.push({
      path: at(base, 'component'),
      message: 'at least one component is required ([[component]] entries)',
    });
  } else {
    components.forEach((entry, i) => {
      const c = buildComponent(entry, at(base, 'component', i), {
        rd,
        problems,
        path: at(base, 'component', i),
        docking: options.docking,
        externalProcess,
        smarts: (text, path) => {
          let q: Mol | null = null;
          try {
            q = rd.get_qmol(text);
          } catch {
            q = null;
          }
          if (!q?.is_valid()) {
            q?.delete();
            problems.push({ path, message: `not a valid SMARTS: ${shown(text)}` });
            return undefined;
          }
          queries.push(q);
          return q;
        },
        molecule: (smiles, path) => {
          const bound = smilesBoundsProblem(smiles);
          const mol = bound === undefined ? parseSmiles(rd, smiles) : null;
          if (!mol)
            problems.push({ path, message: `not a valid SMILES: ${shown(smiles)}${bound ? ` (${bound})` : ''}` });
          return mol ?? undefined;
        },
      });
      if (c) built.push(c);
    });
  }
  uniqueNames(built);
  const scoring = built.filter((c) => c.role === 'score').flatMap((c) => c.endpoints);
  if (scoring.length > 0 && scoring.every((e) => e.weight === 0)) {
    problems.push({
      path: at(base, 'component'),
      message: 'the weights of the scoring endpoints are all zero: at least one must be positive',
    });
  }
  if (problems.length > 0) {
    for (const q of queries) q.delete();
    throw new InvalidProfileError(problems, source);
  }
  return new Profile(rd, aggregation, built, queries, source);
}

function splitPointer(text: string): [string, string] {
  const i = text.indexOf(': ');
  return i < 0 ? ['', text] : [text.slice(0, i), text.slice(i + 2)];
}

function readAggregation(type: unknown, path: string, problems: Problems): Aggregation {
  const names = [...AGGREGATIONS, ...Object.keys(AGGREGATION_ALIASES)];
  if (type === undefined) {
    problems.push({ path, message: `an aggregation type is required (${names.join(', ')})` });
    return 'geometric_mean';
  }
  const t = typeof type === 'string' ? type.toLowerCase() : '';
  const kind = (AGGREGATIONS as readonly string[]).includes(t) ? (t as Aggregation) : AGGREGATION_ALIASES[t];
  if (!kind) {
    problems.push({ path, message: `unknown aggregation ${shown(type)} (supported: ${names.join(', ')})` });
    return 'geometric_mean';
  }
  return kind;
}

/** REINVENT's `filename`: the components come from another file, whose keys are merged over the section's. */
function includeFile(
  section: Record<string, unknown>,
  base: string,
  options: ProfileLoadOptions,
  problems: Problems,
): Record<string, unknown> {
  const name = section.filename;
  const path = at(base, 'filename');
  if (typeof name !== 'string' || !name) {
    problems.push({ path, message: 'must be the name of a component file' });
    return {};
  }
  if (!options.readFile) {
    problems.push({
      path,
      message: `a separate component file (${name}) cannot be read here: put its components in this file`,
    });
    return {};
  }
  let text: string;
  try {
    text = options.readFile(name);
  } catch (e) {
    problems.push({ path, message: `cannot read ${name}: ${(e as Error).message}` });
    return {};
  }
  const filetype = section.filetype;
  const format: ProfileFormat | undefined = /\.json$/i.test(name)
    ? 'json'
    : /\.toml$/i.test(name)
      ? 'toml'
      : filetype === 'json'
        ? 'json'
        : 'toml';
  try {
    const doc = readDocument(text, format, name);
    const { filename: _f, filetype: _t, ...rest } = doc;
    return rest;
  } catch (e) {
    for (const p of (e as InvalidProfileError).problems ?? [])
      problems.push({ path, message: `${name}: ${p.message}` });
    return {};
  }
}

function externalSettings(o: ProfileLoadOptions['externalProcess']): ExternalProcessSettings | false {
  if (o === false) return false;
  return {
    runner: o?.runner ?? runProcess,
    timeoutMs: o?.timeoutMs ?? 300_000,
    maxOutputBytes: o?.maxOutputBytes ?? 16 * 1024 * 1024,
    cwd: o?.cwd ?? process.cwd(),
    resolve: o?.resolve,
  };
}

function buildComponent(entry: unknown, path: string, ctx: BuildContext): BuiltComponent | undefined {
  const { problems } = ctx;
  if (!isRecord(entry) || Object.keys(entry).length !== 1) {
    problems.push({ path, message: 'each component entry must hold exactly one component, e.g. [component.QED]' });
    return undefined;
  }
  const [name, body] = Object.entries(entry)[0]!;
  const cpath = at(path, name);
  const def = findComponent(name);
  if (!def) {
    problems.push({
      path: cpath,
      message: `unknown or unsupported component "${name}" (supported: ${COMPONENT_NAMES.join(', ')})`,
    });
    return undefined;
  }
  if (!isRecord(body)) {
    problems.push({ path: cpath, message: 'must be a table with an endpoint list' });
    return undefined;
  }
  for (const key of Object.keys(body)) {
    if (key !== 'endpoint' && key !== 'params') {
      problems.push({ path: at(cpath, key), message: `unknown key "${key}" (a component has endpoint and params)` });
    }
  }
  const shared = body.params;
  if (shared !== undefined && !isRecord(shared))
    problems.push({ path: at(cpath, 'params'), message: 'must be a table' });
  const endpoints = body.endpoint;
  if (!Array.isArray(endpoints) || endpoints.length === 0) {
    problems.push({ path: at(cpath, 'endpoint'), message: 'at least one endpoint is required ([[...endpoint]])' });
    return undefined;
  }
  const readers: ParamReader[] = [];
  const infos: BuiltComponent['endpoints'] = [];
  endpoints.forEach((ep, j) => {
    const epath = at(cpath, 'endpoint', j);
    if (!isRecord(ep)) {
      problems.push({ path: epath, message: 'must be a table' });
      return;
    }
    for (const key of Object.keys(ep)) {
      if (!ENDPOINT_KEYS.includes(key)) {
        problems.push({
          path: at(epath, key),
          message: `unknown key "${key}" (an endpoint has ${ENDPOINT_KEYS.join(', ')})`,
        });
      }
    }
    const values = new Map<string, { value: unknown; path: string }>();
    if (isRecord(shared))
      for (const [k, v] of Object.entries(shared)) values.set(k, { value: v, path: at(cpath, 'params', k) });
    if (ep.params !== undefined && !isRecord(ep.params))
      problems.push({ path: at(epath, 'params'), message: 'must be a table' });
    if (isRecord(ep.params))
      for (const [k, v] of Object.entries(ep.params)) values.set(k, { value: v, path: at(epath, 'params', k) });
    readers.push(new ParamReader(values, problems, at(epath, 'params')));

    const epName = ep.name === undefined ? def.name : ep.name;
    if (typeof epName !== 'string' || !epName.trim())
      problems.push({ path: at(epath, 'name'), message: 'must be a non-empty string' });
    const weight = ep.weight === undefined ? 1 : ep.weight;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      problems.push({ path: at(epath, 'weight'), message: `must be a number at least 0 (got ${shown(weight)})` });
    }
    let transform: ReturnType<typeof buildTransform>;
    if (ep.transform !== undefined) {
      if (!isRecord(ep.transform)) problems.push({ path: at(epath, 'transform'), message: 'must be a table' });
      else transform = buildTransform(ep.transform, at(epath, 'transform'), problems);
    }
    infos.push({
      name: typeof epName === 'string' ? epName : def.name,
      weight: typeof weight === 'number' && weight >= 0 ? weight : 0,
      transform: transform?.transform ?? null,
      transformType: transform?.type ?? null,
    });
  });
  if (readers.length !== endpoints.length) return undefined;
  const impl = def.build(readers, { ...ctx, path: cpath });
  return { impl, component: def.name, role: def.role, endpoints: infos };
}

function uniqueNames(components: BuiltComponent[]): void {
  const seen = new Map<string, number>();
  for (const c of components) {
    for (const e of c.endpoints) {
      const n = (seen.get(e.name) ?? 0) + 1;
      seen.set(e.name, n);
      if (n > 1) e.name = `${e.name} (${n})`;
    }
  }
}
