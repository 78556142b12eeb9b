// A local stand-in for the RCSB PDB search and file services and AlphaFold DB, speaking their wire formats and
// serving real structure files (wwPDB entries from packages/protein-structure/test/fixtures, an AlphaFold DB
// model from test/fixtures/structures; see SOURCES.md there). The client code under test runs unchanged against
// it; only the base URLs differ.
//
// Search: POST <origin>/rcsbsearch/v2/query with the v2 JSON query; the fake checks the query's shape as the
// service would (400 otherwise), answers entries whose DBREF names the accession, best resolution first (from
// REMARK 2), paginated, as `{ query_id, result_type, total_count, result_set: [{ identifier, score }] }`, or 204.
// Files: GET <origin>/download/<ID>.pdb|.cif. AlphaFold: GET <origin>/api/prediction/<ACCESSION> answers the
// JSON list of predictions, files under <origin>/files/.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
export const PDB_FIXTURES = join(here, '../../../protein-structure/test/fixtures');
export const AF_FIXTURES = join(here, '../fixtures/structures');

export const fixture = (dir: string, name: string) => readFileSync(join(dir, name));

interface Entry {
  pdb?: Buffer;
  cif?: Buffer;
  resolution: number;
  accessions: string[];
}

interface Model {
  accession: string;
  entryId: string;
  file: string;
  body: Buffer;
}

/** The real wwPDB entries served, by id. */
export function loadEntries(): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const add = (id: string, pdb: Buffer, cif?: Buffer) => {
    const text = pdb.toString('latin1');
    const accessions = [...text.matchAll(/^DBREF {2}.{4} . .{4}. .{4}. UNP {4}(\S+)/gm)].map((m) => m[1]!);
    const resolution = Number(/^REMARK {3}2 RESOLUTION\.\s+([0-9.]+)/m.exec(text)?.[1] ?? Number.POSITIVE_INFINITY);
    entries.set(id, { pdb, ...(cif ? { cif } : {}), resolution, accessions });
  };
  add('2SRC', fixture(PDB_FIXTURES, '2src.pdb'));
  add('1LEE', fixture(PDB_FIXTURES, '1lee.pdb'));
  add('3PQR', fixture(PDB_FIXTURES, '3pqr.pdb'), fixture(PDB_FIXTURES, '3PQR.cif'));
  return entries;
}

function loadModels(): Map<string, Model> {
  const file = 'AF-Q96HM7-F1-model_v4.pdb';
  return new Map([
    ['Q96HM7', { accession: 'Q96HM7', entryId: 'AF-Q96HM7-F1', file, body: fixture(AF_FIXTURES, file) }],
  ]);
}

/** The standard amino acids, three-letter to one-letter (the tests' own table, independent of the lead's). */
// Deliberate copy of protein-structure's STANDARD (not exported): an oracle independent of the code under test.
export const THREE_TO_ONE: Record<string, string> = {
  ALA: 'A',
  ARG: 'R',
  ASN: 'N',
  ASP: 'D',
  CYS: 'C',
  GLN: 'Q',
  GLU: 'E',
  GLY: 'G',
  HIS: 'H',
  ILE: 'I',
  LEU: 'L',
  LYS: 'K',
  MET: 'M',
  PHE: 'F',
  PRO: 'P',
  SER: 'S',
  THR: 'T',
  TRP: 'W',
  TYR: 'Y',
  VAL: 'V',
};

/** Sequence from SEQRES (three-letter codes to one-letter), as AlphaFold DB's `uniprotSequence` gives it. */
function seqres(text: string): string {
  return [...text.matchAll(/^SEQRES.{13}(.*)$/gm)]
    .flatMap((m) => m[1]!.trim().split(/\s+/))
    .map((r) => THREE_TO_ONE[r] ?? 'X')
    .join('');
}

