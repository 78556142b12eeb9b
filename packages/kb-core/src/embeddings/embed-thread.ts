// The local embedder's second thread (embed-helper.ts): a copy of the learner, sent when a catch-up's bulk
// starts and again whenever the learner changed, turns texts into vectors with the code the queue's thread runs,
// so every vector is bit-identical to the one computed there.
import { parentPort } from 'node:worker_threads';
import type { FromEmbedThread, ToEmbedThread } from './embed-helper.js';
import { LocalEmbedder } from './local.js';

let embedder: LocalEmbedder | undefined;
let version = -1;

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
  const reply: FromEmbedThread = { id: m.id, version, rows };
  parentPort!.postMessage(reply, [rows.buffer]);
});
