// Gene sets: the GO collections shipped with the package (data/go-sets.tsv.gz, built by scripts/build-go-sets.R
// from org.Hs.eg.db's org.Hs.egGO2ALLEGS) and user sets in MSigDB's GMT format, both as Entrez ids.
import { readShippedTable } from '../parse/shipped-data.js';
import type { GeneIndex } from '../druggability/table.js';
import { TargetDiscoveryInputError } from '../errors.js';

export const GO_COLLECTIONS = ['GO:BP', 'GO:CC', 'GO:MF'] as const;
export type GoCollection = (typeof GO_COLLECTIONS)[number];
/** The collection user sets (GMT) are reported under. */
export const GMT_COLLECTION = 'GMT';

export interface GeneSet {
  /** 'GO:BP', 'GO:CC', 'GO:MF' or 'GMT'. */
  collection: string;
  /** GO id (GO:0006955) or the GMT set's name. */
  id: string;
  name: string;
  /** Distinct Entrez ids, as numbers. */
  entrez: Int32Array;
}

export interface GoSets {
  /** Where the sets come from (package versions and source dates). */
  source: string;
  byCollection: ReadonlyMap<GoCollection, readonly GeneSet[]>;
}

let cachedGo: GoSets | undefined;

/** Loads (once) the GO gene sets shipped with the package. */
export function goGeneSets(): GoSets {
  if (cachedGo) return cachedGo;
  cachedGo = parseGoSets(readShippedTable('go-sets.tsv.gz'));
  return cachedGo;
}

/** The shipped file's text: a '#' source line, a header, then go_id, ontology, term, Entrez ids as gaps. */
export function parseGoSets(text: string): GoSets {
  const lines = text.split('\n');
  const source = lines[0]?.startsWith('#') ? lines[0].slice(1).trim() : '';
  const byCollection = new Map<GoCollection, GeneSet[]>(GO_COLLECTIONS.map((c) => [c, []]));
  for (let i = source ? 2 : 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const [id, ontology, name, gaps] = line.split('\t');
    const sets = byCollection.get(`GO:${ontology}` as GoCollection);
    if (!id || !sets || name === undefined || !gaps) throw new Error(`go-sets.tsv.gz line ${i + 1} is malformed`);
    const parts = gaps.split(',');
    const entrez = new Int32Array(parts.length);
    let acc = 0;
    for (let k = 0; k < parts.length; k++) {
      acc += Number(parts[k]);
      entrez[k] = acc;
    }
    sets.push({ collection: `GO:${ontology}`, id, name, entrez });
  }
  return { source, byCollection };
}

export interface GmtSets {
  sets: GeneSet[];
  /** Identifiers (occurrences) that name no human gene of the gene table. */
  unresolved: number;
  identifiers: number;
  /** A few unresolved identifiers, for the warning. */
  unresolvedExamples: string[];
}

/**
 * MSigDB's GMT: one set per line, tab-separated: name, description, then gene identifiers (Entrez, symbol, alias or
 * Ensembl gene id, resolved through the gene table). Blank lines are skipped. Refused, naming the line: an empty
 * file, a line without a name or without a gene, a name used twice, a set none of whose identifiers resolves.
 */
export function parseGmt(text: string, genes: GeneIndex, field = 'options.enrichment.gene_sets'): GmtSets {
  const fail = (message: string) => new TargetDiscoveryInputError('bad_gene_sets', field, message);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const sets: GeneSet[] = [];
  const seen = new Map<string, number>();
  const noGene: number[] = [];
  let identifiers = 0;
  let unresolved = 0;
  const unresolvedExamples: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const at = i + 1;
    const cells = line.split('\t');
    const name = cells[0]!.trim();
    if (cells.length < 3)
      throw fail(
        `GMT line ${at}: a set is a tab-separated line of a name, a description and at least one gene (found ${cells.length} field${cells.length === 1 ? '' : 's'})`,
      );
    if (name === '') throw fail(`GMT line ${at}: the set has no name (first field empty)`);
    const first = seen.get(name);
    if (first !== undefined) throw fail(`GMT line ${at}: set name "${name}" is already used on line ${first}`);
    seen.set(name, at);
    const ids = cells
      .slice(2)
      .map((c) => c.trim())
      .filter((c) => c !== '');
    if (ids.length === 0) throw fail(`GMT line ${at}: set "${name}" lists no gene`);
    const entrez = new Set<number>();
    for (const id of ids) {
      identifiers++;
      const rec = genes.resolve(id);
      if (rec) entrez.add(Number(rec.entrez_id));
      else {
        unresolved++;
        if (unresolvedExamples.length < 5) unresolvedExamples.push(id);
      }
    }
    if (entrez.size === 0) noGene.push(at);
    sets.push({
      collection: GMT_COLLECTION,
      id: name,
      name: setName(name, cells[1]!.trim()),
      entrez: Int32Array.from([...entrez].sort((a, b) => a - b)),
    });
  }
  if (sets.length === 0) throw fail('the GMT text holds no gene set (it is empty or blank)');
  if (noGene.length === sets.length)
    throw fail(
      `no identifier of the GMT resolves to a human gene (e.g. ${unresolvedExamples.join(', ')}): gene sets must name human genes by Entrez id, symbol, alias or Ensembl gene id`,
    );
  if (noGene.length > 0)
    throw fail(
      `GMT line${noGene.length > 1 ? 's' : ''} ${noGene.slice(0, 10).join(', ')}${noGene.length > 10 ? ', ...' : ''}: no identifier of the set resolves to a human gene (Entrez id, symbol, alias or Ensembl gene id)`,
    );
  return { sets, unresolved, identifiers, unresolvedExamples };
}

/** A GMT description names the set unless it is empty, "na" or a link (MSigDB puts the set's page there). */
function setName(name: string, description: string): string {
  return description === '' || /^na$/i.test(description) || /^(https?|ftp):\/\//i.test(description)
    ? name
    : description;
}