export interface FakeBehaviour {
  /** Search hits by accession, in this order, instead of the DBREF index. */
  hits?: Record<string, string[]>;
  /** Entries served as mmCIF only (as RCSB does for entries too large for the PDB format). */
  cifOnly?: Set<string>;
  searchStatus?: number;
  /** A search body answered as it is (200, application/json). */
  searchRawBody?: string;
  filesStatus?: number;
  alphafoldStatus?: number;
  /** Replaces the pdbUrl the API answers. */
  alphafoldPdbUrl?: string;
  /** Encoding of file answers: plain with Content-Length, chunked (no length), gzip Content-Encoding, or a gzip'd body without Content-Encoding. */
  fileEncoding?: 'plain' | 'chunked' | 'gzip' | 'gzip-body';
  /** A file answered by its own body instead of the entry's (bytes, sent chunked). */
  fileOverride?: Buffer;
  /** File requests are held unanswered (abort and timeout tests). */
  holdFiles?: boolean;
  /** File requests answer a redirect to this location. */
  redirectFilesTo?: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  body?: unknown;
}

export class FakeSources {
  readonly requests: SeenRequest[] = [];
  behaviour: FakeBehaviour = {};
  private readonly entries = loadEntries();
  private readonly models = loadModels();
  private readonly held: ServerResponse[] = [];
  /** Resolves when a held request arrives. */
  heldRequest: Promise<void>;
  private onHeld!: () => void;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {
    this.heldRequest = new Promise((r) => (this.onHeld = r));
  }

