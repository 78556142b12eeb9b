// The `bio` vocabulary shipped with the library: entity types, predicate classes, predicates with
// subject/object type constraints, and common synonyms (gene symbols' aliases, brand names of drugs,
// disease abbreviations). Synonyms map to the canonical name that becomes the entity id.
import type { PredicateComposition, Vocabulary } from '../model/registry.js';

export type { PredicateComposition };

const GENE_LIKE = ['gene', 'protein'];
const CHEMICAL = ['drug', 'compound'];
const MOLECULAR = ['gene', 'protein', 'drug', 'compound', 'variant'];
/** What a differential-expression study compares against its control. */
const COMPARED = ['condition', 'disease', 'phenotype'];

// ---- reasoning tables (packages/kb/README.md, "Reasoning over evidence") ------------------------------
// bio declares them as its opposite_predicates and predicate_compositions; reasoning takes a base's tables
// from its registry (src/reasoning/rules.ts), bio's applying to every base. Data rather than code so that a
// scientist can read, check and extend them. Predicate names are the normalised tokens claims are indexed
// under (lower case, underscores).

/**
 * Pairs of predicates that contradict each other when asserted for the same subject and object, in the same
 * direction (consensus, sourceReliability, testHypothesis). Besides these, `not_<p>` contradicts `<p>` for any p.
 */
export const OPPOSITE_PREDICATES: readonly (readonly [string, string])[] = [
  ['activates', 'inhibits'],
  ['upregulates', 'downregulates'],
  ['increases', 'decreases'],
  ['agonist_of', 'antagonist_of'],
  ['treats', 'causes'],
  ['treats', 'contraindicated_for'],
  ['positively_correlated_with', 'negatively_correlated_with'],
];

/**
 * Two-hop compositions for predict and testHypothesis (PredicateComposition: `X first M` and `M second Y`
 * suggest `X infers Y`).
 */

export const PREDICATE_COMPOSITIONS: readonly PredicateComposition[] = [
  { first: 'inhibits', second: 'associated_with', infers: 'may_treat', stated_by: ['treats', 'may_treat'] },
  { first: 'inhibits', second: 'causes', infers: 'may_treat', stated_by: ['treats', 'may_treat'] },
  { first: 'downregulates', second: 'associated_with', infers: 'may_treat', stated_by: ['treats', 'may_treat'] },
  { first: 'activates', second: 'associated_with', infers: 'may_cause', stated_by: ['causes', 'may_cause'] },
  { first: 'activates', second: 'causes', infers: 'may_cause', stated_by: ['causes', 'may_cause'] },
  { first: 'upregulates', second: 'associated_with', infers: 'may_cause', stated_by: ['causes', 'may_cause'] },
  { first: 'treats', second: 'has_phenotype', infers: 'may_treat', stated_by: ['treats', 'may_treat'] },
  { first: 'targets', second: 'associated_with', infers: 'may_affect', stated_by: ['treats', 'causes', 'may_affect'] },
  { first: 'inhibits', second: 'participates_in', infers: 'may_inhibit', stated_by: ['inhibits', 'may_inhibit'] },
  { first: 'activates', second: 'participates_in', infers: 'may_activate', stated_by: ['activates', 'may_activate'] },
];

