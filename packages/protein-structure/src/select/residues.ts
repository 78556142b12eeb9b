// Residue labels (`K721`) checked against the chain: first in UniProt numbering, then in the structure's author
// numbering. Papers and requests mix the two (EGFR's K721/L834 are mature-protein numbers, T790 is UniProt), so
// a label that matches only the author numbering is accepted with a warning that says so; one that matches
// neither is an error naming the label and what the chain holds there.
import type { Problem } from '@evident/contract';
import { inputErrors, pathOf } from '../errors.js';
import { oneLetter } from '../model/residue-codes.js';
import type { Chain, Residue, NamedResidue, Structure } from '../model/types.js';
import { chainOf } from './chain.js';
import { authorNumberOf, type ChainNumbering, chainNumbering, coversUniprot, uniprotNumber } from './numbering.js';

export interface ResolvedResidue extends NamedResidue {
  /** The label as given (trimmed). */
  label: string;
  /** Which numbering the label matched. */
  numbering: 'uniprot' | 'author';
}

export interface ResolveOptions {
  /** The accession the labels are numbered for; without it every UniProt segment of the chain counts. */
  uniprot?: string;
  /** The request field of the labels (default `binding_site.residues`); problems are at `<field>/<index>`. */
  field?: string;
}

export interface ResolveResult {
  residues: ResolvedResidue[];
  warnings: string[];
}

/** A binding site names a handful of residues; a few hundred would be a whole domain, not a site. */
export const MAX_LABELS = 200;

const LABEL = /^([A-Za-z]{3}|[A-Za-z])(-?\d+)([A-Za-z]?)$/;

type Status = 'match' | 'mismatch' | 'unresolved' | 'outside' | 'unknown';
/** What one numbering holds at a label's number: a status, the residue if modelled, and a sentence part. */
type Lookup = { status: Status; residue?: Residue; text: string };

export function resolveResidues(
  structure: Structure,
  chain: Chain | string,
  labels: readonly string[],
  options: ResolveOptions = {},
): ResolveResult {
  const field = options.field ?? 'binding_site.residues';
  if (!Array.isArray(labels)) {
    throw inputErrors([{ path: pathOf(field), message: 'must be a list of labels like K721' }]);
  }
  if (labels.length > MAX_LABELS) {
    throw inputErrors([{ path: pathOf(field), message: `names ${labels.length} residues; at most ${MAX_LABELS}` }]);
  }
  const c = chainOf(structure, chain);
  const numbering = chainNumbering(structure, c, options.uniprot);
  const lookup = new ChainLookup(c, numbering);
  const residues: ResolvedResidue[] = [];
  const warnings: string[] = numbering.note ? [numbering.note] : [];
  const problems: Problem[] = [];

  labels.forEach((raw, i) => {
    const label = typeof raw === 'string' ? raw.trim() : '';
    const m = LABEL.exec(label);
    const wanted = m ? letterOf(m[1]!.toUpperCase()) : undefined;
    if (!m || !wanted) {
      problems.push({ path: pathOf(field, i), message: `${JSON.stringify(raw)} is not a residue label like K721` });
      return;
    }
    const n = Number(m[2]);
    const icode = m[3]!.toUpperCase();

    const uni = lookup.uniprot(n, icode, wanted);
    if (uni.status === 'match') {
      residues.push(resolved(label, c, uni.residue!, numbering, 'uniprot'));
      return;
    }
    const auth = lookup.author(n, icode, wanted);
    if (auth.status === 'match') {
      const r = auth.residue!;
      const u = uniprotNumber(numbering, r);
      const equivalent = u !== null ? `UniProt ${r.one_letter}${u}` : 'no UniProt equivalent';
      warnings.push(
        `${label} matches the structure's author numbering (${equivalent}), not UniProt numbering: ${uni.text}. ` +
          'Check which numbering the label uses (mature-protein or legacy numbering differs by the mapping offset).',
      );
      residues.push(resolved(label, c, r, numbering, 'author'));
      return;
    }
    problems.push({ path: pathOf(field, i), message: problemMessage(label, c.id, numbering, icode, uni, auth) });
  });

  if (problems.length) throw inputErrors(problems);
  return { residues, warnings };
}

/** The chain's residues by UniProt and by author number, and what each numbering holds at a number. */
class ChainLookup {
  private readonly byAuthor = new Map<string, Residue>();
  private readonly byUniprot = new Map<number, Residue>();
  private readonly minAuthor: number;
  private readonly maxAuthor: number;

