// The child process of text-extraction.ts: answers each { text, seed } with kb-extract's heuristic extraction
// (extractTextHeuristic), or the error it threw as data. It exits when the console that started it goes away.
import { serializeError } from '@evident/contract';
import { type ExtractSeed, extractTextHeuristic } from '@evident/kb';

process.on('disconnect', () => process.exit(0));
process.on('message', (m: { text: string; seed: ExtractSeed }) => {
  let answer: object;
  try {
    answer = { out: extractTextHeuristic(m.text, m.seed) };
  } catch (e) {
    answer = { error: serializeError(e) };
  }
  process.send!(answer);
});
process.send!({ ready: true });
