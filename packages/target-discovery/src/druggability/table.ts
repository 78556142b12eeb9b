// The committed gene table (data/human-genes.tsv.gz, see data/DATA_SOURCES.md) and identifier resolution.
import { readShippedTable } from '../parse/shipped-data.js';

export type TargetFamily =
  | 'kinase'
  | 'GPCR'
  | 'ion channel'
  | 'nuclear receptor'
  | 'protease'
  | 'phosphatase'
  | 'transporter'
  | 'other enzyme'
  | 'other';

export interface GeneRecord {
  entrez_id: string;
  symbol: string;
  name: string;
  gene_type: string;
  ensembl_ids: string[];
  uniprot: string | null;
  aliases: string[];
  family: TargetFamily;
  /**
   * Finan et al. 2017 style: 1 efficacy target of an approved medicine, 2 close homologue of one, 3 member of a
   * druggable family, 4 none of these (README "Druggability").
   */
  tier: 1 | 2 | 3 | 4;
  /** Why the gene has its tier. */
  tier_source: TierSource;
  /** Human-readable evidence: the drugs, the tier-1 homologue and shared Pfam domains, or the family. */
  tier_evidence: string;
  /** Approved medicines acting on the gene (tier 1), as listed in data/approved-drug-targets.tsv. */
  drugs: string[];
  /** Bowes et al. 2012 safety-panel target and its concern (data/safety-targets.tsv); null when none. */
  safety_liability: string | null;
  evidence_go_mf: string[];
  evidence_pfam: string[];
  pfam_domains: string[];
}

export type TierSource = 'approved_drug' | 'homologue' | 'druggable_family' | 'none';

/** The identifier kinds an annotation can give for a feature. */
export type GeneIdKind = 'symbol' | 'entrez' | 'ensembl' | 'uniprot';

export interface GeneIndex {
  readonly size: number;
  readonly source: string;
  /** Resolve a feature id: symbol, alias (when unambiguous), Entrez id or Ensembl gene id (version ignored). */
  resolve(id: string): GeneRecord | undefined;
  /** Resolve an identifier of a known kind (a symbol also matches a unique alias). */
  resolveAs(kind: GeneIdKind, id: string): GeneRecord | undefined;
  bySymbol(symbol: string): GeneRecord | undefined;
  all(): readonly GeneRecord[];
}

let cached: GeneIndex | undefined;

/** Loads (once) the gene table shipped with the package. */
export function geneIndex(): GeneIndex {
  if (cached) return cached;
  cached = buildIndex(readShippedTable('human-genes.tsv.gz'));
  return cached;
}

/** The gene table's column indexes by field (an absent column is an error). */
function tableColumns(header: string[]) {
  const col = (name: string) => {
    const c = header.indexOf(name);
    if (c === -1) throw new Error(`target-discovery: the gene table has no "${name}" column`);
    return c;
  };
  return {
    entrez: col('entrez_id'),
    symbol: col('symbol'),
    name: col('name'),
    type: col('gene_type'),
    ens: col('ensembl_ids'),
    uni: col('uniprot'),
    alias: col('aliases'),
    fam: col('family'),
    tier: col('tier'),
    go: col('evidence_go_mf'),
    pfam: col('pfam_domains'),
    evpf: col('evidence_pfam'),
    tsrc: col('tier_source'),
    tev: col('tier_evidence'),
    drugs: col('drugs'),
    liab: col('safety_liability'),
  };
}

const list = (s: string | undefined) => (s ? s.split('|') : []);

