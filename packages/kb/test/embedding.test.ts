// The `embedding` and `embedding_dim` options of open/quickstart/restore: what kb-core receives for each, and
// the refusals at open. The provider ports are exercised against the local server of kb-extract's tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import {
  coreEmbedding,
  KbDB,
  KbEmbeddingError,
  open,
  openEmbedding,
  quickstart,
  type EmbeddingPort,
} from '@evident/kb';
import { startFakeEmbedder, vectorOf } from '../../kb-extract/test/fixtures/embeddings/fake-embedder.js';

test('off, default and local: false turns embeddings off; local passes no port; embedding_dim is left to kb-core', () => {
  assert.equal(coreEmbedding({}), undefined, 'nothing given: kb-core decides');
  assert.equal(coreEmbedding({ embedding: false }), false);
  assert.equal(coreEmbedding({ embedding_dim: null }), undefined, 'kb-core reads embedding_dim itself');
  assert.equal(coreEmbedding({ embedding_dim: 384 }), undefined);
  assert.deepEqual(coreEmbedding({ embedding: { provider: 'local' } }), {});
  assert.deepEqual(coreEmbedding({ embedding: {} as never }), {}, 'the provider defaults to local');
  assert.deepEqual(coreEmbedding({ embedding: { provider: 'local' }, embedding_dim: 256 }), {});
});

test('a provider configuration becomes a working port (real SDK client against the local server)', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  const out = coreEmbedding(
    { embedding: { provider: 'mistral', api_key: 'k-mistral', base_url: fake.baseUrl('mistral') }, embedding_dim: 8 },
    {},
  );
  assert.ok(out && 'port' in out && out.port);
  const port = out.port;
  assert.deepEqual([port.provider, port.model, port.dim], ['mistral', 'mistral-embed', 8], 'embedding_dim is the dim');
  const vectors = await port.embed(['olaparib inhibits PARP1', 'BRCA1 mutation']);
  assert.deepEqual(vectors[1], Float32Array.from(vectorOf('BRCA1 mutation', 8)));
  assert.equal(fake.requests[0]!.headers.authorization, 'Bearer k-mistral');

  // Ollama: no key, the model given, the dim learned from the first answer.
  const ollama = coreEmbedding(
    { embedding: { provider: 'ollama', model: 'my-embedder', base_url: fake.baseUrl('ollama') } },
    {},
  );
  assert.ok(ollama && 'port' in ollama && ollama.port);
  assert.equal(ollama.port.dim, 0);
  await ollama.port.embed(['x']);
  assert.equal(ollama.port.dim, 8);
  assert.equal(fake.requests.at(-1)!.model, 'my-embedder');

  // An embedder of one's own goes through untouched.
  const own: EmbeddingPort = {
    provider: 'mine',
    model: 'm',
    dim: 3,
    embed: async (texts) => texts.map(() => new Float32Array(3)),
  };
  assert.equal((coreEmbedding({ embedding: { port: own } }) as { port: EmbeddingPort }).port, own);
});

test('bad configurations are refused with embedding_config, naming the field under embedding', () => {
  const refused = (field: string, message: RegExp) => (e: unknown) => {
    assert.ok(e instanceof KbEmbeddingError, String(e));
    assert.equal(e.code, 'embedding_config');
    assert.equal(e.status, 400);
    assert.equal(e.field, field);
    assert.match(e.message, message);
    assert.equal(e.problems?.[0]?.path, `/${field.replace(/\./g, '/')}`);
    return true;
  };
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'voyage' } as never }, {}),
    refused('embedding.provider', /unknown provider 'voyage'; use local, openai/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'cohere' } }, {}),
    refused('embedding.api_key', /COHERE_API_KEY/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'openai', api_key: 'k', base_url: 'ftp://x/v1' } }, {}),
    refused('embedding.base_url', /http or https only/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' } }, {}),
    refused('embedding.model', /no default model/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'openai', api_key: 'k', dim: -3 } }, {}),
    refused('embedding.dim', /integer/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'local', model: 'x' } as never }),
    refused('embedding.model', /local embedder takes no options/),
  );
  assert.throws(() => coreEmbedding({ embedding: 'openai' as never }), refused('embedding', /must be \{ provider/));
  assert.throws(() => coreEmbedding({ embedding: true as never }), refused('embedding', /or false/));
  assert.throws(() => coreEmbedding({ embedding_dim: 0 }), refused('embedding_dim', /integer from 1/));
  assert.throws(() => coreEmbedding({ embedding_dim: '384' as never }), refused('embedding_dim', /integer from 1/));
  assert.throws(
    () => coreEmbedding({ embedding: false, embedding_dim: 384 }),
    refused('embedding_dim', /embedding is false/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'local' }, embedding_dim: null }),
    refused('embedding_dim', /is null/),
  );
  assert.throws(
    () => coreEmbedding({ embedding: { provider: 'openai', api_key: 'k', dim: 256 }, embedding_dim: 512 }),
    refused('embedding_dim', /is 512, but embedding.dim is 256/),
  );
  assert.throws(() => coreEmbedding({ embedding: { port: {} } as never }), refused('embedding.port', /embed\(texts/));
  // A base URL from the environment keeps the variable's name.
  assert.throws(
    () =>
      coreEmbedding(
        { embedding: { provider: 'openai' } },
        { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://remote.example/v1' },
      ),
    refused('OPENAI_BASE_URL', /clear text/),
  );
});

