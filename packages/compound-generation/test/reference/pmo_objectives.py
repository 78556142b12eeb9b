#!/usr/bin/env python3
"""Reference values for the 20 PMO objectives that need no model file, computed as GuacaMol defines them.

PMO (Gao et al., NeurIPS 2022; wenhao-gao/mol_opt) scores its 23 objectives with TDC's oracles, which copy
GuacaMol's goal-directed benchmarks (Brown et al., J. Chem. Inf. Model. 2019; BenevolentAI/guacamol:
guacamol/standard_benchmarks.py, common_scoring_functions.py, score_modifier.py, utils/descriptors.py,
utils/fingerprints.py). Neither package can be installed here (PyPI is unreachable), so this script re-states
those definitions on RDKit alone, function by function, and prints every objective's score (and the parts it
is made of) for a fixed set of molecules. The TypeScript tests (test/profile-pmo.test.ts) load the profiles in
profiles/pmo/ and compare with these numbers.

Run with Debian's RDKit (python3-rdkit 2022.09.3, the RDKit the package's other reference data comes from):

    /usr/bin/python3 packages/compound-generation/test/reference/pmo_objectives.py \
        > packages/compound-generation/test/reference/pmo-objectives.json

Where TDC's oracle (tdc/chem_utils/oracle/oracle.py, the code PMO calls) differs from GuacaMol's definition, the
JSON says so in `tdc_differs`: TDC's current isomer score (since 2022-08-26) counts the total number of atoms from
RDKit's molecular formula after AddHs, and GuacaMol from AddHs(mol).GetNumAtoms(); both are printed.
"""
import json
import math
import re
import sys

import numpy as np
import rdkit
from rdkit import Chem, DataStructs
from rdkit.Chem import AllChem, Descriptors, Lipinski, QED, rdMolDescriptors
from rdkit.Chem.Pharm2D import Generate, Gobbi_Pharm2D
from rdkit.Chem.rdMolDescriptors import CalcMolFormula
from rdkit import RDLogger

RDLogger.DisableLog('rdApp.*')


