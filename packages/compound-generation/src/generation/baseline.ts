// Baseline for the benchmark: random enumeration from the same fragment library, scored and filtered by the
// same evaluator, at a given number of evaluations; the best diverse subset is "returned".
import { loadRDKit } from '../rdkit.js';
import type { GenerationInput } from '../request.js';
import { Evaluator, selectDiverse, type Evaluated } from '../scoring/evaluate.js';
import { FragmentLibrary } from './library.js';
import { Random } from './prng.js';

export async function randomEnumerationBaseline(
  input: GenerationInput,
  evaluations: number,
): Promise<{ selected: Evaluated[]; evaluator: Evaluator; archive: Evaluated[] }> {
  const rd = await loadRDKit();
  const library = FragmentLibrary.load();
  const rng = new Random(input.options.seed ^ 0x5bd1e995);
  const evaluator = new Evaluator(rd, input);
  const archive: Evaluated[] = [];
  let misses = 0;
  while (evaluator.stats.evaluations < evaluations && misses < 50 * evaluations) {
    const s = library.assemble(rd, rng);
    const r = s ? evaluator.evaluate(s) : { result: null, isNew: false };
    if (r.result && r.isNew) {
      if (r.result.passes) archive.push(r.result);
    } else misses++;
  }
  return { selected: selectDiverse(archive, input.num_molecules, input.options.similarity_cap), evaluator, archive };
}
