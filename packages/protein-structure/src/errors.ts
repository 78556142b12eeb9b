// Every bad input becomes the contract's InvalidParametersError (400, `invalid_parameters`) whose problem paths
// are JSON pointers under the field the caller names, so a surface reports a structure problem like any other.
// PROTEIN_STRUCTURE_ERRORS is the one table of its codes (the README's is checked against it, with every code
// thrown in src).
import {
  defineCatalogue,
  fieldToPointer,
  INVALID_PARAMETERS,
  InvalidParametersError,
  type Problem,
} from '@evident/contract';

export const PROTEIN_STRUCTURE_ERRORS = defineCatalogue({
  [INVALID_PARAMETERS]: {
    status: 400,
    meaning: 'a structure, chain, residue list, pocket, margin or cutoff the function does not take, by JSON pointer',
  },
});

/** `field` (dotted like `binding_site.residues` or a JSON pointer) plus sub-segments → a JSON pointer. */
export function pathOf(field: string, ...segments: (string | number)[]): string {
  const base = fieldToPointer(field);
  const tail = segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return base + tail;
}

export function inputError(field: string, message: string, ...segments: (string | number)[]): InvalidParametersError {
  return new InvalidParametersError([{ path: pathOf(field, ...segments), message }]);
}

export function inputErrors(problems: Problem[]): InvalidParametersError {
  return new InvalidParametersError(problems);
}
