// Published PMO AUC top-10 means at 10,000 calls for the 20 RDKit tasks, as printed in f-RAG's Table 1 (Lee et al.,
// NeurIPS 2024, arXiv 2411.12078), which takes Graph GA and REINVENT from the PMO paper (Gao et al., NeurIPS 2022)
// and Mol GA from Tripp and Hernández-Lobato (2023). Other papers' figures, kept here so that the bench can count the
// tasks a run is ahead on; none of this package's own results are in this file.
export const PUBLISHED_METHODS = ['graph_ga_pmo', 'reinvent_pmo', 'mol_ga'] as const;
export type PublishedMethod = (typeof PUBLISHED_METHODS)[number];

// task: [Graph GA (PMO), REINVENT (PMO), Mol GA]
const TABLE: Record<string, [number, number, number]> = {
  albuterol_similarity: [0.838, 0.882, 0.896],
  amlodipine_mpo: [0.661, 0.635, 0.688],
  celecoxib_rediscovery: [0.63, 0.71, 0.68],
  deco_hop: [0.619, 0.666, 0.649],
  fexofenadine_mpo: [0.76, 0.784, 0.825],
  isomers_c7h8n2o2: [0.862, 0.852, 0.878],
  isomers_c9h10n2o2pf2cl: [0.719, 0.642, 0.865],
  median1: [0.294, 0.356, 0.257],
  median2: [0.273, 0.276, 0.301],
  mestranol_similarity: [0.579, 0.618, 0.591],
  osimertinib_mpo: [0.831, 0.837, 0.844],
  perindopril_mpo: [0.538, 0.537, 0.547],
  qed: [0.94, 0.941, 0.941],
  ranolazine_mpo: [0.728, 0.76, 0.804],
  scaffold_hop: [0.517, 0.56, 0.527],
  sitagliptin_mpo: [0.433, 0.021, 0.582],
  thiothixene_rediscovery: [0.479, 0.534, 0.519],
  troglitazone_rediscovery: [0.39, 0.441, 0.427],
  valsartan_smarts: [0, 0.178, 0],
  zaleplon_mpo: [0.346, 0.358, 0.519],
};

/** The published mean of `method` on `task`, or undefined for a task not in the table. */
export function publishedAuc(task: string, method: PublishedMethod): number | undefined {
  const row = TABLE[task];
  return row ? row[PUBLISHED_METHODS.indexOf(method)] : undefined;
}
