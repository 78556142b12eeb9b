// A cg request with `scoring` (issue 38, point 5): the optimizer on a REINVENT 4 scoring profile within an oracle
// budget, instead of the seed's built-in objective. The seed's fields keep their meaning: target_uniprot and
// binding_site are checked and echoed, and the constraints the request gives become hard filters (a molecule
// outside them is never scored and costs no call).
import {
  analyseSmiles,
  callLogCsv,
  InvalidProfileError,
  loadRDKit,
  loadScoringProfile,
  optimize,
  STRATEGIES,
  validateRequest,
  type Constraints,
  type EndpointInfo,
  type OracleCall,
  type OptimizeFigures,
  type StrategyName,
} from '@evident/compound-generation';
import { InvalidParametersError } from '@evident/contract';
import type { JobRunContext, PrepareContext } from '../job-kind.js';
import { registeredScorersOption } from './external-scorers.js';
import type { CgRequest } from './schema.js';

/** What a job with `scoring` stores: everything its run needs, checked. */
export interface CgScoringInput {
  mode: 'scoring';
  target_uniprot: string;
  residues: string[];
  /** The request's profile as given (JSON form of a REINVENT 4 scoring section or configuration). */
  scoring: Record<string, unknown>;
  budget: { max_oracle_calls: number };
  strategy: StrategyName;
  seed: number;
  /** Molecules returned (the request's num_molecules). */
  num_molecules: number;
  /** Only the constraints the request gave: each is a hard filter. */
  constraints: Partial<Constraints>;
}

export interface CgScoringMolecule {
  rank: number;
  smiles: string;
  score: number;
  /** The oracle call that scored it. */
  call: number;
  components: OracleCall['components'];
}

export interface CgScoringResult extends OptimizeFigures {
  mode: 'scoring';
  target: { uniprot: string; residues: string[] };
  elapsed_ms: number;
  constraints: Partial<Constraints>;
  endpoints: EndpointInfo[];
  molecules: CgScoringMolecule[];
  /** Every oracle call in order (also as CSV: ?format=calls.csv). */
  calls: OracleCall[];
}

/** Fields of the seed's request that mean nothing when a profile is the objective: refused, not ignored. */
const NOT_WITH_SCORING: Record<string, string> = {
  reference_ligands: 'use a TanimotoSimilarity component in scoring for similarity to known actives',
  structure: 'docking is not available as a scoring component over the API',
  pdb_id: 'docking is not available as a scoring component over the API',
  chain: 'docking is not available as a scoring component over the API',
  pocket: 'docking is not available as a scoring component over the API',
};
const OPTIONS_WITH_SCORING = new Set(['seed', 'strategy']);

export const isScoringRequest = (req: CgRequest) =>
  req.scoring !== undefined || req.budget !== undefined || req.options?.strategy !== undefined;

/** The profile's problems, located in the request (`/scoring/...`). */
function profileProblems(e: InvalidProfileError) {
  return e.problems.map((p) => ({ path: `/scoring${p.path}`, message: p.message }));
}

export async function prepareScoring(req: CgRequest, ctx: PrepareContext | undefined): Promise<CgScoringInput> {
  const problems: Array<{ path: string; message: string }> = [];
  if (req.scoring === undefined) {
    problems.push({
      path: '/scoring',
      message: 'required with budget or options.strategy: a REINVENT 4 scoring profile',
    });
  }
  if (req.budget === undefined) {
    problems.push({ path: '/budget', message: 'required with scoring: { "max_oracle_calls": N }' });
  }
  for (const [field, why] of Object.entries(NOT_WITH_SCORING)) {
    if ((req as Record<string, unknown>)[field] !== undefined) {
      problems.push({ path: `/${field}`, message: `not used with scoring (${why})` });
    }
  }
  for (const key of Object.keys(req.options ?? {})) {
    if (!OPTIONS_WITH_SCORING.has(key)) {
      problems.push({ path: `/options/${key}`, message: 'not used with scoring (options: seed, strategy)' });
    }
  }
  const budget = req.budget?.max_oracle_calls;
  const cap = ctx?.limits?.max_oracle_calls;
  if (budget !== undefined && cap !== undefined && budget > cap) {
    problems.push({
      path: '/budget/max_oracle_calls',
      message: `${budget} is above your plan's cap of ${cap} oracle calls`,
    });
  }
  if (problems.length) throw new InvalidParametersError(problems);

  // The seed's fields, checked as the seed checks them.
  const { scoring, budget: _b, options, ...seedFields } = req;
  const { strategy = 'default', ...seedOptions } = options ?? {};
  const seedInput = await validateRequest({ ...seedFields, options: seedOptions });
  const given = (req.constraints ?? {}) as Partial<Constraints>;
  const constraints: Partial<Constraints> = {};
  for (const k of Object.keys(given) as Array<keyof Constraints>) {
    (constraints as Record<string, unknown>)[k] = seedInput.constraints[k];
  }

  // The profile is loaded here to refuse it at submission, with every problem; the run loads it again.
  try {
    const profile = await loadScoringProfile(scoring, {
      source: 'scoring',
      externalProcess: registeredScorersOption(ctx?.settings?.externalScorers),
    });
    profile.dispose();
  } catch (e) {
    if (e instanceof InvalidProfileError) throw new InvalidParametersError(profileProblems(e));
    throw e;
  }
  return {
    mode: 'scoring',
    target_uniprot: seedInput.target_uniprot,
    residues: seedInput.residues,
    scoring: scoring as Record<string, unknown>,
    budget: { max_oracle_calls: budget! },
    strategy: strategy as StrategyName,
    seed: seedInput.options.seed,
    num_molecules: seedInput.num_molecules,
    constraints,
  };
}

