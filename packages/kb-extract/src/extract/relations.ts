// Relation patterns between adjacent entity mentions. The text between two mentions is reduced to its
// core by dropping fillers (adverbs, auxiliaries, articles, modals, negation, 'potent'/'selective'...);
// the core must then be exactly one trigger phrase. Exact triggers keep precision high: a sentence the
// patterns do not cover yields nothing rather than a guess. Negation and hedging cues seen anywhere in the
// clause are reported so the caller can skip or lower confidence.
import type { Mention } from './ner.js';
import { TRIGGERS } from './triggers.js';

// Words removed from the text between two mentions before it is compared to the triggers.
const FILLERS = new Set(
  (
    'is are was were be been being has have had can also further both directly strongly potently selectively specifically ' +
    'reversibly irreversibly covalently competitively allosterically significantly markedly robustly efficiently effectively ' +
    'primarily mainly predominantly largely partially partly substantially dramatically consistently reportedly ' +
    'a an the potent selective specific irreversible reversible oral small-molecule allosteric competitive atp-competitive ' +
    'covalent direct highly first-generation second-generation third-generation humanized humanised recombinant novel known ' +
    'well-known established clinically widely commonly frequently often which that and ' +
    "not no never nor neither cannot does do did doesn\u2019t doesn't didn't don't isn't wasn't aren't fails fail failed " +
    'may might could would should possibly potentially perhaps putatively presumably probably likely appears appear seems seem ' +
    'thought believed predicted proposed hypothesized hypothesised suggested reported shown found demonstrated observed known ' +
    'been indeed clearly robust strong weak weakly modestly slightly moderately only'
  ).split(' '),
);

