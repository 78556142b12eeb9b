// Which chain a request means, and its sequence.
import { inputError } from '../errors.js';
import type { Chain, Structure } from '../model/types.js';

export interface SelectChainOptions {
  /** Author chain id; when given it must exist and hold protein. */
  chain?: string;
  /** UniProt accession: without `chain`, the first protein chain mapped to it is taken. */
  uniprot?: string;
  /** The request field of `chain`, for errors (default `chain`). */
  field?: string;
}

/** The named chain, else the first protein chain mapped to `uniprot`, else the first protein chain. */
export function selectChain(structure: Structure, options: SelectChainOptions = {}): Chain {
  const field = options.field ?? 'chain';
  if (options.chain !== undefined) {
    const chain = structure.chains.find((c) => c.id === options.chain);
    if (!chain) {
      const het = structure.het_groups.some((g) => g.chain === options.chain);
      throw inputError(
        field,
        `chain ${JSON.stringify(options.chain)} ${het ? 'holds no polymer (only het groups)' : 'is not in the structure'}; protein chains: ${proteinChainIds(structure)}`,
      );
    }
    if (!chain.protein) {
      throw inputError(field, `chain ${chain.id} holds no protein; protein chains: ${proteinChainIds(structure)}`);
    }
    return chain;
  }
  const proteins = structure.chains.filter((c) => c.protein);
  if (options.uniprot) {
    const acc = options.uniprot.toUpperCase();
    const mapped = proteins.find((c) =>
      structure.mappings.some((m) => m.chain === c.id && m.accession.toUpperCase() === acc),
    );
    if (mapped) return mapped;
  }
  const first = proteins[0];
  // parseStructure refuses a structure without protein, so only a hand-made one gets here.
  if (!first) throw inputError(field, 'the structure has no protein chain');
  return first;
}

/** The chain object for a chain or its id (an unknown id is an error naming `chain`). */
export function chainOf(structure: Structure, chain: Chain | string, field = 'chain'): Chain {
  if (typeof chain !== 'string') return chain;
  return selectChain(structure, { chain, field });
}

/** One-letter sequence of the chain's modelled residues, in file order (unresolved residues are absent). */
export function sequence(structure: Structure, chain: Chain | string): string {
  return chainOf(structure, chain)
    .residues.map((r) => r.one_letter)
    .join('');
}

function proteinChainIds(structure: Structure): string {
  const ids = structure.chains.filter((c) => c.protein).map((c) => c.id || '(blank)');
  return ids.length ? ids.join(', ') : 'none';
}
