export { describeMolecule, analyseSmiles, type MoleculeProperties } from './chem/describe.js';
export { CompoundGenerationError, InvalidSmilesError, InvalidRequestError, GenerationAbortedError, type FieldProblem } from './errors.js';
export { loadRDKit } from './rdkit.js';