  constructor(
    private readonly chain: Chain,
    private readonly numbering: ChainNumbering,
  ) {
    for (const r of chain.residues) {
      this.byAuthor.set(`${r.author_number}|${r.insertion_code}`, r);
      const u = uniprotNumber(numbering, r);
      if (u !== null && !this.byUniprot.has(u)) this.byUniprot.set(u, r);
    }
    const authors = chain.residues.map((r) => r.author_number);
    this.minAuthor = Math.min(...authors);
    this.maxAuthor = Math.max(...authors);
  }

  /** UniProt numbering; a label with an insertion code is author numbering only (UniProt has none). */
  uniprot(n: number, icode: string, wanted: string): Lookup {
    const nb = this.numbering;
    if (nb.kind === 'none') return { status: 'unknown', text: nb.note! };
    if (icode) return { status: 'unknown', text: 'an insertion code is author numbering only' };
    const r = this.byUniprot.get(n);
    if (r) {
      const at = nb.kind === 'identity' ? '' : `, author ${r.author_number}${r.insertion_code}`;
      return {
        status: r.one_letter === wanted ? 'match' : 'mismatch',
        residue: r,
        text: `UniProt ${n} is ${describe(r, at)}`,
      };
    }
    const inRange = nb.kind === 'mapped' || (n >= this.minAuthor && n <= this.maxAuthor);
    if (coversUniprot(nb, n) && inRange) {
      const a = authorNumberOf(nb, n);
      const at = nb.kind === 'identity' || a === null ? '' : ` (author ${a})`;
      return { status: 'unresolved', text: `UniProt ${n}${at} is not resolved in the model` };
    }
    return { status: 'outside', text: `UniProt ${n} is outside the residues chain ${this.chain.id} covers` };
  }

  author(n: number, icode: string, wanted: string): Lookup {
    const r = this.byAuthor.get(`${n}|${icode}`);
    if (r)
      return {
        status: r.one_letter === wanted ? 'match' : 'mismatch',
        residue: r,
        text: `author ${n}${icode} is ${describe(r)}`,
      };
    const covered = this.numbering.segments.some((s) => n >= s.author_begin && n <= s.author_end);
    if ((n >= this.minAuthor && n <= this.maxAuthor) || covered) {
      return { status: 'unresolved', text: `author ${n}${icode} is not resolved in the model` };
    }
    return {
      status: 'outside',
      text: `author ${n}${icode} is outside the modelled residues ${this.minAuthor}–${this.maxAuthor}`,
    };
  }
}

const describe = (r: Residue, extra = '') => `${r.one_letter} (${r.name}${extra})`;

/** Why neither numbering holds the label: a wrong residue, no coordinates, or outside the chain. */
function problemMessage(
  label: string,
  chain: string,
  numbering: ChainNumbering,
  icode: string,
  uni: Lookup,
  auth: Lookup,
): string {
  const same = numbering.kind === 'identity' && !icode;
  const texts = (same ? [auth.text.replace(/^author/, 'residue')] : [uni.text, auth.text]).join('; ');
  const statuses = same ? [auth.status] : [uni.status, auth.status];
  let message: string;
  if (statuses.includes('mismatch')) message = `${label} does not match chain ${chain}: ${texts}`;
  else if (statuses.includes('unresolved')) {
    message = `${label} is not resolved in chain ${chain} of the model (no coordinates, e.g. a disordered loop): ${texts}`;
  } else message = `${label} is not in chain ${chain}: ${texts}`;
  if (icode) message += ` (the trailing ${icode} is read as an insertion code; a mutation is not a residue label)`;
  return message;
}

const ONE_LETTER_CODES = /^[ACDEFGHIKLMNPQRSTVWYUO]$/;

/** `K` or `LYS` → `K`; undefined for anything that is not an amino acid. */
function letterOf(code: string): string | undefined {
  if (code.length === 1) return ONE_LETTER_CODES.test(code) ? code : undefined;
  const one = oneLetter(code);
  return one === 'X' ? undefined : one;
}

function resolved(
  label: string,
  chain: Chain,
  r: Residue,
  numbering: ChainNumbering,
  matched: 'uniprot' | 'author',
): ResolvedResidue {
  return {
    label,
    chain: chain.id,
    author_number: r.author_number,
    insertion_code: r.insertion_code,
    uniprot_number: uniprotNumber(numbering, r),
    name: r.name,
    numbering: matched,
  };
}
