// The local embedder's second thread (embed-helper.ts): a copy of the learner, sent when a catch-up's bulk
// starts and again whenever the learner changed, turns texts into vectors with the code the queue's thread runs,
// so every vector is bit-identical to the one computed there; for the local lanes' codes and exact rows, it
// encodes them too (binary-set.ts, encodeRows), as the queue's thread would on storing them.
import { parentPort } from 'node:worker_threads';
import type { FromEmbedThread, ToEmbedThread } from './embed-helper.js';
import { encodeRows } from './binary-set.js';
import { SignCoder } from './binary-codes.js';
import { LocalEmbedder } from './local.js';

let embedder: LocalEmbedder | undefined;
let version = -1;
let coder: SignCoder | undefined;

parentPort!.on('message', (m: ToEmbedThread) => {
  if (m.op === 'close') {
    parentPort!.close();
    return;
  }
  if (m.op === 'learner') {
    embedder = new LocalEmbedder(m.dim);
    embedder.importState(m.state);
    version = m.version;
    return;
  }
  const e = embedder!;
  const rows = new Float32Array(m.texts.length * e.dim);
  for (let i = 0; i < m.texts.length; i++) rows.set(e.embedText(m.texts[i]!), i * e.dim);
  if (!m.encode) {
    const reply: FromEmbedThread = { id: m.id, version, rows };
    parentPort!.postMessage(reply, [rows.buffer]);
    return;
  }
  // For a set of codes and exact rows, the codes too (the rest of a vector's cost): the queue copies them in.
  if (coder?.dim !== e.dim) coder = new SignCoder(e.dim);
  const { exact, codes } = encodeRows(rows, e.dim, coder);
  const reply: FromEmbedThread = { id: m.id, version, exact, codes };
  parentPort!.postMessage(reply, [exact.buffer as ArrayBuffer, codes.buffer as ArrayBuffer]);
});