  static async start(): Promise<FakeSources> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const fake = new FakeSources(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => void fake.handle(req, res));
    return fake;
  }

  get urls() {
    return {
      rcsbSearchUrl: `${this.origin}/rcsbsearch/v2/query`,
      rcsbFilesUrl: `${this.origin}/download/`,
      alphafoldApiUrl: `${this.origin}/api/prediction/`,
      alphafoldFilesUrl: `${this.origin}/files/`,
    };
  }

  paths(): string[] {
    return this.requests.map((r) => `${r.method} ${r.path}`);
  }

  reset(behaviour: FakeBehaviour = {}): void {
    this.requests.length = 0;
    this.behaviour = behaviour;
    this.heldRequest = new Promise((r) => (this.onHeld = r));
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', this.origin).pathname;
    const seen: SeenRequest = { method: req.method ?? '', path };
    if (chunks.length) seen.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    this.requests.push(seen);
    if (req.method === 'POST' && path === '/rcsbsearch/v2/query') return this.search(seen.body, res);
    let m = /^\/download\/([^/]+)\.(pdb|cif)$/.exec(path);
    if (req.method === 'GET' && m) return this.file(m[1]!, m[2] as 'pdb' | 'cif', res);
    m = /^\/api\/prediction\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && m) return this.prediction(m[1]!, res);
    m = /^\/files\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && m) {
      const model = [...this.models.values()].find((x) => x.file === m![1]);
      return model ? this.send(res, model.body) : this.json(res, 404, { error: 'not found' });
    }
    this.json(res, 404, { error: 'not found' });
  }

  private json(res: ServerResponse, status: number, doc: unknown): void {
    const body = JSON.stringify(doc);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  /** Checks the request as the search service's schema would; answers 400 with the first mismatch. */
  private search(body: unknown, res: ServerResponse) {
    const b = this.behaviour;
    if (b.searchStatus) return this.json(res, b.searchStatus, { status: b.searchStatus, message: 'Internal error' });
    if (b.searchRawBody !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(b.searchRawBody);
      return;
    }
    const q = body as {
      return_type?: string;
      query?: {
        type?: string;
        logical_operator?: string;
        nodes?: {
          type?: string;
          service?: string;
          parameters?: { attribute?: string; operator?: string; value?: unknown };
        }[];
      };
      request_options?: {
        paginate?: { start?: number; rows?: number };
        sort?: { sort_by?: string; direction?: string }[];
        results_content_type?: string[];
      };
    };
    const bad = (message: string) => this.json(res, 400, { status: 400, message });
    if (q?.return_type !== 'entry') return bad('return_type must be entry');
    if (q.query?.type !== 'group' || q.query.logical_operator !== 'and' || !Array.isArray(q.query.nodes))
      return bad('query must be an and-group');
    const params: Record<string, unknown> = {};
    for (const n of q.query.nodes) {
      if (n.type !== 'terminal' || n.service !== 'text' || n.parameters?.operator !== 'exact_match')
        return bad('nodes must be text exact_match terminals');
      params[n.parameters.attribute ?? ''] = n.parameters.value;
    }
    const ref = 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers';
    if (params[`${ref}.database_name`] !== 'UniProt') return bad('database_name must be UniProt');
    const accession = params[`${ref}.database_accession`];
    if (typeof accession !== 'string') return bad('database_accession missing');
    const start = q.request_options?.paginate?.start ?? 0;
    const rows = q.request_options?.paginate?.rows ?? 10;
    const ids =
      b.hits?.[accession] ??
      [...this.entries.entries()]
        .filter(([, e]) => e.accessions.includes(accession))
        .sort((x, y) => x[1].resolution - y[1].resolution)
        .map(([id]) => id);
    if (ids.length === 0) {
      res.writeHead(204);
      res.end();
      return;
    }
    this.json(res, 200, {
      query_id: randomUUID(),
      result_type: 'entry',
      total_count: ids.length,
      result_set: ids.slice(start, start + rows).map((identifier) => ({ identifier, score: 1 })),
    });
  }

  private file(id: string, format: 'pdb' | 'cif', res: ServerResponse) {
    const b = this.behaviour;
    if (b.holdFiles) {
      this.held.push(res);
      this.onHeld();
      return;
    }
    if (b.redirectFilesTo) {
      res.writeHead(302, { location: b.redirectFilesTo });
      res.end();
      b.redirectFilesTo = undefined;
      return;
    }
    if (b.filesStatus) return this.json(res, b.filesStatus, { error: 'failure' });
    if (b.fileOverride) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(b.fileOverride);
      return;
    }
    const entry = this.entries.get(id.toUpperCase());
    const body = format === 'pdb' && b.cifOnly?.has(id.toUpperCase()) ? undefined : entry?.[format];
    if (!body) return this.json(res, 404, { error: 'not found' });
    this.send(res, body);
  }

  private send(res: ServerResponse, body: Buffer): void {
    switch (this.behaviour.fileEncoding ?? 'plain') {
      case 'plain':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
        res.end(body);
        return;
      case 'chunked':
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < body.length; i += 16_384) res.write(body.subarray(i, i + 16_384));
        res.end();
        return;
      case 'gzip': {
        const z = gzipSync(body);
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': z.length });
        res.end(z);
        return;
      }
      case 'gzip-body': {
        const z = gzipSync(body);
        res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': z.length });
        res.end(z);
      }
    }
  }

  private prediction(accession: string, res: ServerResponse) {
    const b = this.behaviour;
    if (b.alphafoldStatus) return this.json(res, b.alphafoldStatus, { error: 'failure' });
    const model = this.models.get(accession);
    // AlphaFold DB answers 404 for an accession it has no model of.
    if (!model) return this.json(res, 404, { detail: 'Not Found' });
    const text = model.body.toString('latin1');
    const sequence = seqres(text);
    const files = `${this.origin}/files/${model.entryId}`;
    this.json(res, 200, [
      {
        entryId: model.entryId,
        gene: 'PCED1B',
        uniprotAccession: model.accession,
        uniprotId: 'PED1B_HUMAN',
        uniprotDescription: 'PC-esterase domain-containing protein 1B',
        taxId: 9606,
        organismScientificName: 'Homo sapiens',
        uniprotStart: 1,
        uniprotEnd: sequence.length,
        uniprotSequence: sequence,
        modelCreatedDate: '2022-06-01T00:00:00Z',
        latestVersion: 4,
        allVersions: [1, 2, 3, 4],
        isReviewed: true,
        isReferenceProteome: true,
        cifUrl: `${files}-model_v4.cif`,
        bcifUrl: `${files}-model_v4.bcif`,
        pdbUrl: b.alphafoldPdbUrl ?? `${files}-model_v4.pdb`,
        paeImageUrl: `${files}-predicted_aligned_error_v4.png`,
        paeDocUrl: `${files}-predicted_aligned_error_v4.json`,
      },
    ]);
  }
}