export const bio: Vocabulary = {
  description: 'Biomedical entities and relationships for drug discovery',
  entity_types: [
    'gene',
    'protein',
    'disease',
    'drug',
    'compound',
    'pathway',
    'cell_type',
    'tissue',
    'variant',
    'phenotype',
    'side_effect',
    'biological_process',
    'molecular_function',
    'cellular_component',
    'anatomy',
    'organism',
    'biomarker',
    'assay',
    'clinical_trial',
    'cell_line',
    // A condition or sample group a study compares ('tumor' against 'normal', 'treated' against 'vehicle'), as
    // its design names it: not necessarily a disease or a phenotype.
    'condition',
  ],
  predicate_classes: [
    'genetic',
    'molecular',
    'pharmacology',
    'clinical',
    'association',
    'expression',
    'regulation',
    'pathway',
    'ontology',
    'experimental',
  ],
  predicates: {
    encodes: { class: 'genetic', subject_types: ['gene'], object_types: ['protein'] },
    variant_of: { class: 'genetic', subject_types: ['variant'], object_types: ['gene'] },
    associated_with: {
      class: 'association',
      subject_types: [...MOLECULAR, 'pathway', 'phenotype', 'biomarker', 'cell_type', 'tissue'],
      object_types: ['disease', 'phenotype', 'side_effect'],
    },
    causes: {
      class: 'association',
      subject_types: [...MOLECULAR, 'disease'],
      object_types: ['disease', 'phenotype', 'side_effect'],
    },
    biomarker_for: {
      class: 'clinical',
      subject_types: [...MOLECULAR, 'biomarker', 'phenotype'],
      object_types: ['disease'],
    },
    treats: { class: 'pharmacology', subject_types: CHEMICAL, object_types: ['disease', 'phenotype'] },
    contraindicated_for: { class: 'clinical', subject_types: CHEMICAL, object_types: ['disease', 'phenotype'] },
    has_side_effect: { class: 'clinical', subject_types: CHEMICAL, object_types: ['side_effect', 'phenotype'] },
    targets: { class: 'pharmacology', subject_types: CHEMICAL, object_types: GENE_LIKE },
    inhibits: {
      class: 'pharmacology',
      subject_types: [...CHEMICAL, ...GENE_LIKE],
      object_types: [...GENE_LIKE, 'pathway', 'biological_process'],
    },
    activates: {
      class: 'pharmacology',
      subject_types: [...CHEMICAL, ...GENE_LIKE],
      object_types: [...GENE_LIKE, 'pathway', 'biological_process'],
    },
    binds: {
      class: 'molecular',
      subject_types: [...CHEMICAL, ...GENE_LIKE],
      object_types: [...GENE_LIKE, ...CHEMICAL],
    },
    metabolized_by: { class: 'pharmacology', subject_types: CHEMICAL, object_types: GENE_LIKE },
    interacts_with: {
      class: 'molecular',
      subject_types: [...GENE_LIKE, ...CHEMICAL],
      object_types: [...GENE_LIKE, ...CHEMICAL],
    },
    upregulates: { class: 'regulation', subject_types: MOLECULAR, object_types: GENE_LIKE },
    downregulates: { class: 'regulation', subject_types: MOLECULAR, object_types: GENE_LIKE },
    expressed_in: {
      class: 'expression',
      subject_types: GENE_LIKE,
      object_types: ['tissue', 'cell_type', 'anatomy', 'cell_line'],
    },
    participates_in: {
      class: 'pathway',
      subject_types: [...GENE_LIKE, ...CHEMICAL],
      object_types: ['pathway', 'biological_process'],
    },
    located_in: {
      class: 'molecular',
      subject_types: ['protein'],
      object_types: ['cellular_component', 'tissue', 'cell_type'],
    },
    has_function: { class: 'ontology', subject_types: GENE_LIKE, object_types: ['molecular_function'] },
    has_phenotype: { class: 'clinical', subject_types: ['disease', 'variant', 'gene'], object_types: ['phenotype'] },
    subtype_of: {
      class: 'ontology',
      subject_types: ['disease', 'cell_type', 'phenotype'],
      object_types: ['disease', 'cell_type', 'phenotype'],
    },
    part_of: { class: 'ontology' },
    similar_to: { class: 'association' },
    tested_in: {
      class: 'experimental',
      subject_types: CHEMICAL,
      object_types: ['clinical_trial', 'assay', 'cell_line'],
    },
    // Differential expression: the gene's expression is higher (lower) in the condition than in its control.
    upregulated_in: { class: 'expression', subject_types: GENE_LIKE, object_types: COMPARED },
    downregulated_in: { class: 'expression', subject_types: GENE_LIKE, object_types: COMPARED },
    // Generative design: the molecule was designed against the target; docking then predicts it binds.
    designed_for: { class: 'pharmacology', subject_types: CHEMICAL, object_types: GENE_LIKE },
    predicted_to_bind: { class: 'molecular', subject_types: CHEMICAL, object_types: GENE_LIKE },
  },
  // A gene symbol names the gene and its product alike: `['PARP1', 'gene']` and `['PARP1', 'protein']` are one
  // entity, so their claims corroborate each other and queries, paths and predictions see one target.
  unified_types: [['gene', 'protein']],
  opposite_predicates: OPPOSITE_PREDICATES,
  predicate_compositions: PREDICATE_COMPOSITIONS,
  synonyms: {
    // Gene symbols name the gene and its product alike, hence '*'.
    '*': {
      TP53: ['p53', 'tumor protein p53', 'LFS1'],
      BRCA1: ['breast cancer 1', 'RNF53', 'BRCC1'],
      BRCA2: ['breast cancer 2', 'FANCD1'],
      ERBB2: ['HER2', 'HER-2', 'NEU', 'HER2/neu', 'CD340'],
      EGFR: ['ERBB1', 'HER1', 'ERBB'],
      KRAS: ['Ki-Ras', 'KRAS2', 'K-ras'],
      PTGS2: ['COX-2', 'COX2', 'cyclooxygenase-2'],
      PTGS1: ['COX-1', 'COX1', 'cyclooxygenase-1'],
      TNF: ['TNF-alpha', 'TNFA', 'TNFSF2'],
      VEGFA: ['VEGF', 'VEGF-A'],
      CDKN2A: ['p16', 'p16INK4a', 'INK4A'],
      MTOR: ['FRAP1', 'FRAP'],
      ESR1: ['ER-alpha', 'ERalpha', 'estrogen receptor alpha'],
      ABL1: ['c-ABL', 'ABL'],
      BCR: ['breakpoint cluster region'],
      PIK3CA: ['p110alpha', 'PI3K-alpha'],
      CD274: ['PD-L1', 'B7-H1', 'PDL1'],
      PDCD1: ['PD-1', 'PD1', 'CD279'],
      APP: ['amyloid precursor protein'],
      MAPT: ['tau'],
      INS: ['insulin'],
      IL6: ['interleukin-6', 'IL-6'],
    },
    drug: {
      trastuzumab: ['Herceptin'],
      imatinib: ['Gleevec', 'Glivec', 'STI-571', 'STI571'],
      aspirin: ['acetylsalicylic acid', 'ASA'],
      acetaminophen: ['paracetamol', 'Tylenol', 'APAP'],
      ibuprofen: ['Advil', 'Motrin'],
      metformin: ['Glucophage'],
      atorvastatin: ['Lipitor'],
      tamoxifen: ['Nolvadex'],
      gefitinib: ['Iressa'],
      erlotinib: ['Tarceva'],
      olaparib: ['Lynparza'],
      pembrolizumab: ['Keytruda', 'MK-3475'],
      nivolumab: ['Opdivo'],
      bevacizumab: ['Avastin'],
      rituximab: ['Rituxan', 'MabThera'],
      sildenafil: ['Viagra', 'Revatio'],
      warfarin: ['Coumadin'],
      celecoxib: ['Celebrex'],
    },
    disease: {
      'breast cancer': ['breast carcinoma', 'mammary carcinoma', 'breast neoplasm', 'malignant neoplasm of breast'],
      'type 2 diabetes mellitus': ['type 2 diabetes', 'T2D', 'T2DM', 'NIDDM', 'diabetes mellitus type 2'],
      'type 1 diabetes mellitus': ['type 1 diabetes', 'T1D', 'T1DM', 'IDDM'],
      'alzheimer disease': ["alzheimer's disease", 'alzheimers disease'],
      'parkinson disease': ["parkinson's disease", 'parkinsons disease'],
      'non-small cell lung cancer': ['NSCLC', 'non-small cell lung carcinoma', 'non small cell lung cancer'],
      'chronic myeloid leukemia': ['CML', 'chronic myelogenous leukemia', 'chronic myeloid leukaemia'],
      'myocardial infarction': ['heart attack'],
      hypertension: ['high blood pressure', 'HTN'],
      'rheumatoid arthritis': ['RA'],
      'colorectal cancer': ['CRC', 'colorectal carcinoma'],
      'hepatocellular carcinoma': ['HCC', 'liver cell carcinoma'],
    },
  },
};
