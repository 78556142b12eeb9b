// StructureSources against a local server speaking the RCSB search/file and AlphaFold DB wire formats with real
// structure files (fake-sources.ts): which structure is chosen, the disk cache, and every way a source can fail.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { configFromEnv } from '../../src/config.js';
import {
  StructureSources,
  StructureUnavailableError,
  structureSourcesFromConfig,
  type StructureFormat,
  type StructureSourcesOptions,
} from '../../src/structures/index.js';
import { AF_FIXTURES, FakeSources, PDB_FIXTURES, THREE_TO_ONE, fixture } from './fake-sources.js';

/**
 * A stand-in for the lead's residue check: every label (K295) is a CA atom of that residue type and author number
 * in the PDB-format text. Calls are recorded.
 */
function coversResidues(labels: string[], calls: string[] = []) {
  return (text: string, id: string, format: StructureFormat) => {
    calls.push(id);
    if (format !== 'pdb') return false;
    const present = new Set<string>();
    for (const line of text.split('\n')) {
      if (!line.startsWith('ATOM') || line.slice(12, 16) !== ' CA ') continue;
      const one = THREE_TO_ONE[line.slice(17, 20)];
      if (one) present.add(`${one}${Number(line.slice(22, 26))}`);
    }
    return labels.every((l) => present.has(l));
  };
}

const neverCalled = () => {
  throw new Error('covers must not be called');
};