const NEGATION =
  /\b(?:not|no|never|neither|nor|cannot|without|lacks?|absence of|fail(?:s|ed)? to|unable to|n[\u2019']t|did not|does not|rather than|instead of|ruled out|refuted)\b|n[\u2019']t\b/i;
const HEDGE =
  /\b(?:may|might|could|possible|possibly|potentially|perhaps|putative(?:ly)?|presumably|probably|likely|suggests?|suggested|suggesting|hypothes[iz]\w*|speculat\w*|propos(?:e|ed|es)|appears? to|seems? to|thought to|believed to|predicted|preliminary|in silico|tentative(?:ly)?|plausibl[ey])\b/i;
const SPECULATIVE = /\b(?:whether|unclear|unknown|remains? to be|open question|not yet (?:known|clear)|if any)\b/i;

export interface RelationHit {
  subject: Mention;
  object: Mention;
  trigger: string;
  predicates: string[];
  negated: boolean;
  hedged: boolean;
  speculative: boolean;
}

/** The text between two mentions, parentheses and appositives removed, reduced to its trigger core. */
export function coreOf(between: string): { core: string; words: string[] } {
  const cleaned = between
    .replace(/\([^()]*\)/g, ' ')
    .replace(
      /\b(?:shown|found|reported|known|thought|believed|predicted|proposed|suggested|hypothesi[sz]ed|demonstrated|observed|appears?|seems?|likely|able|unable|fails?|failed|expected|used)\s+to\s+(?=\w)(?!treat\b)/gi,
      ' ',
    )
    .replace(/,\s*(?:a|an|the|which|who)\b[^,]{0,80},/gi, ' ')
    .replace(/[,;:]/g, ' ')
    .toLowerCase();
  const words = cleaned.split(/\s+/).filter((w) => w !== '');
  return { core: words.filter((w) => !FILLERS.has(w)).join(' '), words };
}

/**
 * Whether the text between two mentions coordinates them (', ', ' and ', ', or ', ' / ', ' as well as '). Written
 * without a regular expression over the whole gap: /^\s*(?:,\s*(?:and\s+)?|and\s+|\/\s*)\s*$/ and its kin have
 * adjacent whitespace runs that backtrack quadratically on a long run of spaces.
 */
export function coordinates(gap: string): boolean {
  const t = gap.trim();
  if (t === ',' || t === '/') return true;
  // 'and' / 'or' / 'as well as' need whitespace before the next mention.
  return t.length < gap.length && /\s/.test(gap[gap.length - 1]!) && /^(?:(?:,\s*)?(?:and|or)|as well as)$/i.test(t);
}

/**
 * Coordinated groups are cut at this many members. Every member of one group is related to every member of the
 * next, so an unbounded list ('A, B, ... and Z inhibit ...') made the hits of one sentence quadratic in its length;
 * with the cut they are at most MAX_GROUP times the mentions.
 */
export const MAX_GROUP = 32;

/** Where one cue (negation, hedging, speculation) occurs in a sentence: sorted, non-overlapping spans. */
interface CueSpans {
  starts: number[];
  ends: number[];
}

function cueSpans(re: RegExp, sentence: string): CueSpans {
  const out: CueSpans = { starts: [], ends: [] };
  for (const m of sentence.matchAll(re)) {
    out.starts.push(m.index!);
    out.ends.push(m.index! + m[0].length);
  }
  return out;
}

/** A cue lies wholly inside [from, to). The first span starting at or after `from` ends first among them. */
function cueIn(c: CueSpans, from: number, to: number): boolean {
  let lo = 0;
  let hi = c.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.starts[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < c.starts.length && c.ends[lo]! <= to;
}

const NEGATION_G = new RegExp(NEGATION.source, 'gi');
const HEDGE_G = new RegExp(HEDGE.source, 'gi');
const SPECULATIVE_G = new RegExp(SPECULATIVE.source, 'gi');
const TRAILING_NOUN = /\s*(inhibitors?|antagonists?|blockers?|agonists?|activators?|(?:monoclonal\s+)?antibody)\b/iy;

/**
 * Mentions outside parentheses (one inside is an alias or an aside, 'imatinib (Gleevec)', and no relation end),
 * found in one pass over the sentence: the old per-mention slice and split of the sentence so far was quadratic.
 */
function visibleMentions(sentence: string, mentions: Mention[]): Mention[] {
  const order = mentions.map((_, i) => i);
  if (mentions.some((m, i) => i > 0 && m.start < mentions[i - 1]!.start))
    order.sort((a, b) => mentions[a]!.start - mentions[b]!.start);
  const inside = new Uint8Array(mentions.length);
  let depth = 0;
  let pos = 0;
  for (const k of order) {
    for (const end = mentions[k]!.start; pos < end; pos++) {
      const c = sentence.charCodeAt(pos);
      if (c === 40) depth++;
      else if (c === 41) depth--;
    }
    if (depth > 0) inside[k] = 1;
  }
  return mentions.filter((_, k) => inside[k] === 0);
}

/** Positions of the clause breaks (',', ';', ':') in a sentence, ascending. */
function clauseBreaks(sentence: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence.charCodeAt(i);
    if (c === 44 || c === 58 || c === 59) out.push(i);
  }
  return out;
}

/** The last break at or before `at`, else 0: where the clause holding `at` starts. */
function clauseStart(breaks: number[], at: number): number {
  let lo = 0;
  let hi = breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (breaks[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : breaks[lo - 1]!;
}

/**
 * Relations in one sentence. Mentions joined by 'and' / 'or' / commas form groups ('EGFR and HER2'); a
 * trigger between two adjacent groups relates every member of one to every member of the other. Linear in the
 * sentence and its mentions: each gap between neighbouring groups is read a bounded number of times, cues are
 * found once per sentence, and a group holds at most MAX_GROUP mentions. Hits are yielded one at a time, so a
 * caller can stop before holding them all.
 */
export function* findRelations(sentence: string, mentions: Mention[]): Generator<RelationHit> {
  const visible = visibleMentions(sentence, mentions);
  const groups: Mention[][] = [];
  for (const m of visible) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (prev) {
      // The same name again ('EGFR ... EGFR') joins the group it follows without adding to it.
      const same = prev.name.toLowerCase() === m.name.toLowerCase();
      if (same) continue;
      if (last!.length < MAX_GROUP && coordinates(sentence.slice(prev.end, m.start))) {
        last!.push(m);
        continue;
      }
    }
    groups.push([m]);
  }
  const pairs: [Mention[], Mention[]][] = [];
  for (let g = 0; g + 1 < groups.length; g++) {
    pairs.push([groups[g]!, groups[g + 1]!]);
    // 'gefitinib, an EGFR inhibitor, is approved for NSCLC': the middle group sits in an appositive.
    const c = groups[g + 2];
    if (c) {
      const gap = sentence.slice(groups[g]![groups[g]!.length - 1]!.end, groups[g + 1]![0]!.start);
      const rest = sentence.slice(groups[g + 1]![groups[g + 1]!.length - 1]!.end, c[0]!.start);
      if (/^\s*,\s*(?:a|an|the|which|who)\b/i.test(gap) && /^[^,]{0,60},/.test(rest)) pairs.push([groups[g]!, c]);
    }
  }
  // Cues are found once in the whole sentence; a relation sees those inside its clause before the subject and
  // between its ends (testing each relation's text again was quadratic in a long clause).
  let cues: { negation: CueSpans; hedge: CueSpans; speculative: CueSpans; breaks: number[] } | undefined;
  const question = /\?\s*$/.test(sentence);
  // Subjects of the relation each group was the object of: 'X inhibits Y and is approved for Z' -> X.
  const subjectOf = new Map<Mention[], Mention[]>();
  for (const [first, b] of pairs) {
    let a = first;
    const betweenStart = a[a.length - 1]!.end;
    const betweenEnd = b[0]!.start;
    const between = sentence.slice(betweenStart, betweenEnd);
    let { core } = coreOf(between);
    let trigger = TRIGGERS.get(core);
    // A coordinated verb phrase with no subject of its own shares the previous relation's subject.
    if (trigger && /^\s*(?:,\s*)?and\s/i.test(between) && subjectOf.has(a)) a = subjectOf.get(a)!;
    // 'gefitinib, an EGFR inhibitor' / 'X is a HER2 antagonist': the trigger noun follows the object.
    if (!trigger && core === '') {
      TRAILING_NOUN.lastIndex = b[b.length - 1]!.end;
      const after = TRAILING_NOUN.exec(sentence);
      if (after) {
        const noun = after[1]!.toLowerCase().replace(/s$/, '');
        core = noun.includes('antibody') ? 'antibody against' : `${noun} of`;
        trigger = TRIGGERS.get(core);
      }
    }
    if (!trigger) continue;
    cues ??= {
      negation: cueSpans(NEGATION_G, sentence),
      hedge: cueSpans(HEDGE_G, sentence),
      speculative: cueSpans(SPECULATIVE_G, sentence),
      breaks: clauseBreaks(sentence),
    };
    // The clause the relation lives in: from the last clause break before the subject to the sentence end.
    const subjStart = a[0]!.start;
    const from = clauseStart(cues.breaks, subjStart);
    const seen = (c: CueSpans) => cueIn(c, from, subjStart) || cueIn(c, betweenStart, betweenEnd);
    const negated = seen(cues.negation);
    const hedged = seen(cues.hedge);
    const speculative = seen(cues.speculative) || question;
    if (!trigger.reverse) subjectOf.set(b, a);
    for (const s of a) {
      for (const o of b) {
        const [subject, object] = trigger.reverse ? [o, s] : [s, o];
        yield { subject, object, trigger: core, predicates: trigger.predicates, negated, hedged, speculative };
      }
    }
  }
}