test('open, quickstart, KbDB.open and KbDB.restore refuse a bad configuration before touching the path', async (t) => {
  const dir = tempDir('evident-kb-embedding-');
  t.after(dir.cleanup);
  const saved = process.env.COHERE_API_KEY;
  delete process.env.COHERE_API_KEY;
  t.after(() => {
    if (saved !== undefined) process.env.COHERE_API_KEY = saved;
  });
  const path = join(dir.path, 'x.kb');
  const missingKey = { code: 'embedding_config', field: 'embedding.api_key' };
  await assert.rejects(open(path, { embedding: { provider: 'cohere' } }), missingKey);
  await assert.rejects(quickstart(path, { embedding: { provider: 'cohere' } }), missingKey);
  await assert.rejects(KbDB.open(path, { embedding: { provider: 'nope' } } as never), {
    code: 'embedding_config',
    field: 'embedding.provider',
  });
  await assert.rejects(open(path, { embedding_dim: -1 }), { code: 'embedding_config', field: 'embedding_dim' });
  assert.equal(existsSync(path), false, 'no base was created');

  // Without the options, bases open as before; restore checks the configuration too.
  const base = await open(path);
  const snap = await base.snapshot(join(dir.path, 'snap.kb'));
  await base.close();
  await assert.rejects(
    KbDB.restore(snap.path, join(dir.path, 'r.kb'), { embedding: { provider: 'cohere' } } as never),
    missingKey,
  );
  assert.equal(existsSync(join(dir.path, 'r.kb')), false);
});

test('a model of unknown length: open asks the provider once for it; a failed request fails the open', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  fake.dim = 24;
  const choice = await openEmbedding(
    { embedding: { provider: 'openai-compatible', model: 'e5-small', base_url: fake.baseUrl('compat') } },
    {},
  );
  assert.ok(choice && choice.port !== undefined);
  assert.equal(choice.port.dim, 24, 'learned before kb-core sizes its index');
  assert.deepEqual(
    fake.requests.map((r) => r.texts),
    [['dimension probe']],
  );
  // Known or given lengths are not asked for.
  await openEmbedding({ embedding: { provider: 'ollama', base_url: fake.baseUrl('ollama') } }, {});
  await openEmbedding({ embedding: { provider: 'ollama', model: 'x', dim: 24, base_url: fake.baseUrl('ollama') } }, {});
  assert.equal(fake.requests.length, 1);

  const dir = tempDir('evident-kb-embedding-');
  t.after(dir.cleanup);
  const path = join(dir.path, 'probe.kb');
  fake.script.push({ status: 400 });
  await assert.rejects(
    open(path, { embedding: { provider: 'ollama', model: 'custom', base_url: fake.baseUrl('ollama') } }),
    (e: unknown) => {
      assert.ok(e instanceof KbEmbeddingError);
      assert.equal(e.code, 'embedding_config');
      assert.equal(e.field, 'embedding.dim');
      assert.match(e.message, /custom's vectors is not known.*HTTP 400.*give dim/);
      return true;
    },
  );
  assert.equal(existsSync(path), false);
});
