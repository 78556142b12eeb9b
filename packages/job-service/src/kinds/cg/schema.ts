// POST /v1/compounds/generate body: the seed's fields plus optional reference ligands and options, strict.
// The schema checks shapes and sizes; prepare() checks meaning (formats, ranges, SMILES) with clearer messages.
import { Type, type Static } from '@sinclair/typebox';
import { MAX_ORACLE_CALLS, STRATEGIES } from '@evident/compound-generation';

const Range = (description: string) => Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description });

export const CgConstraints = Type.Object(
  {
    mw_range: Type.Optional(Range('[low, high] average molecular weight, Da (default [200, 500]; within [0, 2000])')),
    logp_range: Type.Optional(Range('[low, high] Wildman-Crippen logP (default [-1, 5]; within [-10, 15])')),
    hbd_max: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 50, description: 'Max H-bond donors, RDKit NumHBD (default 5)' }),
    ),
    hba_max: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 50, description: 'Max H-bond acceptors, RDKit NumHBA (default 10)' }),
    ),
  },
  { additionalProperties: false },
);

export const CgOptions = Type.Object(
  {
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 4294967295,
        default: 42,
        description: 'PRNG seed: equal seeds give equal results',
      }),
    ),
    max_evaluations: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 1_000_000,
        description:
          'Evaluation budget: distinct molecules scored (default max(5000, 150 x num_molecules), at most 200000)',
      }),
    ),
    similarity_cap: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        default: 0.65,
        description: 'No two returned molecules above this Morgan (radius 2, 2048 bits) Tanimoto similarity',
      }),
    ),
    population_size: Type.Optional(
      Type.Integer({ minimum: 10, maximum: 1000, default: 100, description: 'GA population size' }),
    ),
    allow_alerts: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Keep molecules matching PAINS or unwanted-group alerts (still reported)',
      }),
    ),
    include_svg: Type.Optional(
      Type.Boolean({ default: true, description: 'Include an RDKit SVG depiction per molecule' }),
    ),
    docking: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          'Dock candidates into the target structure with AutoDock Vina (false: drug-likeness, references and a residue heuristic only)',
      }),
    ),
    docking_exhaustiveness: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 32,
        default: 8,
        description: "Vina's search exhaustiveness per docking call",
      }),
    ),
    docking_budget: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20000,
        description: 'Docking calls in all, each stereoisomer counted (default 3 x num_molecules + 30)',
      }),
    ),
    strategy: Type.Optional(
      Type.Union(
        STRATEGIES.map((s) => Type.Literal(s)),
        {
          description:
            'With scoring: the optimizer (default: the one the PMO benchmark shows best; graph_ga, mol_ga, ' +
            'surrogate_ga, random_screen; see packages/compound-generation)',
        },
      ),
    ),
    covalent_design: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Covalent design: Michael-acceptor alerts are reported but do not exclude a molecule',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CgRequest = Type.Object(
  {
    target_uniprot: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'UniProtKB accession of the target, e.g. P00533',
    }),
    binding_site: Type.Object(
      {
        residues: Type.Array(Type.String({ minLength: 1, maxLength: 10 }), {
          minItems: 1,
          maxItems: 50,
          description: 'Binding-site residues: one-letter amino-acid code plus position, e.g. K721',
        }),
      },
      { additionalProperties: false },
    ),
    constraints: Type.Optional(CgConstraints),
    num_molecules: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'Molecules to return' }),
    ),
    reference_ligands: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
        maxItems: 100,
        description: 'SMILES of known actives: similarity and novelty terms',
      }),
    ),
    structure: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40_000_000,
        description: 'Base64 of the target structure, PDB or mmCIF text (optionally gzip-compressed)',
      }),
    ),
    pdb_id: Type.Optional(
      Type.String({
        minLength: 4,
        maxLength: 12,
        description:
          'A PDB entry to use as the target structure: its id (2SRC) or its extended id (pdb_00002src, wwPDB)',
      }),
    ),
    chain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4,
        description: 'Chain of the structure (default: the chain mapped to target_uniprot)',
      }),
    ),
    pocket: Type.Optional(
      Type.Object(
        {
          center: Type.Array(Type.Number(), { minItems: 3, maxItems: 3, description: '[x, y, z], Å' }),
          size: Type.Array(Type.Number(), { minItems: 3, maxItems: 3, description: 'Box edges [x, y, z], Å' }),
        },
        {
          additionalProperties: false,
          description:
            'Docking box; default: around a co-crystallised ligand at the named residues, else around the residues',
        },
      ),
    ),
    options: Type.Optional(CgOptions),
    scoring: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'A REINVENT 4 scoring profile in its JSON form: the scoring section ({ type, component: [...] }) or a ' +
          'configuration holding one ({ scoring: {...} }). The job then optimizes molecules for it within budget ' +
          "(packages/compound-generation, 'Scoring profiles'); ExternalProcess must name a scorer registered on " +
          'the server',
      }),
    ),
    budget: Type.Optional(
      Type.Object(
        {
          max_oracle_calls: Type.Integer({
            minimum: 1,
            maximum: MAX_ORACLE_CALLS,
            description:
              "With scoring: distinct molecules that may be scored (repeats are free, as PMO counts); at most the plan's cap",
          }),
        },
        { additionalProperties: false },
      ),
    ),
    callback_url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'Notified (POST) when the job finishes' }),
    ),
  },
  { additionalProperties: false },
);
export type CgRequest = Static<typeof CgRequest>;
