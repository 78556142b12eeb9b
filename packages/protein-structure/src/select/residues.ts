// Residue labels (`K721`) checked against the chain: first in UniProt numbering, then in the structure's author
// numbering. Papers and requests mix the two (EGFR's K721/L834 are mature-protein numbers, T790 is UniProt), so
// a label that matches only the author numbering is accepted with a warning that says so; one that matches
// neither is an error naming the label and what the chain holds there.
import type { Problem } from '@evident/contract';
import { inputErrors, pathOf } from '../errors.js';
import { oneLetter } from '../model/residue-codes.js';
import type { Chain, Residue, Structure } from '../model/types.js';
import { chainOf } from './chain.js';
import { authorNumberOf, type ChainNumbering, chainNumbering, coversUniprot, uniprotNumber } from './numbering.js';

export interface ResolvedResidue {
  /** The label as given (trimmed). */
  label: string;
  chain: string;
  author_number: number;
  insertion_code: string;
  uniprot_number: number | null;
  /** Residue name in the structure ('LYS'). */
  name: string;
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

type Lookup = { status: 'match' | 'mismatch' | 'unresolved' | 'outside' | 'unknown'; residue?: Residue; text: string };

export function resolveResidues(
  structure: Structure,
  chain: Chain | string,
  labels: readonly string[],
  options: ResolveOptions = {},
): ResolveResult {
  const field = options.field ?? 'binding_site.residues';
  const c = chainOf(structure, chain);
  const numbering = chainNumbering(structure, c, options.uniprot);
  const byAuthor = new Map<string, Residue>();
  const byUniprot = new Map<number, Residue>();
  for (const r of c.residues) {
    byAuthor.set(`${r.author_number}|${r.insertion_code}`, r);
    const u = uniprotNumber(numbering, r);
    if (u !== null && !byUniprot.has(u)) byUniprot.set(u, r);
  }
  const authors = c.residues.map((r) => r.author_number);
  const minAuthor = Math.min(...authors);
  const maxAuthor = Math.max(...authors);
  const segmentCoversAuthor = (n: number) => numbering.segments.some((s) => n >= s.author_begin && n <= s.author_end);

  if (!Array.isArray(labels))
    throw inputErrors([{ path: pathOf(field), message: 'must be a list of labels like K721' }]);
  if (labels.length > MAX_LABELS) {
    throw inputErrors([{ path: pathOf(field), message: `names ${labels.length} residues; at most ${MAX_LABELS}` }]);
  }
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
    const described = (r: Residue, extra = '') => `${r.one_letter} (${r.name}${extra})`;

    // UniProt numbering (not for a label with an insertion code: UniProt has none).
    let uni: Lookup;
    if (numbering.kind === 'none') uni = { status: 'unknown', text: numbering.note! };
    else if (icode) uni = { status: 'unknown', text: 'an insertion code is author numbering only' };
    else {
      const r = byUniprot.get(n);
      const a = authorNumberOf(numbering, n);
      if (r) {
        const at = numbering.kind === 'identity' ? '' : `, author ${r.author_number}${r.insertion_code}`;
        uni = {
          status: r.one_letter === wanted ? 'match' : 'mismatch',
          residue: r,
          text: `UniProt ${n} is ${described(r, at)}`,
        };
      } else if (coversUniprot(numbering, n) && (numbering.kind === 'mapped' || (n >= minAuthor && n <= maxAuthor))) {
        const at = numbering.kind === 'identity' || a === null ? '' : ` (author ${a})`;
        uni = { status: 'unresolved', text: `UniProt ${n}${at} is not resolved in the model` };
      } else uni = { status: 'outside', text: `UniProt ${n} is outside the residues chain ${c.id} covers` };
    }
    if (uni.status === 'match') {
      residues.push(resolved(label, c, uni.residue!, numbering, 'uniprot'));
      return;
    }

    const ar = byAuthor.get(`${n}|${icode}`);
    let auth: Lookup;
    if (ar)
      auth = {
        status: ar.one_letter === wanted ? 'match' : 'mismatch',
        residue: ar,
        text: `author ${n}${icode} is ${described(ar)}`,
      };
    else if ((n >= minAuthor && n <= maxAuthor) || segmentCoversAuthor(n))
      auth = { status: 'unresolved', text: `author ${n}${icode} is not resolved in the model` };
    else
      auth = {
        status: 'outside',
        text: `author ${n}${icode} is outside the modelled residues ${minAuthor}–${maxAuthor}`,
      };

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

    const sameNumbering = numbering.kind === 'identity' && !icode;
    const texts = sameNumbering ? [auth.text.replace(/^author/, 'residue')] : [uni.text, auth.text];
    const statuses = sameNumbering ? [auth.status] : [uni.status, auth.status];
    let message: string;
    if (statuses.includes('mismatch')) message = `${label} does not match chain ${c.id}: ${texts.join('; ')}`;
    else if (statuses.includes('unresolved'))
      message = `${label} is not resolved in chain ${c.id} of the model (no coordinates, e.g. a disordered loop): ${texts.join('; ')}`;
    else message = `${label} is not in chain ${c.id}: ${texts.join('; ')}`;
    if (icode) message += ` (the trailing ${icode} is read as an insertion code; a mutation is not a residue label)`;
    problems.push({ path: pathOf(field, i), message });
  });

  if (problems.length) throw inputErrors(problems);
  return { residues, warnings };
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
