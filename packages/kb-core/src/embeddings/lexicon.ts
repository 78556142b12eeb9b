// Domain knowledge the local embedder brings to every base: what a drug name says about its class, and what
// a medical word's Greek or Latin part says in plain words. Both are published conventions, not data:
//  - INN stems: the World Health Organization's "The use of stems in the selection of International
//    Nonproprietary Names (INN) for pharmaceutical substances" (WHO/EMP/RHT/TSN/2018.1) gives each stem the
//    class it marks (`-parib`: PARP inhibitors, `-gliflozin`: SGLT2 inhibitors, `-mab`: monoclonal antibodies).
//  - Medical combining forms (nephro- kidney, hepato- liver, oto- ear, ...), as taught in any medical
//    terminology course.
// The expansions join a token's vector in the local embedder only (the semantic signal); lexical search stays
// on the words claims and vocabularies spell out.

/** [stem (the name ends with it), words of the class it marks]. Longer stems are tried first. */
const INN_STEMS: [string, string][] = [
  ['parib', 'parp inhibitor'],
  ['tinib', 'tyrosine kinase inhibitor'],
  ['rafenib', 'braf raf kinase inhibitor'],
  ['metinib', 'mek kinase inhibitor'],
  ['ciclib', 'cdk4 cdk6 cyclin dependent kinase inhibitor'],
  ['citinib', 'jak janus kinase inhibitor'],
  ['brutinib', 'btk bruton tyrosine kinase inhibitor'],
  ['lisib', 'pi3k phosphoinositide 3 kinase inhibitor'],
  ['rasib', 'kras ras inhibitor'],
  ['toclax', 'bcl2 inhibitor'],
  ['zomib', 'proteasome inhibitor'],
  ['limus', 'mtor immunosuppressant'],
  ['mab', 'monoclonal antibody biologic'],
  ['cept', 'receptor fusion protein biologic'],
  ['statin', 'statin hmg coa reductase inhibitor cholesterol lowering'],
  ['gliflozin', 'sglt2 inhibitor glucose lowering'],
  ['gliptin', 'dpp4 dipeptidyl peptidase inhibitor glucose lowering'],
  ['glutide', 'glp1 receptor agonist'],
  ['glinide', 'insulin secretagogue'],
  ['glitazone', 'ppar gamma agonist'],
  ['prazole', 'proton pump inhibitor acid'],
  ['tidine', 'h2 receptor antagonist acid'],
  ['sartan', 'angiotensin ii receptor blocker antihypertensive'],
  ['pril', 'ace angiotensin converting enzyme inhibitor antihypertensive'],
  ['olol', 'beta blocker adrenergic antagonist'],
  ['dipine', 'calcium channel blocker'],
  ['xaban', 'factor xa inhibitor anticoagulant'],
  ['gatran', 'thrombin inhibitor anticoagulant'],
  ['grel', 'platelet aggregation inhibitor antiplatelet'],
  ['parin', 'heparin anticoagulant'],
  ['triptan', 'serotonin 5 ht1 agonist migraine'],
  ['gepant', 'cgrp receptor antagonist migraine'],
  ['oxetine', 'serotonin reuptake inhibitor antidepressant'],
  ['traline', 'serotonin reuptake inhibitor antidepressant'],
  ['pram', 'serotonin reuptake inhibitor antidepressant'],
  ['giline', 'mao b monoamine oxidase inhibitor'],
  ['stigmine', 'cholinesterase inhibitor'],
  ['pezil', 'acetylcholinesterase inhibitor'],
  ['racetam', 'antiepileptic nootropic'],
  ['pine', 'tricyclic antipsychotic'],
  ['peridone', 'antipsychotic'],
  ['azepam', 'benzodiazepine'],
  ['lutamide', 'androgen receptor antagonist antiandrogen'],
  ['trozole', 'aromatase inhibitor'],
  ['terone', 'androgen steroid'],
  ['dronate', 'bisphosphonate bone resorption inhibitor'],
  ['rubicin', 'anthracycline cytotoxic chemotherapy'],
  ['platin', 'platinum cytotoxic chemotherapy'],
  ['taxel', 'taxane microtubule chemotherapy'],
  ['uracil', 'pyrimidine antimetabolite chemotherapy'],
  ['trexate', 'antifolate antimetabolite'],
  ['lidomide', 'immunomodulatory cereblon'],
  ['nersen', 'antisense oligonucleotide'],
  ['siran', 'small interfering rna'],
  ['caftor', 'cftr modulator'],
  ['mivir', 'neuraminidase inhibitor antiviral'],
  ['buvir', 'ns5b polymerase inhibitor antiviral hepatitis c'],
  ['asvir', 'ns5a inhibitor antiviral hepatitis c'],
  ['previr', 'ns3 protease inhibitor antiviral hepatitis c'],
  ['navir', 'protease inhibitor antiviral'],
  ['tegravir', 'integrase inhibitor antiviral'],
  ['fovir', 'nucleotide reverse transcriptase inhibitor antiviral'],
  ['desivir', 'rna polymerase inhibitor antiviral'],
  ['trelvir', 'protease inhibitor antiviral'],
  ['ciclovir', 'nucleoside antiviral herpes'],
  ['vir', 'antiviral'],
  ['cillin', 'penicillin beta lactam antibiotic'],
  ['penem', 'carbapenem beta lactam antibiotic'],
  ['mycin', 'antibiotic'],
  ['cycline', 'tetracycline antibiotic'],
  ['floxacin', 'fluoroquinolone antibiotic'],
  ['conazole', 'azole antifungal'],
  ['fungin', 'echinocandin antifungal'],
  ['setron', '5 ht3 antagonist antiemetic'],
  ['lukast', 'leukotriene receptor antagonist'],
  ['terol', 'beta2 agonist bronchodilator'],
  ['sonide', 'corticosteroid'],
  ['olone', 'corticosteroid'],
  ['afil', 'pde5 phosphodiesterase inhibitor'],
  ['profen', 'nsaid anti inflammatory analgesic'],
  ['coxib', 'cox2 selective nsaid anti inflammatory'],
  ['fenac', 'nsaid anti inflammatory'],
];