/** One gene table row (`f`, its cells) as a GeneRecord; `lineNo` (1-based) names the line in an error. */
function recordOf(f: string[], c: ReturnType<typeof tableColumns>, lineNo: number): GeneRecord {
  const cell = (at: number): string => {
    const v = f[at];
    if (v === undefined) throw new Error(`target-discovery: gene table line ${lineNo} has too few columns`);
    return v;
  };
  return {
    entrez_id: cell(c.entrez),
    symbol: cell(c.symbol),
    name: cell(c.name),
    gene_type: cell(c.type),
    ensembl_ids: list(cell(c.ens)),
    uniprot: cell(c.uni) || null,
    aliases: list(cell(c.alias)),
    family: cell(c.fam) as TargetFamily,
    tier: Number(cell(c.tier)) as GeneRecord['tier'],
    tier_source: cell(c.tsrc) as TierSource,
    tier_evidence: cell(c.tev),
    drugs: cell(c.drugs) ? cell(c.drugs).split('; ') : [],
    safety_liability: cell(c.liab) || null,
    evidence_go_mf: list(cell(c.go)),
    pfam_domains: list(cell(c.pfam)),
    evidence_pfam: list(cell(c.evpf)),
  };
}

export function buildIndex(tsv: string): GeneIndex {
  const lines = tsv.split('\n');
  let source = '';
  let i = 0;
  const first = lines[0] ?? '';
  if (first.startsWith('#')) {
    source = first.slice(1).trim();
    i++;
  }
  const headerLine = lines[i++];
  if (headerLine === undefined) throw new Error('target-discovery: the gene table has no header row');
  const c = tableColumns(headerLine.split('\t'));
  const records: GeneRecord[] = [];
  const symbols = new Map<string, GeneRecord>();
  const entrez = new Map<string, GeneRecord>();
  const ensembl = new Map<string, GeneRecord>();
  const uniprot = new Map<string, GeneRecord>();
  const aliasHits = new Map<string, GeneRecord | null>(); // null = ambiguous
  for (const [k, line] of lines.slice(i).entries()) {
    if (!line) continue;
    const r = recordOf(line.split('\t'), c, i + k + 1);
    records.push(r);
    symbols.set(r.symbol.toUpperCase(), r);
    entrez.set(r.entrez_id, r);
    for (const e of r.ensembl_ids) if (!ensembl.has(e)) ensembl.set(e, r);
    if (r.uniprot && !uniprot.has(r.uniprot)) uniprot.set(r.uniprot, r);
    for (const a of r.aliases) {
      const k = a.toUpperCase();
      const prev = aliasHits.get(k);
      aliasHits.set(k, prev === undefined ? r : prev === r ? r : null);
    }
  }
  const resolve = (raw: string): GeneRecord | undefined => {
    const id = raw.trim();
    if (!id) return undefined;
    const up = id.toUpperCase();
    const sym = symbols.get(up);
    if (sym) return sym;
    if (/^ENSG\d+(\.\d+)?$/.test(up)) return ensembl.get(up.replace(/\.\d+$/, ''));
    if (/^\d+$/.test(id)) return entrez.get(id);
    // "ENSG...|SYMBOL" or "SYMBOL|ENSG..." style compound ids
    if (/[|;]/.test(id)) {
      for (const part of id.split(/[|;]/)) {
        const r = resolve(part);
        if (r) return r;
      }
      return undefined;
    }
    return aliasHits.get(up) ?? undefined;
  };
  const resolveAs = (kind: GeneIdKind, raw: string): GeneRecord | undefined => {
    const id = raw.trim();
    if (!id) return undefined;
    const up = id.toUpperCase();
    switch (kind) {
      case 'entrez':
        return entrez.get(id);
      case 'ensembl':
        return ensembl.get(up.replace(/\.\d+$/, ''));
      case 'uniprot':
        return uniprot.get(up.replace(/-\d+$/, '')); // isoform suffix (P00533-2) ignored
      case 'symbol':
        return symbols.get(up) ?? aliasHits.get(up) ?? undefined;
    }
  };
  return {
    size: records.length,
    source,
    resolve,
    resolveAs,
    bySymbol: (s) => symbols.get(s.toUpperCase()),
    all: () => records,
  };
}