describe('structure sources', () => {
  let fake: FakeSources;
  const dirs: string[] = [];
  before(async () => {
    fake = await FakeSources.start();
  });
  after(async () => {
    await fake.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  beforeEach(() => fake.reset());

  function sources(over: Partial<StructureSourcesOptions> = {}): StructureSources {
    const cacheDir = over.cacheDir ?? mkdtempSync(join(tmpdir(), 'evident-structures-'));
    dirs.push(cacheDir);
    return new StructureSources({
      ...fake.urls,
      maxBytes: 50 * 1024 * 1024,
      timeoutMs: 10_000,
      maxCandidates: 5,
      ...over,
      cacheDir,
    });
  }

  async function unavailable(p: Promise<unknown>): Promise<StructureUnavailableError> {
    const e = await p.then(
      () => assert.fail('expected structure_unavailable'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof StructureUnavailableError, `expected StructureUnavailableError, got ${String(e)}`);
    assert.equal(e.code, 'structure_unavailable');
    return e;
  }

  describe('with a pdb_id', () => {
    it('downloads the entry in PDB format, caches it, and uses the cache without a request the second time', async () => {
      const s = sources();
      const got = await s.resolveStructure(
        { uniprot: 'P12931', pdb_id: '2src', residues: ['K295'] },
        { covers: neverCalled },
      );
      assert.equal(got.id, '2SRC');
      assert.equal(got.source, 'pdb');
      assert.equal(got.format, 'pdb');
      assert.equal(got.text, fixture(PDB_FIXTURES, '2src.pdb').toString('utf8'));
      assert.equal(got.url, `${fake.origin}/download/2SRC.pdb`);
      assert.deepEqual(fake.paths(), ['GET /download/2SRC.pdb']);

      fake.reset();
      // A new instance on the same directory: the cache is the disk, not memory.
      const again = await sources({ cacheDir: dirs.at(-1)! }).resolveStructure(
        { uniprot: 'P12931', pdb_id: '2SRC', residues: [] },
        { covers: neverCalled },
      );
      assert.deepEqual(fake.paths(), []);
      assert.equal(again.text, got.text);
      assert.equal(again.url, got.url);
    });

    it('falls back to mmCIF when the entry has no PDB-format file', async () => {
      fake.reset({ cifOnly: new Set(['3PQR']) });
      const got = await sources().resolveStructure(
        { uniprot: 'P02699', pdb_id: '3PQR', residues: [] },
        { covers: neverCalled },
      );
      assert.equal(got.format, 'cif');
      assert.equal(got.text, fixture(PDB_FIXTURES, '3PQR.cif').toString('utf8'));
      assert.deepEqual(fake.paths(), ['GET /download/3PQR.pdb', 'GET /download/3PQR.cif']);
    });

    it('an entry the file service does not have is structure_unavailable naming /pdb_id, not transient', async () => {
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'P12931', pdb_id: '9ZZZ', residues: [] }, { covers: neverCalled }),
      );
      assert.equal(e.transient, false);
      assert.equal(e.status, 422);
      assert.match(e.message, /RCSB PDB file service: has no entry 9ZZZ/);
      assert.deepEqual(
        e.problems?.map((p) => p.path),
        ['/pdb_id'],
      );
    });
  });

  describe('by accession', () => {
    it('searches RCSB with the v2 attribute query and takes the first hit that covers the residues', async () => {
      const calls: string[] = [];
      const got = await sources().resolveStructure(
        { uniprot: 'P12931', residues: ['K295', 'E310', 'D404'] },
        { covers: coversResidues(['K295', 'E310', 'D404'], calls) },
      );
      assert.equal(got.id, '2SRC');
      assert.equal(got.source, 'pdb');
      assert.deepEqual(got.rejected, []);
      assert.deepEqual(calls, ['2SRC']);
      assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query', 'GET /download/2SRC.pdb']);
      const q = fake.requests[0]!.body as { request_options: Record<string, unknown> };
      assert.deepEqual(q.request_options.paginate, { start: 0, rows: 5 });
      assert.deepEqual(q.request_options.sort, [{ sort_by: 'rcsb_entry_info.resolution_combined', direction: 'asc' }]);
      assert.deepEqual(q.request_options.results_content_type, ['experimental']);
    });

    it('tries the hits in the order RCSB gives and skips those that do not cover', async () => {
      fake.reset({ hits: { P12931: ['1LEE', '2SRC'] } });
      const got = await sources().resolveStructure(
        { uniprot: 'P12931', residues: ['K295'] },
        { covers: coversResidues(['K295']) },
      );
      assert.equal(got.id, '2SRC');
      assert.deepEqual(got.rejected, ['1LEE']);
      assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query', 'GET /download/1LEE.pdb', 'GET /download/2SRC.pdb']);
    });

    it('hits that do not cover the residues: the AlphaFold DB model, then cached', async () => {
      fake.reset({ hits: { Q96HM7: ['2SRC', '1LEE', '3PQR'] } });
      const s = sources();
      const labels = ['M1', 'I2', 'L3'];
      const got = await s.resolveStructure({ uniprot: 'Q96HM7', residues: labels }, { covers: coversResidues(labels) });
      assert.equal(got.source, 'alphafold');
      assert.equal(got.id, 'AF-Q96HM7-F1');
      assert.equal(got.format, 'pdb');
      assert.equal(got.text, fixture(AF_FIXTURES, 'AF-Q96HM7-F1-model_v4.pdb').toString('utf8'));
      assert.equal(got.url, `${fake.origin}/files/AF-Q96HM7-F1-model_v4.pdb`);
      assert.deepEqual(got.rejected, ['2SRC', '1LEE', '3PQR']);
      assert.deepEqual(fake.paths().slice(-2), ['GET /api/prediction/Q96HM7', 'GET /files/AF-Q96HM7-F1-model_v4.pdb']);

      fake.reset({ hits: { Q96HM7: ['2SRC', '1LEE', '3PQR'] } });
      const again = await s.resolveStructure(
        { uniprot: 'Q96HM7', residues: labels },
        { covers: coversResidues(labels) },
      );
      assert.equal(again.text, got.text);
      assert.equal(again.id, got.id);
      // The search is asked again (new entries appear); entries and the model come from the cache.
      assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query']);
    });

    it('no experimental entry (search answers 204): the AlphaFold DB model', async () => {
      const got = await sources().resolveStructure({ uniprot: 'Q96HM7', residues: ['M1'] }, { covers: neverCalled });
      assert.equal(got.source, 'alphafold');
      assert.deepEqual(got.rejected, []);
      assert.deepEqual(fake.paths(), [
        'POST /rcsbsearch/v2/query',
        'GET /api/prediction/Q96HM7',
        'GET /files/AF-Q96HM7-F1-model_v4.pdb',
      ]);
    });

    it('downloads at most maxCandidates hits, and asks the search for that many rows', async () => {
      fake.reset({ hits: { Q96HM7: ['2SRC', '1LEE', '3PQR'] } });
      const got = await sources({ maxCandidates: 2 }).resolveStructure(
        { uniprot: 'Q96HM7', residues: ['M1'] },
        { covers: coversResidues(['M1', 'I2']) },
      );
      assert.deepEqual(got.rejected, ['2SRC', '1LEE']);
      assert.equal(fake.paths().filter((p) => p.startsWith('GET /download/')).length, 2);
      assert.deepEqual(
        (fake.requests[0]!.body as { request_options: { paginate: unknown } }).request_options.paginate,
        { start: 0, rows: 2 },
      );
    });

    it('an isoform accession is searched as its canonical accession', async () => {
      const got = await sources().resolveStructure(
        { uniprot: 'P12931-2', residues: ['K295'] },
        { covers: coversResidues(['K295']) },
      );
      assert.equal(got.id, '2SRC');
    });
  });

  describe('failing sources are errors, never a fallback', () => {
    it('RCSB search 500: structure_unavailable naming the search service; AlphaFold is not asked', async () => {
      fake.reset({ searchStatus: 500 });
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'P12931', residues: ['K295'] }, { covers: neverCalled }),
      );
      assert.equal(e.transient, true);
      assert.equal(e.status, 502);
      assert.match(e.message, /^RCSB PDB search service: the search for P12931 answered HTTP 500/);
      assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query']);
    });

    it('RCSB search unreachable (connection refused): structure_unavailable', async () => {
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as { port: number }).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const s = sources({ rcsbSearchUrl: `http://127.0.0.1:${port}/rcsbsearch/v2/query` });
      const e = await unavailable(
        s.resolveStructure({ uniprot: 'P12931', residues: ['K295'] }, { covers: neverCalled }),
      );
      assert.match(e.message, /^RCSB PDB search service: unreachable at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
      assert.deepEqual(fake.paths(), []);
    });

    it('malformed search answers: structure_unavailable', async () => {
      for (const [raw, what] of [
        ['{"result_set": [', /not valid JSON/],
        ['{"total_count": 1}', /no result_set list/],
        ['{"result_set": [{"identifier": "../../etc"}]}', /not an entry id/],
      ] as const) {
        fake.reset({ searchRawBody: raw });
        const e = await unavailable(
          sources().resolveStructure({ uniprot: 'P12931', residues: [] }, { covers: neverCalled }),
        );
        assert.match(e.message, what);
        assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query']);
      }
    });

    it('RCSB file service 503 for a hit: structure_unavailable naming the file service', async () => {
      fake.reset({ filesStatus: 503 });
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'P12931', residues: ['K295'] }, { covers: neverCalled }),
      );
      assert.match(e.message, /^RCSB PDB file service: 2SRC\.pdb answered HTTP 503/);
      assert.ok(!fake.paths().some((p) => p.includes('/api/prediction/')));
    });

    it('AlphaFold DB 404: structure_unavailable naming AlphaFold DB and /target_uniprot', async () => {
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'P46925', residues: ['M1'] }, { covers: coversResidues(['M1', 'I2']) }),
      );
      assert.equal(e.transient, false);
      assert.match(e.message, /^AlphaFold DB API: has no model of P46925/);
      assert.deepEqual(
        e.problems?.map((p) => p.path),
        ['/target_uniprot'],
      );
      assert.deepEqual(fake.paths(), [
        'POST /rcsbsearch/v2/query',
        'GET /download/1LEE.pdb',
        'GET /api/prediction/P46925',
      ]);
    });

    it('AlphaFold DB 500: structure_unavailable, transient', async () => {
      fake.reset({ alphafoldStatus: 500 });
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'Q96HM7', residues: [] }, { covers: neverCalled }),
      );
      assert.equal(e.transient, true);
      assert.match(e.message, /^AlphaFold DB API: the prediction of Q96HM7 answered HTTP 500/);
    });

    it('an AlphaFold file URL outside the configured files base is refused without a request', async () => {
      fake.reset({ alphafoldPdbUrl: 'http://169.254.169.254/latest/meta-data/x.pdb' });
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'Q96HM7', residues: [] }, { covers: neverCalled }),
      );
      assert.match(e.message, /refused to request http:\/\/169\.254\.169\.254\/latest\/meta-data\/x\.pdb/);
      assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query', 'GET /api/prediction/Q96HM7']);
    });

    it('a redirect is followed under the base and refused outside it', async () => {
      fake.reset({ redirectFilesTo: `${fake.origin}/download/2SRC.pdb` });
      const got = await sources().resolveStructure(
        { uniprot: 'P12931', pdb_id: '1LEE', residues: [] },
        { covers: neverCalled },
      );
      assert.equal(got.text, fixture(PDB_FIXTURES, '2src.pdb').toString('utf8'));
      fake.reset({ redirectFilesTo: 'http://example.invalid/2SRC.pdb' });
      const e = await unavailable(
        sources().resolveStructure({ uniprot: 'P12931', pdb_id: '1LEE', residues: [] }, { covers: neverCalled }),
      );
      assert.match(e.message, /refused to request http:\/\/example\.invalid\/2SRC\.pdb/);
    });
  });

  describe('downloads', () => {
    it('gzip, as a Content-Encoding or as a gzip file, arrives decoded', async () => {
      for (const fileEncoding of ['gzip', 'gzip-body'] as const) {
        fake.reset({ fileEncoding });
        const got = await sources().resolveStructure(
          { uniprot: 'P12931', pdb_id: '2SRC', residues: [] },
          { covers: neverCalled },
        );
        assert.equal(got.text, fixture(PDB_FIXTURES, '2src.pdb').toString('utf8'), fileEncoding);
      }
    });

    it('a file over maxBytes is refused, with or without Content-Length and after decompression, and not cached', async () => {
      const size = fixture(PDB_FIXTURES, '2src.pdb').length;
      for (const fileEncoding of ['plain', 'chunked', 'gzip', 'gzip-body'] as const) {
        fake.reset({ fileEncoding });
        const s = sources({ maxBytes: Math.floor(size / 2) });
        const e = await unavailable(
          s.resolveStructure({ uniprot: 'P12931', pdb_id: '2SRC', residues: [] }, { covers: neverCalled }),
        );
        assert.match(e.message, /2SRC\.pdb is larger than the 0\.2 MB limit/, fileEncoding);
        assert.equal(e.transient, false);
        assert.equal(existsSync(join(dirs.at(-1)!, 'pdb', '2SRC.pdb')), false);
      }
    });

    it('a gzip bomb stops at the limit', async () => {
      // 64 MB of zeros compress to about 64 kB.
      fake.reset({ fileOverride: gzipSync(Buffer.alloc(64 * 1024 * 1024)) });
      const e = await unavailable(
        sources({ maxBytes: 1024 * 1024 }).resolveStructure(
          { uniprot: 'P12931', pdb_id: '2SRC', residues: [] },
          { covers: neverCalled },
        ),
      );
      assert.match(e.message, /larger than the 1 MB limit once decompressed/);
    });

    it('a cached file is written atomically: no temporary file is left beside it', async () => {
      const s = sources();
      await s.resolveStructure({ uniprot: 'P12931', pdb_id: '2SRC', residues: [] }, { covers: neverCalled });
      assert.deepEqual(readdirSync(join(dirs.at(-1)!, 'pdb')), ['2SRC.pdb']);
      assert.equal(
        readFileSync(join(dirs.at(-1)!, 'pdb', '2SRC.pdb'), 'utf8'),
        fixture(PDB_FIXTURES, '2src.pdb').toString('utf8'),
      );
    });

    it('a source that does not answer within timeoutMs is structure_unavailable', async () => {
      fake.reset({ holdFiles: true });
      const e = await unavailable(
        sources({ timeoutMs: 300 }).resolveStructure(
          { uniprot: 'P12931', pdb_id: '2SRC', residues: [] },
          { covers: neverCalled },
        ),
      );
      assert.match(e.message, /did not answer within 0\.3 s/);
    });
  });

  describe('bad ids are refused before any request', () => {
    for (const [query, path] of [
      [{ uniprot: 'P12931', pdb_id: '../../etc/passwd', residues: [] }, '/pdb_id'],
      [{ uniprot: 'P12931', pdb_id: '2SRC/../../x', residues: [] }, '/pdb_id'],
      [{ uniprot: 'P12931', pdb_id: 'ABCD', residues: [] }, '/pdb_id'],
      [{ uniprot: 'P12931', pdb_id: '2SRC%2F..', residues: [] }, '/pdb_id'],
      [{ uniprot: '../P12931', residues: [] }, '/target_uniprot'],
      [{ uniprot: 'P12931?x=1', residues: [] }, '/target_uniprot'],
      [{ uniprot: 'P12931', residues: ['K295', 'not a residue'] }, '/residues/1'],
    ] as const) {
      it(`${JSON.stringify(query)} -> 400 at ${path}`, async () => {
        const e = await sources()
          .resolveStructure(query, { covers: neverCalled })
          .then(
            () => assert.fail('expected a refusal'),
            (err: unknown) => err as { code: string; status: number; problems: { path: string }[] },
          );
        assert.equal(e.code, 'invalid_parameters');
        assert.equal(e.status, 400);
        assert.deepEqual(
          e.problems.map((p) => p.path),
          [path],
        );
        assert.deepEqual(fake.paths(), []);
      });
    }

    it('an extended PDB id holding a classic one is that entry', async () => {
      const got = await sources().resolveStructure(
        { uniprot: 'P12931', pdb_id: 'pdb_00002src', residues: [] },
        { covers: neverCalled },
      );
      assert.equal(got.id, '2SRC');
      assert.deepEqual(fake.paths(), ['GET /download/2SRC.pdb']);
    });
  });

  describe('abort', () => {
    it('an aborted signal stops a download in flight with the signal reason', async () => {
      fake.reset({ holdFiles: true });
      const ac = new AbortController();
      const reason = new Error('job cancelled');
      const p = sources().resolveStructure(
        { uniprot: 'P12931', pdb_id: '2SRC', residues: [] },
        { covers: neverCalled, signal: ac.signal },
      );
      await fake.heldRequest;
      ac.abort(reason);
      await assert.rejects(p, (e) => e === reason);
    });

    it('a signal aborted before the call makes no request', async () => {
      const ac = new AbortController();
      ac.abort(new Error('cancelled'));
      await assert.rejects(
        sources().resolveStructure({ uniprot: 'P12931', residues: [] }, { covers: neverCalled, signal: ac.signal }),
        /cancelled/,
      );
      assert.deepEqual(fake.paths(), []);
    });

    it('an abort between candidates stops before the next download', async () => {
      fake.reset({ hits: { P12931: ['1LEE', '2SRC'] } });
      const ac = new AbortController();
      const covers = () => {
        ac.abort(new Error('cancelled while checking'));
        return false;
      };
      await assert.rejects(
        sources().resolveStructure({ uniprot: 'P12931', residues: ['K295'] }, { covers, signal: ac.signal }),
        /cancelled while checking/,
      );
      assert.deepEqual(fake.paths(), ['POST /rcsbsearch/v2/query', 'GET /download/1LEE.pdb']);
    });
  });

  describe('configuration', () => {
    it('reads the bases and bounds from the environment and caches under <dataDir>/structures', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'evident-structures-data-'));
      dirs.push(dataDir);
      const config = {
        ...configFromEnv({
          EVIDENT_RCSB_SEARCH_URL: fake.urls.rcsbSearchUrl,
          EVIDENT_RCSB_FILES_URL: fake.urls.rcsbFilesUrl,
          EVIDENT_ALPHAFOLD_API_URL: fake.urls.alphafoldApiUrl,
          EVIDENT_ALPHAFOLD_FILES_URL: fake.urls.alphafoldFilesUrl,
          EVIDENT_STRUCTURE_MAX_MB: '2',
          EVIDENT_STRUCTURE_TIMEOUT_MS: '5000',
          EVIDENT_STRUCTURE_CANDIDATES: '3',
        }),
        dataDir,
      };
      assert.equal(config.structureMaxBytes, 2 * 1024 * 1024);
      assert.equal(config.structureCandidates, 3);
      await structureSourcesFromConfig(config).resolveStructure(
        { uniprot: 'P12931', pdb_id: '2SRC', residues: [] },
        { covers: neverCalled },
      );
      assert.ok(existsSync(join(dataDir, 'structures', 'pdb', '2SRC.pdb')));
      const defaults = configFromEnv({});
      assert.equal(defaults.rcsbSearchUrl, 'https://search.rcsb.org/rcsbsearch/v2/query');
      assert.equal(defaults.rcsbFilesUrl, 'https://files.rcsb.org/download/');
      assert.equal(defaults.alphafoldApiUrl, 'https://alphafold.ebi.ac.uk/api/prediction/');
      assert.equal(defaults.structureMaxBytes, 50 * 1024 * 1024);
    });

    it('refuses a base that is not http(s) or carries credentials', () => {
      assert.throws(() => sources({ rcsbFilesUrl: 'file:///etc/' }), /RCSB files URL: must use http or https/);
      assert.throws(
        () => sources({ alphafoldApiUrl: 'https://user:pw@example.org/api/' }),
        /must not contain credentials/,
      );
    });
  });
});
