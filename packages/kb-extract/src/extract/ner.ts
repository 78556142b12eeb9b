// Entity recognition in one sentence: dictionary phrases (vocabularies, base entities, closed lists) and
// spelling patterns (gene symbols, drug-name stems, disease and pathway noun phrases). Candidates from all
// sources compete; the longest span wins, then the dictionary over the patterns.
import { normalizeName } from '@evident/kb-core';
import type { LexEntry, Lexicon } from './lexicon.js';
import { TRIGGERS } from './triggers.js';

export interface Mention {
  start: number;
  end: number;
  surface: string;
  name: string;
  type: string;
  via: 'lexicon' | 'gene_pattern' | 'drug_pattern' | 'disease_pattern' | 'pathway_pattern';
}

interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
}

const WORD = 'A-Za-z0-9\u03b1-\u03c9\u0391-\u03a9';
const TOKEN_RE = new RegExp(`[${WORD}](?:[${WORD}+'\u2019\\-/]*[${WORD}+])?`, 'g');

/**
 * Tokens longer than this are skipped for entity matching (they stay in the sentence): no entity name is that
 * long, and the spelling patterns and lexicon lookups then cost a bounded amount per token.
 */
export const MAX_TOKEN_CHARS = 256;

export function tokenize(s: string): Token[] {
  const out: Token[] = [];
  for (const m of s.matchAll(TOKEN_RE))
    if (m[0].length <= MAX_TOKEN_CHARS)
      out.push({ text: m[0], lower: m[0].toLowerCase(), start: m.index!, end: m.index! + m[0].length });
  return out;
}

// Upper-case words that are not gene symbols (assays, agencies, units, statistics, abbreviated diseases
// the lexicon does not know). Kept short on purpose: an unknown symbol-like word is far more often a gene.
const NOT_GENES = new Set(
  (
    'DNA RNA MRNA ATP ADP GTP NAD NADH NADPH FDA EMA USA UK EU PCR QPCR RT-PCR MRI CT PET HIV HBV HCV LDL HDL BMI WHO NIH ' +
    'ICU COVID COVID-19 SARS SARS-COV-2 AIDS ADHD GWAS SNP SNPS CRISPR RNAI SIRNA SHRNA IC50 EC50 KD KI HR OR CI RR SD SEM II III IV ' +
    'VI VII VIII IX XI XII ROS ECM NO OK US AI LLM PDF API TKI TKIS ADC MOA PK PD ORR PFS OS DFS RCT FDR CAR CAR-T NSAID NSAIDS DMSO ' +
    'PBS HEK293 HELA CEO QC ELISA FACS CHIP RNA-SEQ SCRNA-SEQ WT KO PPI AUC ROC LOF GOF MOI CNS PNS IV IP SC PO BID TID QD MG ML ' +
    'KG NM UM MM EOD TBD FYI IMO ASAP CO2 H2O O2 N2 UTC GMT AM PM ID IDS URL HTTP JSON CSV PH2 PHASE THE AND FOR BUT NOT ALL ANY'
  ).split(' '),
);
const NOT_GENE_CAMEL = new Set([
  'camp',
  'cgmp',
  'mrna',
  'sirna',
  'shrna',
  'mirna',
  'lncrna',
  'ipsc',
  'ipscs',
  'esc',
  'escs',
  'trna',
  'rrna',
  'dsdna',
  'ssdna',
  'cdna',
  'mtdna',
  'ph',
]);

// Deliberate likeness: drugLike is written alike after its word list; the tests differ.
function geneLike(t: string): boolean {
  const u = t.toUpperCase();
  if (NOT_GENES.has(u)) return false;
  // Protein-change notation (V600E, G12C, T790M) names a variant, and nucleotide triplets (CAG) a repeat.
  if (/^[A-Z]\d+[A-Z*]$/.test(t) || /^[ACGTU]{3}$/.test(t)) return false;
  if (/^[A-Z][A-Z0-9\u0391-\u03a9]{1,7}(?:-[A-Z0-9\u03b1-\u03c9\u0391-\u03a9]{1,5})?$/.test(t)) {
    const letters = t.replace(/[^A-Z]/g, '').length;
    return /\d/.test(t) || t.includes('-') ? letters >= 2 : letters >= 3 && letters <= 6;
  }
  if (/^[a-z]{1,2}[A-Z][A-Z0-9]+[a-z0-9]*$/.test(t)) return !NOT_GENE_CAMEL.has(t.toLowerCase());
  if (/^[A-Z][a-z]{1,4}\d{1,2}[a-z]?$/.test(t)) return true; // Notch1, Sirt1, Akt2
  if (/^p\d{2,3}$/.test(t)) return true; // p21, p38
  return false;
}

