// POST /v1/compounds/generate body: the seed's fields plus optional reference ligands and options, strict.
// The schema checks shapes and sizes; prepare() checks meaning (formats, ranges, SMILES) with clearer messages.
import { Type, type Static } from '@sinclair/typebox';

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
    options: Type.Optional(CgOptions),
    callback_url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'Notified (POST) when the job finishes' }),
    ),
  },
  { additionalProperties: false },
);
export type CgRequest = Static<typeof CgRequest>;
