// AlphaFold DB: the prediction API (GET <api base><accession>) answers a JSON list of models, each with its
// `entryId` (AF-<accession>-F1), `uniprotAccession`, and the URLs of its files (`pdbUrl`, `cifUrl`); 404 when the
// database has no model of the accession. The file URLs come from the answer, so each is checked to be under the
// configured files base before it is requested.
import { isAlphaFoldEntryId } from './ids.js';
import { request, type HttpLimits } from './http.js';
import { StructureUnavailableError } from './errors.js';
import type { Downloaded } from './rcsb.js';
import { below, mustBeUnder } from './urls.js';

export interface AlphaFoldModel {
  id: string;
  format: 'pdb' | 'cif';
  url: URL;
}

const malformed = (what: string) => new StructureUnavailableError('alphafold_api', what, { transient: true });
const none = (accession: string) =>
  new StructureUnavailableError('alphafold_api', `has no model of ${accession}`, {
    transient: false,
    problems: [
      {
        path: '/target_uniprot',
        message: `no experimental structure covers the residues and AlphaFold DB has no model of ${accession}`,
      },
    ],
  });

/** The model to download from an API answer: the accession's own entry, PDB format when offered, else mmCIF. */
export function parsePredictions(body: Buffer, accession: string, filesBase: URL): AlphaFoldModel {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw malformed('the answer is not valid JSON');
  }
  if (!Array.isArray(doc)) throw malformed('the answer is not a list of predictions');
  if (doc.length === 0) throw none(accession);
  const entry = doc.find((p) => (p as { uniprotAccession?: unknown } | null)?.uniprotAccession === accession) as
    | Record<string, unknown>
    | undefined;
  if (!entry) throw malformed(`the answer holds no prediction for ${accession}`);
  const id = entry.entryId;
  if (typeof id !== 'string' || !isAlphaFoldEntryId(id))
    throw malformed(`the answer's entryId ${JSON.stringify(id)} is not an AlphaFold DB entry id`);
  const raw =
    typeof entry.pdbUrl === 'string' ? entry.pdbUrl : typeof entry.cifUrl === 'string' ? entry.cifUrl : undefined;
  if (raw === undefined) throw malformed(`the answer gives no pdbUrl or cifUrl for ${id}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw malformed(`the answer's file URL ${JSON.stringify(raw.slice(0, 200))} is not a URL`);
  }
  mustBeUnder(url, filesBase, 'alphafold_files');
  return { id, format: raw === entry.pdbUrl ? 'pdb' : 'cif', url };
}

/** The AlphaFold DB model of the accession; throws `structure_unavailable` when there is none or a source fails. */
export async function fetchModel(
  apiBase: URL,
  filesBase: URL,
  accession: string,
  jsonLimits: HttpLimits,
  fileLimits: HttpLimits,
): Promise<Downloaded & { id: string }> {
  const answer = await request('alphafold_api', below(apiBase, accession, 'alphafold_api'), apiBase, jsonLimits, {
    accept: 'application/json',
  });
  if (answer.status === 404) throw none(accession);
  if (answer.status !== 200) {
    throw new StructureUnavailableError(
      'alphafold_api',
      `the prediction of ${accession} answered HTTP ${answer.status}`,
      { transient: true },
    );
  }
  const model = parsePredictions(answer.body, accession, filesBase);
  const file = await request('alphafold_files', model.url, filesBase, fileLimits);
  if (file.status !== 200 || file.body.length === 0) {
    throw new StructureUnavailableError(
      'alphafold_files',
      file.status === 200
        ? `${model.url.pathname} answered an empty file`
        : `${model.url.pathname} answered HTTP ${file.status}`,
      { transient: true },
    );
  }
  return { id: model.id, format: model.format, text: file.body.toString('utf8'), url: file.url.href };
}