/** [combining form (a word starts with it), plain words]. */
const COMBINING_FORMS: [string, string][] = [
  ['nephro', 'kidney renal'],
  ['renal', 'kidney'],
  ['hepato', 'liver hepatic'],
  ['hepat', 'liver'],
  ['cardio', 'heart cardiac'],
  ['cardi', 'heart'],
  ['oto', 'ear hearing'],
  ['neuro', 'nerve neural'],
  ['neur', 'nerve'],
  ['myo', 'muscle'],
  ['osteo', 'bone'],
  ['arthr', 'joint'],
  ['derma', 'skin'],
  ['cutane', 'skin'],
  ['gastro', 'stomach gut'],
  ['gastr', 'stomach'],
  ['entero', 'intestine gut'],
  ['colo', 'colon bowel'],
  ['pulmon', 'lung'],
  ['pneumo', 'lung'],
  ['broncho', 'airway lung'],
  ['hemato', 'blood'],
  ['haemato', 'blood'],
  ['thrombo', 'clot platelet'],
  ['angio', 'vessel'],
  ['vascul', 'vessel'],
  ['encephal', 'brain'],
  ['cerebr', 'brain'],
  ['ophthalm', 'eye'],
  ['retin', 'eye'],
  ['onco', 'cancer tumor'],
  ['carcino', 'cancer'],
  ['leuk', 'white blood cell'],
  ['lymph', 'lymphocyte'],
  ['glyc', 'sugar glucose'],
  ['gluc', 'sugar'],
  ['lipid', 'fat'],
  ['hyper', 'high excess'],
  ['hypo', 'low deficient'],
  ['brady', 'slow'],
  ['tachy', 'fast'],
  ['dys', 'abnormal'],
  ['algia', 'pain'],
];
/** Suffixes of medical words, [suffix, plain words]. */
const SUFFIXES: [string, string][] = [
  ['toxicity', 'toxicity damage'],
  ['itis', 'inflammation'],
  ['emia', 'blood'],
  ['aemia', 'blood'],
  ['pathy', 'disease damage'],
  ['penia', 'low count'],
  ['oma', 'tumor'],
  ['algia', 'pain'],
  ['plasia', 'growth'],
];

const byLength = (a: [string, string], b: [string, string]) => b[0].length - a[0].length;
INN_STEMS.sort(byLength);
COMBINING_FORMS.sort(byLength);

const cache = new Map<string, string>();

/** Plain words a token implies (a drug class, a body part), or '' for none. */
export function expansionOf(token: string): string {
  const hit = cache.get(token);
  if (hit !== undefined) return hit;
  const out: string[] = [];
  if (token.length >= 6) {
    for (const [stem, words] of INN_STEMS) {
      if (token.endsWith(stem) && token.length > stem.length + 2) {
        out.push(words);
        break;
      }
    }
  }
  if (token.length >= 6) {
    for (const [form, words] of COMBINING_FORMS) {
      if (token.startsWith(form) && token.length > form.length + 2) {
        out.push(words);
        break;
      }
    }
    for (const [suf, words] of SUFFIXES) {
      if (token.endsWith(suf) && token.length > suf.length + 2) {
        out.push(words);
        break;
      }
    }
  }
  const s = out.join(' ');
  if (cache.size > 200_000) cache.clear();
  cache.set(token, s);
  return s;
}
