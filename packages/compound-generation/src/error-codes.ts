// The engine's error codes in one table: code → HTTP status (null: not a caller's mistake, so no status of its
// own) and meaning. CompoundGenerationError takes its status from it; test/error-catalogue.test.ts checks that
// every code thrown in src is in it (issue 39, point 2).
import { defineCatalogue } from '@evident/contract';

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
export const COMPOUND_GENERATION_ERRORS = defineCatalogue({
  invalid_parameters: {
    status: 400,
    meaning: 'a generation request or optimizer option the engine refuses, every problem by JSON pointer',
  },
  invalid_smiles: { status: 400, meaning: 'a SMILES that RDKit cannot parse or sanitize (describeMolecule)' },
  invalid_profile: {
    status: 400,
    meaning: 'a scoring profile that cannot be loaded, every problem by JSON pointer into the document',
  },
  aborted: { status: null, meaning: 'the run was aborted through its AbortSignal' },
  external_scorer_failed: {
    status: null,
    meaning: 'an external scorer process failed (`reason`: spawn_failed, exit_status, timeout, …)',
  },
  docking_unavailable: {
    status: null,
    meaning: 'options.docking is on but no docking engine was given (hooks.target): a setup of the host, not a request',
  },
  profile_disposed: { status: null, meaning: 'a scoring profile used after it was disposed' },
});

export type CompoundGenerationCode = keyof typeof COMPOUND_GENERATION_ERRORS;
