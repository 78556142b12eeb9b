// The export end to end, the same on every KB store: real jobs over HTTP, exported into a fresh base, read back
// with their provenance; a repeated export stores nothing; a second job corroborates; retraction takes back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import type { JobStatus } from '@evident/job-service';
import { bio, type Claim, type KbDB, type Vocabulary } from '@evident/kb';
import {
  claimsFromJob,
  confidenceFromAdjustedP,
  EXPORT_VOCABULARY,
  exportToKb,
  type ExportResult,
} from '../src/index.js';
import {
  designRequest,
  discoveryRequest,
  scoringRequest,
  runCli,
  runJobsCli,
  startJobService,
  type JobService,
} from './helpers.js';

export interface FreshKb {
  /** What `--kb` takes: a file path or a postgres:// URL. */
  location: string;
  db: KbDB;
  cleanup(): Promise<void>;
}

const geneOf = (t: any): string => t.gene_symbol ?? t.feature_id;
const fromJob = (claims: Claim[], job: JobStatus) =>
  claims.filter((c) => c.provenance.source_id === `evident-job:${job.job_id}`);

export function exportSuite(name: string, freshKb: () => Promise<FreshKb>, skip: string | false = false): void {
  describe(name, { skip }, () => {
    let svc: JobService;
    let td1: JobStatus;
    let td2: JobStatus;
    let cg: JobStatus;
    let cgScoring: JobStatus;
    let kb: FreshKb;
    let results: any;
    let first: ExportResult;
    const caseValue = discoveryRequest().case_value as string;

    before(async () => {
      svc = await startJobService();
      // The same study submitted twice: two jobs, two sources of the same findings.
      [td1, td2, cg, cgScoring] = await Promise.all([
        svc.run('/v1/targets/discover', discoveryRequest()),
        svc.run('/v1/targets/discover', discoveryRequest()),
        svc.run('/v1/compounds/generate', designRequest),
        svc.run('/v1/compounds/generate', scoringRequest),
      ]);
      results = await svc.client.getResults(td1.job_id);
      kb = await freshKb();
    });
    after(async () => {
      await kb?.cleanup();
      await svc?.close();
    });

    test("a discovery job's targets become up/down-regulated claims carrying the job's provenance", async () => {
      assert.ok(results.targets.length >= 5, `the example lists ${results.targets.length} targets`);
      first = await exportToKb(svc.client, td1.job_id, kb.db);
      const keys = new Set(results.targets.map((t: any) => `${geneOf(t)}|${t.log2_fold_change > 0}`));
      assert.equal(first.claims, results.targets.length);
      assert.equal(first.ingested, keys.size);
      assert.equal(first.ingested + first.duplicates, first.claims);
      assert.equal(first.source_id, `evident-job:${td1.job_id}`);
      assert.equal(first.job_url, td1.results_url);

      let up = 0;
      for (const t of results.targets) {
        const id = await kb.db.resolve(geneOf(t), 'gene');
        assert.ok(id, `${geneOf(t)} is an entity`);
        const predicate = t.log2_fold_change > 0 ? 'upregulated_in' : 'downregulated_in';
        if (t.log2_fold_change > 0) up++;
        const mine = fromJob(await kb.db.claimsFor(id!), td1).filter((c) => c.predicate[0] === predicate);
        assert.equal(mine.length, 1, `${geneOf(t)} ${predicate}`);
        const c = mine[0]!;
        // The case value is a sample group of the request's condition column: a condition, not a disease.
        assert.deepEqual(c.object, [caseValue, 'condition']);
        assert.equal(c.object_id, `condition:${caseValue}`);
        assert.equal(c.predicate[1], 'expression');
        assert.equal(c.provenance.source_type, 'differential_expression');
        assert.equal(c.provenance.job_url, td1.results_url);
        assert.equal(c.provenance.method, results.summary.pipeline.name);
        assert.equal(c.provenance.created_at, td1.completed_at);
        const p = c.payload as Record<string, unknown>;
        assert.equal(p.adj_p_value, t.adjusted_p_value);
        assert.equal(p.log2_fold_change, t.log2_fold_change);
        assert.equal(p.average_expression, t.average_expression);
        assert.equal(p.priority_score, t.priority_score);
        assert.equal(p.druggability_tier, t.druggability?.tier ?? null);
        assert.equal(p.control_value, discoveryRequest().control_value);
        assert.equal(c.confidence, Math.min(0.99, Math.max(0.5, 1 - t.adjusted_p_value)));
      }
      assert.ok(up > 0 && up < results.targets.length, 'both directions are found in the example');
      const condition = await kb.db.getEntity(`condition:${caseValue}`);
      assert.equal(condition?.type, 'condition');
      assert.equal(condition?.name, caseValue);
      assert.equal(await kb.db.resolve(caseValue, 'disease'), null, 'no disease is made of a sample group');
      const frame = await kb.db.query(caseValue, { depth: 1 });
      assert.deepEqual(
        new Set(frame.direct_relationships.map((r) => r.predicate)),
        new Set(['upregulated_in', 'downregulated_in']),
      );
    });

    test('exporting the same job again stores nothing new', async () => {
      const before = await kb.db.stats();
      const again = await exportToKb(svc.client, td1.job_id, kb.db);
      assert.equal(again.ingested, 0);
      assert.equal(again.duplicates, first.claims);
      assert.deepEqual(again.claim_ids, first.claim_ids);
      assert.deepEqual(again.registered_predicates, []);
      const now = await kb.db.stats();
      assert.equal(now.total_claims, before.total_claims);
      const seq = (s: object) => (s as { log_seq?: number }).log_seq;
      assert.equal(typeof seq(before), 'number');
      assert.equal(seq(now), seq(before), 'not even a registration was appended to the log');
    });

    test('a second job that finds the same genes corroborates them', async () => {
      const corroborated: string[] = [];
      const on = (e: { content_id: string; count: number }) => {
        if (e.count === 2) corroborated.push(e.content_id);
      };
      kb.db.on('claim_corroborated', on);
      const second = await exportToKb(svc.client, td2.job_id, kb.db);
      kb.db.off('claim_corroborated', on);
      assert.equal(second.ingested, first.ingested, 'the same study gives the same findings');
      assert.equal(corroborated.length, second.ingested);
      const gene = await kb.db.resolve(geneOf(results.targets[0]), 'gene');
      const rel = (await kb.db.query(gene!, { depth: 1 })).direct_relationships.find((r) =>
        r.predicate.endsWith('regulated_in'),
      );
      assert.equal(rel?.source_count, 2);
    });

    test("a compound job's molecules: designed_for the target by its gene symbol, each by a readable label", async () => {
      const design: any = await svc.client.getResults(cg.job_id);
      assert.equal(design.target.uniprot, 'P00533');
      const r = await exportToKb(svc.client, cg.job_id, kb.db);
      assert.equal(r.claims, design.molecules.length);
      assert.equal(r.ingested, design.molecules.length);
      const label = (m: any) => `${cg.job_id} #${m.rank}`;
      // The aliases are registered once, as the job's own vocabulary.
      assert.deepEqual(new Set(r.registered_names), new Set(['P00533', ...design.molecules.map(label)]));
      assert.ok((await kb.db.schema()).registered.vocabularies.includes(`evident-job.${cg.job_id}`));

      // The target: named by its gene symbol (P00533 is EGFR in the gene table), the accession an alias of it.
      const target = await kb.db.resolve('EGFR', 'protein');
      assert.equal(target, 'protein:egfr');
      assert.equal(await kb.db.resolve('P00533', 'protein'), target, 'the accession finds the same entity');
      const protein = await kb.db.getEntity(target!);
      assert.equal(protein?.name, 'EGFR');
      assert.equal(protein?.type, 'protein');
      assert.deepEqual(
        (await kb.db.listEntities({ entity_type: 'protein' })).map((e) => e.id),
        ['protein:egfr'],
        'no entity is named by the accession',
      );

      const claims = fromJob(await kb.db.claimsFor(target!), cg);
      assert.equal(claims.length, design.molecules.length);
      for (const m of design.molecules) {
        const c = claims.find((x) => (x.payload as { smiles: string }).smiles === m.smiles);
        assert.ok(c, `molecule ${m.rank}`);
        // The claim reads `cg_… #1 designed_for EGFR`; the molecule's entity is its InChIKey.
        assert.deepEqual(c.subject, [label(m), 'compound']);
        assert.deepEqual(c.object, ['EGFR', 'protein']);
        assert.equal(c.object_id, target);
        assert.match(m.inchikey, /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/);
        assert.equal(c.subject_id, `compound:${m.inchikey.toLowerCase()}`);
        const compound = await kb.db.getEntity(c.subject_id);
        assert.equal(compound?.name, m.inchikey);
        assert.equal(compound?.type, 'compound');
        assert.deepEqual(compound?.aliases, [label(m)]);
        assert.equal(await kb.db.resolve(label(m), 'compound'), c.subject_id);
        assert.deepEqual(c.predicate, ['designed_for', 'pharmacology']);
        assert.equal(c.provenance.source_type, 'generative_design');
        assert.equal(c.provenance.job_url, cg.results_url);
        const p = c.payload as Record<string, unknown>;
        assert.equal(p.label, label(m));
        assert.equal(p.inchikey, m.inchikey);
        assert.equal(p.target_uniprot, 'P00533');
        assert.equal(p.qed, m.properties.qed);
        assert.equal(p.sa_score, m.properties.sa_score);
        assert.equal('docking_score' in p, false, 'no docking in the engine yet');
      }
      const seq = async () => ((await kb.db.stats()) as { log_seq?: number }).log_seq;
      const before = await seq();
      const again = await exportToKb(svc.client, cg.job_id, kb.db);
      assert.equal(again.ingested, 0);
      assert.deepEqual(again.registered_names, []);
      assert.equal(await seq(), before, 'a repeated export appends nothing, not even its names');
    });

    test('the CLI exports into the same base and a repeat is a no-op', async () => {
      const env = { EVIDENT_URL: svc.url, EVIDENT_API_KEY: svc.key };
      // The test's own handle stays open: the CLI is another process on the same base.
      const out = await runCli([cg.job_id, '--kb', kb.location, '--top', '2'], env);
      assert.equal(out.code, 0, out.stderr);
      const r = JSON.parse(out.stdout);
      assert.equal(r.claims, 2);
      assert.equal(r.ingested, 0);
      assert.equal(r.duplicates, 2);
      // The command form, `evident-jobs export`, runs the same program with the same arguments.
      const viaJobs = await runJobsCli(['export', cg.job_id, '--kb', kb.location, '--top', '2'], env);
      assert.equal(viaJobs.code, 0, viaJobs.stderr);
      assert.deepEqual(JSON.parse(viaJobs.stdout), r);
      const bad = await runCli([td1.job_id, '--kb', kb.location, '--min-priority', '300'], env);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /invalid_parameters/);
      assert.match(bad.stderr, /\/min_priority: must be a number from 0 to 100/);
      // An unknown job or a wrong key is refused before the base is opened: no empty base is left behind.
      const dir = tempDir('jobs-to-kb-cli-');
      try {
        const nowhere = join(dir.path, 'never.kb');
        const unknown = await runCli(['td_0000000000000000', '--kb', nowhere], env);
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /job API error 404/);
        const wrongKey = await runCli([td1.job_id, '--kb', nowhere], { ...env, EVIDENT_API_KEY: 'evk_wrong' });
        assert.equal(wrongKey.code, 1);
        assert.match(wrongKey.stderr, /job API error 401 unauthorized/);
        assert.equal(existsSync(nowhere), false);
      } finally {
        dir.cleanup();
      }
    });

    test("retracting a job's source removes its findings; the other job's stay", async () => {
      const gene = await kb.db.resolve(geneOf(results.targets[0]), 'gene');
      const r1 = await kb.db.retractCascade(`evident-job:${td1.job_id}`, 'the study was re-run');
      assert.equal(r1.claim_ids.length, first.ingested);
      let active = await kb.db.claimsFor(gene!);
      assert.equal(fromJob(active, td1).length, 0);
      assert.equal(fromJob(active, td2).length, 1);
      assert.ok(fromJob(await kb.db.claimsFor(gene!, { status: 'all' }), td1).every((c) => c.status === 'retracted'));
      await kb.db.retractCascade(`evident-job:${td2.job_id}`, 'the study was withdrawn');
      active = await kb.db.claimsFor(gene!);
      assert.equal(active.filter((c) => c.predicate[0].endsWith('regulated_in')).length, 0);
      await kb.db.retractCascade(`evident-job:${cg.job_id}`, 'withdrawn');
      const target = await kb.db.resolve('EGFR', 'protein');
      assert.equal(target === null ? 0 : (await kb.db.claimsFor(target)).length, 0);
    });

    test('--min-priority and --top select findings; docking scores, when present, add predicted_to_bind', async () => {
      const all = claimsFromJob(td1, results);
      const cut = results.targets[Math.floor(results.targets.length / 2)].priority_score;
      const some = claimsFromJob(td1, results, { min_priority: cut });
      assert.equal(some.length, results.targets.filter((t: any) => t.priority_score >= cut).length);
      assert.ok(some.length < all.length);
      assert.deepEqual(
        claimsFromJob(td1, results, { min_priority: cut, top: 2 }).map((c) => c.subject[0]),
        some.slice(0, 2).map((c) => c.subject[0]),
      );
      const named = claimsFromJob(td1, results, { condition: 'prostate cancer', condition_type: 'phenotype' });
      assert.deepEqual(named[0]!.object, ['prostate cancer', 'phenotype']);
      assert.equal(confidenceFromAdjustedP(0.2), 0.8);

      const design: any = await svc.client.getResults(cg.job_id);
      design.molecules[0].docking_score = -9.5;
      design.molecules[1].docking = { score: -4, pose_url: 'https://example.org/pose/1.pdbqt' };
      const claims = claimsFromJob(cg, design);
      const bind = claims.filter((c) => c.predicate[0] === 'predicted_to_bind');
      assert.equal(bind.length, 2);
      assert.equal(claims.length, design.molecules.length + 2);
      assert.ok(bind[0]!.confidence! > bind[1]!.confidence!, 'a stronger docking score is more confident');
      assert.equal((bind[1]!.payload as { pose_url?: string }).pose_url, 'https://example.org/pose/1.pdbqt');
      assert.throws(() => claimsFromJob(cg, design, { min_priority: 10 }), /min_priority/);
    });

    test("a scoring-mode compound job's molecules: designed_for the target, with the profile's score and the optimizer", async () => {
      const design: any = await svc.client.getResults(cgScoring.job_id);
      assert.equal(design.mode, 'scoring');
      const claims = claimsFromJob(cgScoring, design);
      assert.equal(claims.length, design.molecules.length);
      assert.ok(claims.length > 0);
      for (const [i, c] of claims.entries()) {
        const m = design.molecules[i];
        assert.deepEqual(c.subject, [`${cgScoring.job_id} #${m.rank}`, 'compound']);
        assert.deepEqual(c.predicate, ['designed_for', 'pharmacology']);
        assert.deepEqual(c.object, ['EGFR', 'protein']);
        assert.equal(c.provenance.method, `optimize:${design.strategy}`);
        assert.equal(c.provenance.source_id, `evident-job:${cgScoring.job_id}`);
        const p = c.payload as any;
        assert.equal(p.smiles, m.smiles);
        assert.equal(p.profile_score, m.score);
        assert.equal(p.call, m.call);
        assert.deepEqual(
          p.components.map((e: any) => e.name),
          ['qed'],
        );
        assert.equal(p.components[0].value, m.components[0].value);
        assert.equal(p.max_oracle_calls, 60);
      }
      const own = await freshKb();
      try {
        const r = await exportToKb(svc.client, cgScoring.job_id, own.db, { top: 2 });
        assert.equal(r.ingested, 2);
      } finally {
        await own.cleanup();
      }
      const broken = { ...design, molecules: [{ ...design.molecules[0], score: 'high' }] };
      assert.throws(
        () => claimsFromJob(cgScoring, broken),
        (e: any) => e.code === 'unexpected_results' && JSON.stringify(e.problems).includes('/molecules/0/score'),
      );
    });

    test('a base that registered an older bio (no condition type) is brought up to date before the export writes', async () => {
      // bio as it was before `condition`: upregulated_in / downregulated_in took a disease or a phenotype only.
      const before: Vocabulary = {
        ...bio,
        entity_types: bio.entity_types!.filter((t) => t !== 'condition'),
        predicates: {
          ...bio.predicates,
          upregulated_in: { ...bio.predicates!.upregulated_in!, object_types: ['disease', 'phenotype'] },
          downregulated_in: { ...bio.predicates!.downregulated_in!, object_types: ['disease', 'phenotype'] },
        },
      };
      const old = await freshKb();
      try {
        await old.db.registerVocabulary('bio', before);
        const r = await exportToKb(svc.client, td1.job_id, old.db, { top: 3 });
        assert.deepEqual(r.registered_predicates, ['upregulated_in', 'downregulated_in']);
        assert.ok((await old.db.schema()).registered.vocabularies.includes(EXPORT_VOCABULARY));
        const claims = fromJob(await old.db.claimsFor(`condition:${caseValue}`), td1);
        assert.equal(claims.length, 3);
        for (const c of claims) {
          assert.equal(c.object[1], 'condition');
          assert.equal(c.warnings, undefined, JSON.stringify(c.warnings));
        }
        const predicates = (await old.db.schema()).registered.predicates;
        assert.ok(predicates.upregulated_in!.object_types.includes('condition'));
        // A disease, as the caller may say, still fits; and a second export registers nothing.
        const again = await exportToKb(svc.client, td1.job_id, old.db, { top: 3, condition_type: 'disease' });
        assert.deepEqual(again.registered_predicates, []);
        assert.equal(again.ingested, 3);
        const disease = fromJob(await old.db.claimsFor(`disease:${caseValue}`), td1);
        assert.ok(disease.length === 3 && disease.every((c) => c.warnings === undefined));
      } finally {
        await old.cleanup();
      }
    });
  });
}
