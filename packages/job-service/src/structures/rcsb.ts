// RCSB PDB: the search service (which experimental entries hold a UniProt accession, best resolution first) and
// the file service (an entry's coordinates, PDB format or mmCIF).
//
// Search request (RCSB Search API v2, https://search.rcsb.org/#search-api): an attribute query, no full text.
// The accession and the database name are two conditions on the same nested object
// (rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers), so they sit in one group labelled
// "nested-attribute", which makes the service match them on the same reference, not on any two references of
// the entity. Answer: 200 `{ query_id, result_type, total_count, result_set: [{ identifier, score }] }`, or
// 204 No Content when nothing matches.
import { canonicalPdbId } from './ids.js';
import { request, type HttpLimits } from './http.js';
import { StructureUnavailableError } from './errors.js';
import type { StructureFormat } from './cache.js';
import { below } from './urls.js';

const REFERENCE = 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers';

/** The search request for the best `rows` experimental entries holding `accession` (canonical, no isoform). */
export function searchRequest(accession: string, rows: number): object {
  const exact = (attribute: string, value: string) => ({
    type: 'terminal',
    service: 'text',
    parameters: { attribute, operator: 'exact_match', value },
  });
  return {
    query: {
      type: 'group',
      logical_operator: 'and',
      label: 'nested-attribute',
      nodes: [exact(`${REFERENCE}.database_accession`, accession), exact(`${REFERENCE}.database_name`, 'UniProt')],
    },
    return_type: 'entry',
    request_options: {
      results_content_type: ['experimental'],
      sort: [{ sort_by: 'rcsb_entry_info.resolution_combined', direction: 'asc' }],
      paginate: { start: 0, rows },
    },
  };
}

const malformed = (what: string) => new StructureUnavailableError('rcsb_search', what, { transient: true });

/** The entry ids of a search answer, in its order (canonical, without repeats). */
export function parseSearchAnswer(body: Buffer): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw malformed('the answer is not valid JSON');
  }
  const set = (doc as { result_set?: unknown } | null)?.result_set;
  if (typeof doc !== 'object' || doc === null || !Array.isArray(set)) {
    throw malformed('the answer has no result_set list');
  }
  const ids: string[] = [];
  for (const hit of set) {
    const raw = (hit as { identifier?: unknown } | null)?.identifier;
    const id = typeof raw === 'string' ? canonicalPdbId(raw) : undefined;
    if (!id) throw malformed(`the answer holds ${JSON.stringify(raw)}, which is not an entry id`);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Ids of the best `rows` experimental entries for the accession; [] when the service finds none. */
export async function searchEntries(
  endpoint: URL,
  accession: string,
  rows: number,
  limits: HttpLimits,
): Promise<string[]> {
  const answer = await request('rcsb_search', endpoint, undefined, limits, {
    method: 'POST',
    json: searchRequest(accession, rows),
    accept: 'application/json',
  });
  if (answer.status === 204) return [];
  if (answer.status !== 200) {
    throw new StructureUnavailableError('rcsb_search', `the search for ${accession} answered HTTP ${answer.status}`, {
      transient: true,
    });
  }
  return parseSearchAnswer(answer.body).slice(0, rows);
}

export interface Downloaded {
  format: StructureFormat;
  text: string;
  url: string;
}

/**
 * An entry's coordinates: PDB format, else mmCIF (entries too large for the PDB format have only mmCIF); undefined
 * when the service has neither (404 to both).
 */
export async function downloadEntry(filesBase: URL, id: string, limits: HttpLimits): Promise<Downloaded | undefined> {
  for (const format of ['pdb', 'cif'] as const) {
    const url = below(filesBase, `${id}.${format}`, 'rcsb_files');
    const answer = await request('rcsb_files', url, filesBase, limits);
    if (answer.status === 404 || answer.status === 410) continue;
    if (answer.status !== 200) {
      throw new StructureUnavailableError('rcsb_files', `${id}.${format} answered HTTP ${answer.status}`, {
        transient: true,
      });
    }
    if (answer.body.length === 0) {
      throw new StructureUnavailableError('rcsb_files', `${id}.${format} answered an empty file`, { transient: true });
    }
    return { format, text: answer.body.toString('utf8'), url: answer.url.href };
  }
  return undefined;
}
