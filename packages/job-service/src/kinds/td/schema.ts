// POST /v1/targets/discover body: the seed's fields, strict (no other properties).
import { Type, type Static } from '@sinclair/typebox';

/** Base64 text limits: ~300 MB of decoded matrix, 8 MB of metadata. */
export const MAX_MATRIX_BASE64 = 400_000_000;
export const MAX_METADATA_BASE64 = 8_000_000;
/** A probe annotation for a whole array (GEO platform tables run to tens of MB). */
export const MAX_ANNOTATION_BASE64 = 100_000_000;

/** User gene sets (GMT): MSigDB's whole C5 collection is ~10 MB; 32 MB of text bounds the parse. */
export const MAX_GENE_SETS_BASE64 = 44_000_000;

const Name = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

/** options.enrichment: gene-set enrichment of the fit (packages/target-discovery's enrich, issue 42). */
export const TdEnrichmentOptions = Type.Object(
  {
    methods: Type.Optional(
      Type.Array(Type.Union([Type.Literal('goana'), Type.Literal('camera'), Type.Literal('fry')]), {
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        description:
          "limma's goana (GO over-representation of the up and down genes), camera (competitive) and fry (self-contained rotation); default all three",
      }),
    ),
    collections: Type.Optional(
      Type.Array(Type.Union([Type.Literal('GO:BP'), Type.Literal('GO:CC'), Type.Literal('GO:MF')]), {
        maxItems: 3,
        uniqueItems: true,
        description:
          'GO collections shipped with the service (org.Hs.eg.db); default all three, or none when gene_sets is given',
      }),
    ),
    gene_sets: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_GENE_SETS_BASE64,
        description:
          "Base64 of user gene sets in MSigDB's GMT format (name, description, genes; tab-separated), human genes by Entrez id, symbol, alias or Ensembl id; reported under collection GMT",
      }),
    ),
    min_size: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000, default: 15, description: 'Smallest set tested (tested genes)' }),
    ),
    max_size: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000, default: 500, description: 'Largest set tested (tested genes)' }),
    ),
    inter_gene_cor: Type.Optional(
      Type.Union([Type.Number({ exclusiveMinimum: -1, exclusiveMaximum: 1 }), Type.Null()], {
        default: 0.01,
        description: "camera's inter-gene correlation (limma's default 0.01); null estimates it per set",
      }),
    ),
  },
  { additionalProperties: false },
);

export const TdOptions = Type.Object(
  {
    include_druggability: Type.Optional(
      Type.Boolean({
        default: true,
        description:
          'Tier targets (Finan et al. 2017: approved-drug target, close homologue, druggable family) with drugs, safety liability, UniProt accession and GO/Pfam evidence',
      }),
    ),
    min_fold_change: Type.Optional(
      Type.Number({
        minimum: 1,
        maximum: 1e6,
        default: 1.5,
        description: 'Linear fold change; significant genes need |log2 FC| >= log2(min_fold_change)',
      }),
    ),
    max_pvalue: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        default: 0.05,
        description: 'Significance cut-off, applied to the p-value named by pvalue_type',
      }),
    ),
    pvalue_type: Type.Optional(
      Type.Union([Type.Literal('adjusted'), Type.Literal('raw')], {
        default: 'adjusted',
        description: "'adjusted' (Benjamini-Hochberg) or 'raw'",
      }),
    ),
    covariates: Type.Optional(
      Type.Array(Name('Metadata column entering the design additively'), { maxItems: 10, uniqueItems: true }),
    ),
    feature_annotation: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_ANNOTATION_BASE64,
        description:
          'Base64 of a CSV/TSV mapping feature ids (first column, or one named id/probe_id/feature_id) to any of symbol, entrez_id, ensembl_gene_id, uniprot',
      }),
    ),
    annotation_columns: Type.Optional(
      Type.Array(Name('Expression-matrix column holding gene identifiers (not a sample)'), {
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
      }),
    ),
    collapse: Type.Optional(
      Type.Union([Type.Literal('max_mean'), Type.Literal('none')], {
        default: 'max_mean',
        description:
          "Several features of one gene: 'max_mean' tests the one with the largest mean expression, 'none' tests all",
      }),
    ),
    method: Type.Optional(
      Type.Union(
        [
          Type.Literal('auto'),
          Type.Literal('limma'),
          Type.Literal('limma-trend'),
          Type.Literal('voom'),
          Type.Literal('deseq2'),
          Type.Literal('edger-ql'),
        ],
        {
          default: 'auto',
          description:
            "Differential-expression method: 'auto' (by data type: counts → voom, log-scale → limma, TPM/FPKM → limma-trend), or one by name; 'deseq2', 'edger-ql' and 'voom' need raw counts",
        },
      ),
    ),
    enrichment: Type.Optional(TdEnrichmentOptions),
  },
  { additionalProperties: false },
);

export const TdRequest = Type.Object(
  {
    expression_matrix: Type.String({
      minLength: 1,
      maxLength: MAX_MATRIX_BASE64,
      description: 'Base64 of a CSV/TSV: feature ids in the first column, one column per sample (or transposed)',
    }),
    metadata: Type.String({
      minLength: 1,
      maxLength: MAX_METADATA_BASE64,
      description:
        'Base64 of a CSV/TSV: a sample id column (first, or named sample/sample_id) and the condition column',
    }),
    condition_column: Name('Metadata column holding the condition'),
    case_value: Name('Condition value of the case group'),
    control_value: Name('Condition value of the control group'),
    options: Type.Optional(TdOptions),
    callback_url: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'Notified (POST) when the job finishes' }),
    ),
  },
  { additionalProperties: false },
);
export type TdRequest = Static<typeof TdRequest>;