/** The constraints as a filter on canonical SMILES (the optimizer's hook: refused molecules cost no call). */
async function constraintFilter(c: Partial<Constraints>): Promise<((smiles: string) => boolean) | undefined> {
  if (Object.keys(c).length === 0) return undefined;
  const rd = await loadRDKit();
  return (smiles) => {
    let p: ReturnType<typeof analyseSmiles>['properties'];
    try {
      p = analyseSmiles(rd, smiles).properties;
    } catch {
      return false;
    }
    if (c.mw_range && (p.mw < c.mw_range[0] || p.mw > c.mw_range[1])) return false;
    if (c.logp_range && (p.logp < c.logp_range[0] || p.logp > c.logp_range[1])) return false;
    if (c.hbd_max !== undefined && p.hbd > c.hbd_max) return false;
    if (c.hba_max !== undefined && p.hba > c.hba_max) return false;
    return true;
  };
}

export async function runScoring(input: CgScoringInput, ctx: JobRunContext): Promise<CgScoringResult> {
  ctx.progress('loading the scoring profile', 0);
  const profile = await loadScoringProfile(input.scoring, {
    source: 'scoring',
    externalProcess: registeredScorersOption(ctx.settings?.externalScorers),
  });
  try {
    const filter = await constraintFilter(input.constraints);
    const r = await optimize({
      profile,
      budget: input.budget,
      seed: input.seed,
      strategy: input.strategy,
      top_n: input.num_molecules,
      signal: ctx.signal,
      ...(filter ? { filter } : {}),
      onProgress: (p) => ctx.progress('optimizing', Math.floor((p.calls_used / p.max_oracle_calls) * 100)),
    });
    return {
      mode: 'scoring',
      target: { uniprot: input.target_uniprot, residues: input.residues },
      strategy: r.strategy,
      seed: r.seed,
      max_oracle_calls: r.max_oracle_calls,
      calls_used: r.calls_used,
      stop_reason: r.stop_reason,
      auc_top1: r.auc_top1,
      auc_top10: r.auc_top10,
      auc_top100: r.auc_top100,
      top1: r.top1,
      top10_mean: r.top10_mean,
      top100_mean: r.top100_mean,
      elapsed_ms: r.elapsed_ms,
      constraints: input.constraints,
      endpoints: r.endpoints,
      molecules: r.top.map((m, i) => ({
        rank: i + 1,
        smiles: m.smiles,
        score: m.score,
        call: m.call,
        components: r.calls[m.call - 1]?.components ?? [],
      })),
      calls: r.calls,
    };
  } finally {
    profile.dispose();
  }
}

const csvField = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The main table: rank, SMILES, score, call, then each endpoint's value and raw value. */
export function scoringToCsv(result: CgScoringResult): string {
  const names = result.endpoints.map((e) => e.name);
  const rows = [['rank', 'smiles', 'score', 'call', ...names.flatMap((n) => [n, `${n} (raw)`])]];
  for (const m of result.molecules) {
    const byName = new Map(m.components.map((e) => [e.name, e]));
    rows.push([
      String(m.rank),
      m.smiles,
      String(m.score),
      String(m.call),
      ...names.flatMap((n) => [String(byName.get(n)?.value ?? ''), String(byName.get(n)?.raw ?? '')]),
    ]);
  }
  return `${rows.map((r) => r.map(csvField).join(',')).join('\n')}\n`;
}

export const scoringCallLog = (result: CgScoringResult) => callLogCsv(result.endpoints, result.calls);

export const isScoringResult = (r: unknown): r is CgScoringResult =>
  typeof r === 'object' && r !== null && (r as { mode?: unknown }).mode === 'scoring';

export { STRATEGIES };