const DRUG_STEMS = new RegExp(
  '(?:mab|tinib|anib|enib|rafenib|parib|ciclib|lisib|rasib|statin|pril|sartan|olol|prazole|platin|taxel|rubicin|formin|glitazone|' +
    'gliptin|gliflozin|dipine|floxacin|mycin|cillin|cycline|navir|previr|buvir|vir|afil|coxib|triptan|setron|degib|zomib|tecan|' +
    'trexate|lukast|lutamide|azepam|oxetine|pramine|idone|apine|profen|fenac|isone|olone|asone|semide|thiazide|tidine|parin|' +
    'xaban|gatran|grel|dronate|fibrate|limus|glutide|relin|lidomide|clax|imibe|purinol)$',
);
const DRUGS_WITHOUT_STEM = new Set([
  'levodopa',
  'colchicine',
  'digoxin',
  'lithium',
  'morphine',
  'naloxone',
  'hydroxychloroquine',
  'chloroquine',
  'ivermectin',
  'fluorouracil',
  '5-fluorouracil',
  'donepezil',
  'memantine',
  'riluzole',
  'ketamine',
  'caffeine',
  'resveratrol',
  'curcumin',
  'cyclosporine',
  'ciclosporin',
  'azathioprine',
  'busulfan',
  'cyclophosphamide',
  'gemcitabine',
  'capecitabine',
  'letrozole',
  'anastrozole',
  'fulvestrant',
  'enzalutamide',
  'abiraterone',
  'spironolactone',
  'furosemide',
  'amiodarone',
  'clozapine',
  'haloperidol',
  'fluoxetine',
  'sertraline',
  'valproate',
  'carbamazepine',
  'lamotrigine',
  'gabapentin',
  'naltrexone',
]);

// Deliberate likeness: geneLike is written alike after its word list; the tests differ.
function drugLike(t: string): boolean {
  const lower = t.toLowerCase();
  if (DRUGS_WITHOUT_STEM.has(lower)) return true;
  if (t.length < 7 || !/^[A-Za-z][a-z-]+$/.test(t)) return false;
  return DRUG_STEMS.test(lower);
}

// Head nouns of disease phrases; the generic ones need a modifier ('lung cancer', not 'cancer').
const DISEASE_HEADS_GENERIC = new Set([
  'cancer',
  'cancers',
  'carcinoma',
  'carcinomas',
  'tumor',
  'tumors',
  'tumour',
  'tumours',
  'disease',
  'syndrome',
  'disorder',
  'infection',
  'failure',
  'leukemia',
  'leukaemia',
  'lymphoma',
  'sarcoma',
  'adenocarcinoma',
  'neoplasm',
]);
const DISEASE_HEADS_STANDALONE = new Set([
  'melanoma',
  'glioma',
  'glioblastoma',
  'myeloma',
  'neuroblastoma',
  'mesothelioma',
  'diabetes',
  'obesity',
  'hypertension',
  'asthma',
  'psoriasis',
  'epilepsy',
  'schizophrenia',
  'depression',
  'dementia',
  'atherosclerosis',
  'osteoporosis',
  'anemia',
  'anaemia',
  'cirrhosis',
  'autism',
  'arthritis',
  'fibrosis',
  'colitis',
  'hepatitis',
  'dermatitis',
  'nephropathy',
  'neuropathy',
  'cardiomyopathy',
  'retinopathy',
  'steatohepatitis',
  'sclerosis',
  'gout',
  'sepsis',
  'thrombosis',
  'osteoarthritis',
  'lupus',
  'hyperlipidemia',
  'hypercholesterolemia',
  'insulin resistance',
  'cachexia',
  'migraine',
]);
// Words that may stand before a disease head as part of its name.
const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those of in on at by for with without from to into and or but as is are was were be been being ' +
    'has have had not no its their our his her patients patient subjects cases case mice mouse rats models model risk ' +
    'increased decreased reduced elevated higher lower high low early late new novel human other several many some most ' +
    'inhibits inhibit treats treat causes cause activates binds bind targets target associated linked related including ' +
    'against versus vs than both either neither also only may might could can will would should must more less'
  ).split(' '),
);
// Clinical qualifiers dropped from the front of a disease name ('metastatic breast cancer' -> 'breast cancer').
const QUALIFIERS = new Set([
  'metastatic',
  'advanced',
  'recurrent',
  'refractory',
  'relapsed',
  'severe',
  'mild',
  'moderate',
  'early-stage',
  'late-stage',
  'untreated',
  'resistant',
  'aggressive',
  'inherited',
  'familial',
  'sporadic',
  'hereditary',
]);

