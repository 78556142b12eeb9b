#!/usr/bin/env python3
"""Held-out PMO objectives for REINVENT 4's ExternalProcess component (issue 38).

Written from GuacaMol's published definitions (guacamol/standard_benchmarks.py and
guacamol/utils/fingerprints.py), independently of this repository's profiles:
  median1              geometric mean of Tanimoto(ECFP4 counts) to menthol and to camphor
                       (median_camphor_menthol; ECFP4 = GetMorganFingerprint(mol, 2), unhashed counts)
  mestranol_similarity Tanimoto on atom-pair counts (GetAtomPairFingerprint, maxLength=10) to mestranol,
                       ClippedScoreModifier(upper_x=0.75): min(sim / 0.75, 1)
Usage: pmo_heldout.py TASK < smiles (one per line); prints {"version": 1, "payload": {"predictions": [...]}}.
A SMILES RDKit cannot read gets 0, as GuacaMol scores it.
"""
import json
import sys

from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import AllChem

RDLogger.DisableLog("rdApp.*")

MENTHOL = "CC(C)C1CCC(C)CC1O"
CAMPHOR = "CC1(C)C2CCC1(C)C(=O)C2"
MESTRANOL = "COc1ccc2[C@]3([H])CC[C@@]4(C)[C@@H](CC[C@@]4(O)C#C)[C@]3([H])CCc2c1"


def ecfp4(mol):
    return AllChem.GetMorganFingerprint(mol, 2)


def ap(mol):
    return AllChem.GetAtomPairFingerprint(mol, maxLength=10)


def make_median1():
    refs = [ecfp4(Chem.MolFromSmiles(s)) for s in (MENTHOL, CAMPHOR)]

    def score(mol):
        fp = ecfp4(mol)
        a, b = (DataStructs.TanimotoSimilarity(fp, r) for r in refs)
        return (a * b) ** 0.5

    return score


def make_mestranol():
    ref = ap(Chem.MolFromSmiles(MESTRANOL))

    def score(mol):
        return min(DataStructs.TanimotoSimilarity(ap(mol), ref) / 0.75, 1.0)

    return score


TASKS = {"median1": make_median1, "mestranol_similarity": make_mestranol}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in TASKS:
        sys.exit(f"usage: {sys.argv[0]} {'|'.join(TASKS)} < smiles")
    score = TASKS[sys.argv[1]]()
    out = []
    for line in sys.stdin.read().splitlines():
        mol = Chem.MolFromSmiles(line.strip()) if line.strip() else None
        out.append(score(mol) if mol is not None else 0.0)
    json.dump({"version": 1, "payload": {"predictions": out}}, sys.stdout)


if __name__ == "__main__":
    main()