# --- guacamol/utils/chemistry.py: smiles_to_rdkit_mol, parse_molecular_formula -----------------------------------
def smiles_to_mol(smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is not None:
        try:
            Chem.SanitizeMol(mol)
        except ValueError:
            return None
    return mol


def parse_molecular_formula(formula):
    return [(el, 1 if not n else int(n)) for el, n in re.findall(r'([A-Z][a-z]*)(\d*)', formula)]


# --- guacamol/utils/fingerprints.py -------------------------------------------------------------------------------
FINGERPRINTS = {
    'ECFP4': lambda m: AllChem.GetMorganFingerprint(m, 2),
    'ECFP6': lambda m: AllChem.GetMorganFingerprint(m, 3),
    'FCFP4': lambda m: AllChem.GetMorganFingerprint(m, 2, useFeatures=True),
    'AP': lambda m: AllChem.GetAtomPairFingerprint(m, maxLength=10),
    'PHCO': lambda m: Generate.Gen2DFingerprint(m, Gobbi_Pharm2D.factory),
}


def tanimoto(target_smiles, fp_type):
    ref = FINGERPRINTS[fp_type](smiles_to_mol(target_smiles))

    def similarity(mol):
        return DataStructs.TanimotoSimilarity(FINGERPRINTS[fp_type](mol), ref)
    similarity.fingerprint = {'target': target_smiles, 'fp_type': fp_type}
    return similarity


# --- guacamol/score_modifier.py -----------------------------------------------------------------------------------
def gaussian(mu, sigma):
    return lambda x: float(np.exp(-0.5 * np.power((x - mu) / sigma, 2.)))


def min_gaussian(mu, sigma):  # 1 for x <= mu
    return lambda x: gaussian(mu, sigma)(max(x, mu))


def max_gaussian(mu, sigma):  # 1 for x >= mu
    return lambda x: gaussian(mu, sigma)(min(x, mu))


def clipped(upper_x, lower_x=0.0, high_score=1.0, low_score=0.0):
    slope = (high_score - low_score) / (upper_x - lower_x)
    intercept = high_score - slope * upper_x
    return lambda x: float(np.clip(slope * x + intercept, low_score, high_score))


identity = None


# --- guacamol/utils/descriptors.py --------------------------------------------------------------------------------
def num_atoms(mol):
    return Chem.AddHs(mol).GetNumAtoms()


def atom_counter(element):
    def count(mol):
        if element == 'H':
            mol = Chem.AddHs(mol)
        return sum(1 for a in mol.GetAtoms() if a.GetSymbol() == element)
    return count


DESCRIPTORS = {
    'logP': Descriptors.MolLogP,
    'tpsa': Descriptors.TPSA,
    'bertz': Descriptors.BertzCT,
    'mol_weight': Descriptors.MolWt,
    'num_rings': rdMolDescriptors.CalcNumRings,
    'num_aromatic_rings': rdMolDescriptors.CalcNumAromaticRings,
    'qed': QED.qed,
}


# --- guacamol/common_scoring_functions.py and scoring_function.py --------------------------------------------------
# A scoring function here maps a mol to (score, parts): parts name each contribution as the profiles do.
def term(name, raw, modifier=None):
    def f(mol):
        x = raw(mol)
        y = x if modifier is None else modifier(x)
        part = {'raw': float(x), 'score': float(y)}
        if hasattr(raw, 'fingerprint'):
            part.update(raw.fingerprint)
        return float(y), {name: part}
    return f


def smarts_term(name, smarts, inverse=False):
    patt = Chem.MolFromSmarts(smarts)

    def f(mol):
        hit = len(mol.GetSubstructMatches(patt)) > 0
        y = (0.0 if hit else 1.0) if inverse else (1.0 if hit else 0.0)
        return y, {name: {'raw': float(len(mol.GetSubstructMatches(patt))), 'score': y}}
    return f


def geometric_mean(values):  # guacamol/utils/math.py
    a = np.array(values)
    return float(a.prod() ** (1.0 / len(a)))


def arithmetic_mean(values):
    return float(sum(values) / len(values))


def combine(mean, terms):
    def f(mol):
        scores, parts = [], {}
        for t in terms:
            s, p = t(mol)
            scores.append(s)
            parts.update(p)
        return mean(scores), parts
    return f


def isomer_guacamol(name, formula, mean=geometric_mean):
    """IsomerScoringFunction: Gaussian(n_target, 1) per element, Gaussian(total, 2) on AddHs atom count."""
    elements = parse_molecular_formula(formula)
    total = sum(n for _, n in elements)

    def f(mol):
        scores = [gaussian(n, 1.0)(atom_counter(el)(mol)) for el, n in elements]
        scores.append(gaussian(total, 2.0)(num_atoms(mol)))
        y = mean(scores)
        return y, {name: {'raw': y, 'score': y}}
    return f


def isomer_tdc_current(formula, smiles):
    """TDC's Isomer_scoring (the code since 2022-08-26): canonical SMILES, AddHs round trip, formula atom count."""
    elements = parse_molecular_formula(formula)
    total = sum(n for _, n in elements)
    test = Chem.MolToSmiles(Chem.MolFromSmiles(smiles))
    test = Chem.MolToSmiles(Chem.AddHs(Chem.MolFromSmiles(test)))
    mol = smiles_to_mol(test)
    scores = [gaussian(n, 1.0)(atom_counter(el)(mol)) for el, n in elements]
    n_total = sum(n for _, n in parse_molecular_formula(CalcMolFormula(Chem.MolFromSmiles(test))))
    scores.append(gaussian(total, 2.0)(n_total))
    # scipy.stats.gmean (what TDC calls) is exp(mean(log x)); equal to the product form up to rounding
    with np.errstate(divide='ignore'):
        return float(np.exp(np.mean(np.log(np.array(scores)))))


# --- guacamol/standard_benchmarks.py (as PMO/TDC name them) --------------------------------------------------------
SITAGLIPTIN = 'Fc1cc(c(F)cc1F)CC(N)CC(=O)N3Cc2nnc(n2CC3)C(F)(F)F'
SITAGLIPTIN_VALSARTAN = 'NC(CC(=O)N1CCn2c(nnc2C(F)(F)F)C1)Cc1cc(F)c(F)cc1F'
DECO = 'CCCOc1cc2ncnc(Nc3ccc4ncsc4c3)c2cc1S(=O)(=O)C(C)(C)C'


def objectives():
    sita = smiles_to_mol(SITAGLIPTIN)
    vals = smiles_to_mol(SITAGLIPTIN_VALSARTAN)
    return {
        'albuterol_similarity': term('similarity', tanimoto('CC(C)(C)NCC(O)c1ccc(O)c(CO)c1', 'FCFP4'),
                                     clipped(0.75)),
        'amlodipine_mpo': combine(geometric_mean, [
            term('similarity', tanimoto(r'Clc1ccccc1C2C(=C(/N/C(=C2/C(=O)OCC)COCCN)C)\C(=O)OC', 'ECFP4')),
            term('rings', DESCRIPTORS['num_rings'], gaussian(3, 0.5))]),
        'celecoxib_rediscovery': term('similarity', tanimoto(
            'CC1=CC=C(C=C1)C1=CC(=NN1C1=CC=C(C=C1)S(N)(=O)=O)C(F)(F)F', 'ECFP4'), clipped(1.0)),
        'deco_hop': combine(arithmetic_mean, [
            term('pharmacophore', tanimoto(DECO, 'PHCO'), clipped(0.85)),
            smarts_term('no_sulfone', 'CS([#6])(=O)=O', inverse=True),
            smarts_term('no_benzothiazole', '[#7]-c1ccc2ncsc2c1', inverse=True),
            smarts_term('scaffold', '[#7]-c1n[c;h1]nc2[c;h1]c(-[#8])[c;h0][c;h1]c12')]),
        'fexofenadine_mpo': combine(geometric_mean, [
            term('similarity', tanimoto('CC(C)(C(=O)O)c1ccc(cc1)C(O)CCCN2CCC(CC2)C(O)(c3ccccc3)c4ccccc4', 'AP'),
                 clipped(0.8)),
            term('tpsa', DESCRIPTORS['tpsa'], max_gaussian(90, 10)),
            term('logp', DESCRIPTORS['logP'], min_gaussian(4, 1))]),
        'isomers_c7h8n2o2': isomer_guacamol('isomer', 'C7H8N2O2'),
        'isomers_c9h10n2o2pf2cl': isomer_guacamol('isomer', 'C9H10N2O2PF2Cl'),
        'median1': combine(geometric_mean, [
            term('menthol', tanimoto('CC(C)C1CCC(C)CC1O', 'ECFP4')),
            term('camphor', tanimoto('CC1(C)C2CCC1(C)C(=O)C2', 'ECFP4'))]),
        'median2': combine(geometric_mean, [
            term('tadalafil', tanimoto('O=C1N(CC(N2C1CC3=C(C2C4=CC5=C(OCO5)C=C4)NC6=C3C=CC=C6)=O)C', 'ECFP6')),
            term('sildenafil', tanimoto('CCCC1=NN(C2=C1N=C(NC2=O)C3=C(C=CC(=C3)S(=O)(=O)N4CCN(CC4)C)OCC)C',
                                        'ECFP6'))]),
        'mestranol_similarity': term('similarity', tanimoto(
            'COc1ccc2[C@H]3CC[C@@]4(C)[C@@H](CC[C@@]4(O)C#C)[C@@H]3CCc2c1', 'AP'), clipped(0.75)),
        'osimertinib_mpo': combine(geometric_mean, [
            term('similar', tanimoto('COc1cc(N(C)CCN(C)C)c(NC(=O)C=C)cc1Nc2nccc(n2)c3cn(C)c4ccccc34', 'FCFP4'),
                 clipped(0.8)),
            term('not_too_similar', tanimoto('COc1cc(N(C)CCN(C)C)c(NC(=O)C=C)cc1Nc2nccc(n2)c3cn(C)c4ccccc34',
                                             'ECFP6'), min_gaussian(0.85, 0.1)),
            term('tpsa', DESCRIPTORS['tpsa'], max_gaussian(100, 10)),
            term('logp', DESCRIPTORS['logP'], min_gaussian(1, 1))]),
        'perindopril_mpo': combine(geometric_mean, [
            term('similarity', tanimoto('O=C(OCC)C(NC(C(=O)N1C(C(=O)O)CC2CCCCC12)C)CCC', 'ECFP4')),
            term('aromatic_rings', DESCRIPTORS['num_aromatic_rings'], gaussian(2, 0.5))]),
        'qed': term('qed', DESCRIPTORS['qed']),
        'ranolazine_mpo': combine(geometric_mean, [
            term('similarity', tanimoto('COc1ccccc1OCC(O)CN2CCN(CC(=O)Nc3c(C)cccc3C)CC2', 'AP'), clipped(0.7)),
            term('logp', DESCRIPTORS['logP'], max_gaussian(7, 1)),
            term('fluorine', atom_counter('F'), gaussian(1, 1.0)),
            term('tpsa', DESCRIPTORS['tpsa'], max_gaussian(95, 20))]),
        'scaffold_hop': combine(arithmetic_mean, [
            term('pharmacophore', tanimoto(DECO, 'PHCO'), clipped(0.75)),
            smarts_term('decoration', '[#6]-[#6]-[#6]-[#8]-[#6]~[#6]~[#6]~[#6]~[#6]-[#7]-c1ccc2ncsc2c1'),
            smarts_term('no_scaffold', '[#7]-c1n[c;h1]nc2[c;h1]c(-[#8])[c;h0][c;h1]c12', inverse=True)]),
        'sitagliptin_mpo': combine(geometric_mean, [
            term('similarity', tanimoto(SITAGLIPTIN, 'ECFP4'), gaussian(0, 0.1)),
            term('logp', DESCRIPTORS['logP'], gaussian(Descriptors.MolLogP(sita), 0.2)),
            term('tpsa', DESCRIPTORS['tpsa'], gaussian(Descriptors.TPSA(sita), 5)),
            isomer_guacamol('isomer', 'C16H15F6N5O')]),
        'thiothixene_rediscovery': term('similarity', tanimoto(
            'CN(C)S(=O)(=O)c1ccc2Sc3ccccc3C(=CCCN4CCN(C)CC4)c2c1', 'ECFP4'), clipped(1.0)),
        'troglitazone_rediscovery': term('similarity', tanimoto(
            'Cc1c(C)c2OC(C)(COc3ccc(CC4SC(=O)NC4=O)cc3)CCc2c(C)c1O', 'ECFP4'), clipped(1.0)),
        'valsartan_smarts': combine(geometric_mean, [
            smarts_term('smarts', 'CN(C=O)Cc1ccc(c2ccccc2)cc1'),
            term('logp', DESCRIPTORS['logP'], gaussian(Descriptors.MolLogP(vals), 0.2)),
            term('tpsa', DESCRIPTORS['tpsa'], gaussian(Descriptors.TPSA(vals), 5)),
            term('bertz', DESCRIPTORS['bertz'], gaussian(Descriptors.BertzCT(vals), 30))]),
        'zaleplon_mpo': combine(geometric_mean, [
            term('similarity', tanimoto('O=C(C)N(CC)C1=CC=CC(C2=CC=NC3=C(C=NN23)C#N)=C1', 'ECFP4')),
            isomer_guacamol('isomer', 'C19H17N3O2')]),
    }


ISOMER_FORMULAS = {
    'isomers_c7h8n2o2': 'C7H8N2O2',
    'isomers_c9h10n2o2pf2cl': 'C9H10N2O2PF2Cl',
    'zaleplon_mpo': 'C19H17N3O2',
    'sitagliptin_mpo': 'C16H15F6N5O',
}

# Molecules every objective is scored on: ZINC-250k (PMO's starting pool), drugs with S, P, halogens, charges,
# stereo and macro rings, and each objective's own targets (below).
COMMON = [
    'CC(C)(C)c1ccc2occ(CC(=O)Nc3ccccc3F)c2c1',
    'CC(=O)Nc1ccc(OC(=O)c2ccc([N+](=O)[O-])cc2F)cc1',
    'COCC[NH+]1CCC[C@@H](NC(=O)c2cccc(-c3nnc(C)o3)c2)C1',
    'Cc1cccc(OC(=O)CS(=O)(=O)Cc2cccc(Br)c2)c1C',
    'N#Cc1cccc(CS(=O)(=O)N[C@H](c2cccc(C(F)(F)F)c2)C2CC2)c1',
    'CSC1=C(c2ccccn2)[C@H](N)N=N1',
    'CC(=O)Oc1ccccc1C(=O)O',
    'Cn1cnc2c1c(=O)n(C)c(=O)n2C',
    'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1',
    'COP(=O)(OC)Oc1ccc(Cl)cc1',
    'C[N+](C)(C)CCO',
    'O=C(O)c1ccc(N)c(N)c1',
    'CC1CCCCC1',
]

SPECIFIC = {
    'albuterol_similarity': ['CC(C)(C)NCC(O)c1ccc(O)c(CO)c1', 'CC(C)NCC(O)c1ccc(O)c(CO)c1',
                             'CC(C)(C)NCC(O)c1ccc(O)cc1'],
    'amlodipine_mpo': [r'Clc1ccccc1C2C(=C(/N/C(=C2/C(=O)OCC)COCCN)C)\C(=O)OC', 'CCOC(=O)C1=C(C)NC(C)=C(C(=O)OC)C1c1ccccc1'],
    'celecoxib_rediscovery': ['CC1=CC=C(C=C1)C1=CC(=NN1C1=CC=C(C=C1)S(N)(=O)=O)C(F)(F)F',
                              'Cc1ccc(-c2cc(C(F)F)nn2-c2ccc(S(N)(=O)=O)cc2)cc1'],
    'deco_hop': [DECO, 'CCCOc1cc2ncnc(Nc3ccc(F)cc3)c2cc1O', 'COc1cc2ncnc(Nc3ccc4[nH]ncc4c3)c2cc1OC'],
    'fexofenadine_mpo': ['CC(C)(C(=O)O)c1ccc(cc1)C(O)CCCN2CCC(CC2)C(O)(c3ccccc3)c4ccccc4',
                         'OC(CCCN1CCC(CC1)C(O)(c1ccccc1)c1ccccc1)c1ccc(cc1)C(C)(C)C'],
    'isomers_c7h8n2o2': ['O=C(O)c1ccc(N)c(N)c1', 'NC(=O)c1ccc(O)c(N)c1', 'CC(=O)NNC(=O)c1ccco1', 'NNC(=O)c1ccccc1O'],
    'isomers_c9h10n2o2pf2cl': ['NC(=O)c1cc(Cl)ccc1OP(F)(F)CC=N', 'CCOP(F)(F)Oc1ccc(Cl)c(C#N)c1N'],
    'median1': ['CC(C)C1CCC(C)CC1O', 'CC1(C)C2CCC1(C)C(=O)C2', 'CC(C)C1CCC(C)CC1=O'],
    'median2': ['O=C1N(CC(N2C1CC3=C(C2C4=CC5=C(OCO5)C=C4)NC6=C3C=CC=C6)=O)C',
                'CCCC1=NN(C2=C1N=C(NC2=O)C3=C(C=CC(=C3)S(=O)(=O)N4CCN(CC4)C)OCC)C'],
    'mestranol_similarity': ['COc1ccc2[C@H]3CC[C@@]4(C)[C@@H](CC[C@@]4(O)C#C)[C@@H]3CCc2c1',
                             'C#C[C@]1(O)CC[C@H]2[C@@H]3CCc4cc(O)ccc4[C@H]3CC[C@@]21C'],
    'osimertinib_mpo': ['COc1cc(N(C)CCN(C)C)c(NC(=O)C=C)cc1Nc2nccc(n2)c3cn(C)c4ccccc34',
                        'COc1cc(N2CCN(C)CC2)ccc1Nc1ncc(Cl)c(-c2cn(C)c3ccccc23)n1'],
    'perindopril_mpo': ['O=C(OCC)C(NC(C(=O)N1C(C(=O)O)CC2CCCCC12)C)CCC',
                        'CCOC(=O)C(CCc1ccccc1)NC(C)C(=O)N1C(C(=O)O)Cc2ccccc21'],
    'qed': ['CN1CCC[C@H]1c1cccnc1', 'O=C(O)CCCCCCCCCCCCCCC'],
    'ranolazine_mpo': ['COc1ccccc1OCC(O)CN2CCN(CC(=O)Nc3c(C)cccc3C)CC2',
                       'COc1ccccc1OCC(O)CN2CCN(CC(=O)Nc3c(F)cccc3C)CC2'],
    'scaffold_hop': [DECO, 'CCCOc1cc2c(cc1S(=O)(=O)C(C)(C)C)c(Nc1ccc3ncsc3c1)ncn2',
                     'CCCOc1ccc2ncsc2c1CCNc1ccc2ncsc2c1'],
    'sitagliptin_mpo': [SITAGLIPTIN, 'Fc1cc(F)c(F)cc1CC(N)CC(=O)N1CCn2c(nnc2C(F)(F)F)C1',
                        'NC(=O)c1nc(C(F)(F)F)n(CCc2cc(F)c(F)cc2F)c1C(=O)NC(F)(F)F'],
    'thiothixene_rediscovery': ['CN(C)S(=O)(=O)c1ccc2Sc3ccccc3C(=CCCN4CCN(C)CC4)c2c1',
                                'CN1CCN(CCC=C2c3ccccc3Sc3ccc(Cl)cc32)CC1'],
    'troglitazone_rediscovery': ['Cc1c(C)c2OC(C)(COc3ccc(CC4SC(=O)NC4=O)cc3)CCc2c(C)c1O',
                                 'O=C1NC(=O)C(Cc2ccc(OCCc3ccc(CC)cn3)cc2)S1'],
    'valsartan_smarts': ['CCCCC(=O)N(Cc1ccc(-c2ccccc2-c2nn[nH]n2)cc1)[C@@H](C(C)C)C(=O)O',
                         SITAGLIPTIN_VALSARTAN, 'CN(C=O)Cc1ccc(-c2ccc(F)c(F)c2F)cc1'],
    'zaleplon_mpo': ['O=C(C)N(CC)C1=CC=CC(C2=CC=NC3=C(C=NN23)C#N)=C1', 'CCN(C(C)=O)c1cccc(-c2ccnc3c(C#N)cnn23)c1C'],
}

# REINVENT 4's RDKit components on the same molecules (reinvent_plugins/components/RDKit/comp_physchem.py,
# comp_tpsa.py, comp_rdkit_descriptors.py), and TanimotoSimilarity's unhashed Morgan settings.
PHYSCHEM = {
    'Qed': Descriptors.qed,
    'MolecularWeight': Descriptors.MolWt,
    'SlogP': Descriptors.MolLogP,
    'TPSA': Descriptors.TPSA,
    'HBondDonors': Lipinski.NumHDonors,
    'HBondAcceptors': Lipinski.NumHAcceptors,
    'NumRotBond': Lipinski.NumRotatableBonds,
    'NumAromaticRings': Lipinski.NumAromaticRings,
    'NumRings': Lipinski.RingCount,
    'NumAliphaticRings': Lipinski.NumAliphaticRings,
    'NumHeavyAtoms': Lipinski.HeavyAtomCount,
    'NumHeteroAtoms': Lipinski.NumHeteroatoms,
    'Csp3': Lipinski.FractionCSP3,
    'BertzCT': Descriptors.BertzCT,
}
SIMILARITY_REF = 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1'
MORGAN_SETTINGS = [(2, False, False), (2, True, False), (3, True, True), (1, False, True)]


def main():
    out = {
        'rdkit_version': rdkit.__version__,
        'script': 'packages/compound-generation/test/reference/pmo_objectives.py',
        'objectives': {},
        'reinvent_physchem': [],
        'tanimoto_morgan': [],
    }
    for name, fn in objectives().items():
        rows = []
        for smiles in COMMON + SPECIFIC.get(name, []):
            mol = smiles_to_mol(smiles)
            score, parts = fn(mol)
            row = {'smiles': smiles, 'score': score, 'parts': parts}
            if name in ISOMER_FORMULAS:
                row['tdc_isomer'] = isomer_tdc_current(ISOMER_FORMULAS[name], smiles)
            rows.append(row)
        out['objectives'][name] = rows
    for smiles in COMMON:
        mol = smiles_to_mol(smiles)
        out['reinvent_physchem'].append({'smiles': smiles, 'values': {k: float(f(mol)) for k, f in PHYSCHEM.items()}})
    ref = Chem.MolFromSmiles(SIMILARITY_REF)
    for smiles in COMMON:
        mol = Chem.MolFromSmiles(smiles)
        for radius, counts, features in MORGAN_SETTINGS:
            a = AllChem.GetMorganFingerprint(ref, radius, useCounts=counts, useFeatures=features)
            b = AllChem.GetMorganFingerprint(mol, radius, useCounts=counts, useFeatures=features)
            out['tanimoto_morgan'].append({
                'reference': SIMILARITY_REF, 'smiles': smiles, 'radius': radius, 'use_counts': counts,
                'use_features': features, 'similarity': DataStructs.TanimotoSimilarity(a, b)})
    json.dump(out, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