const PATHWAY_HEADS = new Set(['pathway', 'pathways', 'signaling', 'signalling', 'cascade', 'axis']);
const PATHWAY_WORDS = new Set([
  'wnt',
  'notch',
  'hedgehog',
  'hippo',
  'insulin',
  'mapk',
  'erk',
  'jak-stat',
  'jak/stat',
  'nf-κb',
  'nf-kb',
  'tgf-β',
  'tgf-beta',
  'pi3k',
  'akt',
  'mtor',
  'ampk',
  'hif',
  'p53',
  'ras',
  'raf',
  'mek',
  'egfr',
  'vegf',
  'cgas-sting',
  'sting',
  'interferon',
  'apoptotic',
  'autophagy',
  'β-catenin',
  'beta-catenin',
]);

interface Candidate extends Mention {
  priority: number;
  words: number;
  /** First and last token of the span. */
  first: number;
  last: number;
}

function eligibleModifier(t: Token): boolean {
  if (FUNCTION_WORDS.has(t.lower)) return false;
  // Relation verbs ('drive', 'treat', 'causes') end a noun phrase.
  if (TRIGGERS.has(t.lower) || TRIGGERS.has(`${t.lower}s`)) return false;
  if (/ly$|ing$/.test(t.lower) && t.lower.length > 4) return false;
  if (/ed$/.test(t.lower) && !t.lower.includes('-') && !QUALIFIERS.has(t.lower)) return false;
  if (/^\d+$/.test(t.text)) return false;
  // Lower-case words, hyphenated words, eponyms (Crohn's, Parkinson's), double eponyms (Li-Fraumeni,
  // Ehlers-Danlos, Creutzfeldt-Jakob), inner capitals (DiGeorge, McArdle), 'BRCA1-associated' and
  // 'Smoking-related' modifiers, and short numbers in names (type 2). A disease name the dictionary lacks is
  // still found through its head ('syndrome', 'disease', ...).
  return (
    /^[a-z][a-z0-9'\u2019-]*$/.test(t.text) ||
    /^[A-Z][a-z]+(?:-[A-Z][a-z]+)*(?:['\u2019]s)?$/.test(t.text) ||
    /^(?:Mc|Mac|Di|De|La|Le|Van|Von)[A-Z][a-z]+(?:['\u2019]s)?$/.test(t.text) ||
    /^[A-Z][A-Za-z]*[0-9]*-[a-z]+$/.test(t.text)
  );
}

export function findMentions(sentence: string, lex: Lexicon): Mention[] {
  const toks = tokenize(sentence);
  const cands: Candidate[] = [];
  const gapOk = (a: Token, b: Token) => /^[\s]*$/.test(sentence.slice(a.end, b.start));
  const span = (i: number, j: number) => sentence.slice(toks[i]!.start, toks[j]!.end);
  const add = (i: number, j: number, name: string, type: string, via: Mention['via'], priority: number) => {
    cands.push({
      start: toks[i]!.start,
      end: toks[j]!.end,
      surface: span(i, j),
      name,
      type,
      via,
      priority,
      words: j - i + 1,
      first: i,
      last: j,
    });
  };

  // Each token's normalised form, once: a phrase's key is its tokens' keys joined by spaces (the gaps are
  // whitespace, which normalizeName folds to one space), so phrases are looked up without re-normalising.
  const norm = toks.map((t) => normalizeName(t.text));
  const POSSESSIVE = /['\u2019]s$/;
  for (let i = 0; i < toks.length; i++) {
    // Dictionary phrases: extend word by word while some lexicon phrase still starts with the words so far (a
    // token trie over the lexicon), keeping the longest hit. Linear in the tokens: the walk from token i is
    // bounded by the longest phrase.
    let key = '';
    let best = -1;
    let bestHit: LexEntry | undefined;
    for (let j = i; j < toks.length; j++) {
      if (j > i && !gapOk(toks[j - 1]!, toks[j]!)) break;
      key = j === i ? norm[j]! : `${key} ${norm[j]}`;
      const surface = span(i, j);
      let hit = lex.lookupKey(key, surface);
      if (!hit && POSSESSIVE.test(surface)) hit = lex.lookupKey(key.slice(0, -2), surface.slice(0, -2));
      if (hit) {
        best = j;
        bestHit = hit;
      }
      if (!lex.extends(key)) break;
    }
    if (bestHit) add(i, best, bestHit.name, bestHit.type, 'lexicon', 3);
    const t = toks[i]!;
    const bare = t.text.replace(/['\u2019]s$/, '');
    if (geneLike(bare)) {
      const known = lex.lookup(bare);
      add(i, i, known?.name ?? bare, known?.type ?? 'gene', 'gene_pattern', 1);
    } else if (drugLike(bare)) {
      const known = lex.lookup(bare);
      add(i, i, known?.name ?? bare.toLowerCase(), known?.type ?? 'drug', 'drug_pattern', 1);
    }
    // Disease noun phrases: modifiers + head.
    const standalone = DISEASE_HEADS_STANDALONE.has(t.lower);
    if (standalone || DISEASE_HEADS_GENERIC.has(t.lower)) {
      let s = i;
      while (s > 0 && i - s < 4 && gapOk(toks[s - 1]!, toks[s]!) && eligibleModifier(toks[s - 1]!)) s--;
      let first = s;
      while (first < i && QUALIFIERS.has(toks[first]!.lower)) first++;
      if (first < i || standalone) {
        const phrase = span(first, i).replace(/\s+/g, ' ');
        const known = lex.lookup(phrase);
        add(s, i, known?.name ?? phrase.toLowerCase(), known?.type ?? 'disease', 'disease_pattern', 2);
      }
    }
    // Pathway phrases: 'the Wnt/β-catenin signaling pathway', 'mTOR signalling', 'JAK-STAT pathway'.
    if (PATHWAY_HEADS.has(t.lower) && i > 0) {
      let end = i;
      if (toks[i + 1] && PATHWAY_HEADS.has(toks[i + 1]!.lower) && gapOk(t, toks[i + 1]!)) end = i + 1;
      let s = i;
      while (s > 0 && i - s < 3 && gapOk(toks[s - 1]!, toks[s]!) && !PATHWAY_HEADS.has(toks[s - 1]!.lower)) {
        const w = toks[s - 1]!;
        if (FUNCTION_WORDS.has(w.lower)) break;
        if (
          geneLike(w.text) ||
          PATHWAY_WORDS.has(w.lower) ||
          /^[A-Z][A-Za-z0-9\u03b1-\u03c9/-]*$/.test(w.text) ||
          /\//.test(w.text)
        )
          s--;
        else break;
      }
      if (s < i) {
        const core = span(s, i - 1).replace(/\s+/g, ' ');
        if (!NOT_GENES.has(core.toUpperCase()) || PATHWAY_WORDS.has(core.toLowerCase()))
          add(s, end, `${core} pathway`, 'pathway', 'pathway_pattern', 2);
      }
    }
  }

  // Longest span first; ties go to the dictionary, then the earlier start. Overlaps are dropped.
  cands.sort((a, b) => b.words - a.words || b.priority - a.priority || a.start - b.start);
  // Candidates start and end on token boundaries, so overlap is checked on a per-token mark: linear, where
  // comparing each candidate with every kept one was quadratic in sentences with thousands of mentions.
  const taken: Candidate[] = [];
  const used = new Uint8Array(toks.length);
  for (const c of cands) {
    let free = true;
    for (let k = c.first; k <= c.last && free; k++) if (used[k]) free = false;
    if (!free) continue;
    used.fill(1, c.first, c.last + 1);
    taken.push(c);
  }
  taken.sort((a, b) => a.start - b.start);
  return taken.map(({ priority: _p, words: _w, first: _f, last: _l, ...m }) => m);
}
