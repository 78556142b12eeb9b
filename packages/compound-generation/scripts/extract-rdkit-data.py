#!/usr/bin/env python3
"""Extract the parameter tables the engine needs from RDKit's published sources into committed data files.

Reproducible: run with Debian's RDKit 2022.09 (the version the reference data was computed with):
    apt-get install -y python3-rdkit rdkit-data
    /usr/bin/python3 packages/compound-generation/scripts/extract-rdkit-data.py

Writes into packages/compound-generation/data/:
  qed-params.json            QED (Bickerton et al. 2012) ADS parameters, mean weights, acceptor, aliphatic-ring and
                             structural-alert SMARTS, as in rdkit.Chem.QED
  sa-fragment-scores.json.gz SA score (Ertl and Schuffenhauer 2009) fragment contributions from RDKit's
                             Contrib/SA_Score/fpscores.pkl.gz, keyed by unhashed Morgan radius-2 ids
  pains.json                 PAINS A/B/C SMARTS (Baell and Holloway 2010, via RDKit's Data/Pains/wehi_pains.csv),
                             with explicit-hydrogen query atoms merged so they match H-suppressed molecules
The run time never needs Python or RDKit's Python package: only these files.
"""
import csv
import gzip
import inspect
import json
import os
import pickle
import re
import sys

import rdkit
from rdkit import Chem
from rdkit.Chem import QED

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data')


def find(name, roots=('/usr/share/RDKit', '/usr/share/rdkit', '/usr/lib/python3/dist-packages/rdkit')):
    for root in roots:
        for dirpath, _, files in os.walk(root):
            if name in files:
                return os.path.join(dirpath, name)
    sys.exit(f'cannot find {name}: install rdkit-data')


def qed_params():
    source = inspect.getsource(QED)
    aliphatic = re.search(r"AliphaticRings\s*=\s*Chem\.MolFromSmarts\('([^']+)'\)", source).group(1)
    order = list(QED.QEDproperties._fields)
    return {
        'source': f'rdkit.Chem.QED (RDKit {rdkit.__version__}), BSD-3-Clause',
        'properties': order,
        'ads': {k: QED.adsParameters[k]._asdict() for k in order},
        'weight_mean': list(QED.WEIGHT_MEAN),
        'acceptor_smarts': list(QED.AcceptorSmarts),
        'aliphatic_rings_smarts': aliphatic,
        'structural_alert_smarts': list(QED.StructuralAlertSmarts),
    }


def sa_scores():
    path = find('fpscores.pkl.gz')
    with gzip.open(path) as f:
        groups = pickle.load(f)
    # The pickle is a list of [score, id, id, ...]. Stored as distinct scores with sorted, delta-encoded ids:
    # compact and exact (ids are unsigned 32-bit Morgan environment hashes).
    by_score = {}
    for g in groups:
        by_score.setdefault(float(g[0]), []).extend(int(x) for x in g[1:])
    scores, ids = [], []
    seen = set()
    for score in sorted(by_score):
        s = sorted(set(by_score[score]))
        for x in s:
            if x in seen:
                sys.exit(f'id {x} has two scores')
            seen.add(x)
        scores.append(score)
        ids.append([s[0]] + [b - a for a, b in zip(s, s[1:])])
    return {
        'source': f'RDKit {rdkit.__version__} Contrib/SA_Score/fpscores.pkl.gz ({path}), BSD-3-Clause',
        'key': 'unhashed Morgan radius-2 environment id (GetMorganFingerprint(mol, 2))',
        'count': len(seen),
        'scores': scores,
        'ids_delta': ids,
    }


def pains():
    path = find('wehi_pains.csv')
    out = []
    with open(path) as f:
        for row in csv.reader(f):
            smarts, label = row[0], row[1]
            q = Chem.MolFromSmarts(smarts)
            if q is None:
                sys.exit(f'bad PAINS SMARTS {label}')
            merged = Chem.MolToSmarts(Chem.MergeQueryHs(q))
            name = re.search(r'regId=([^>]+)', label).group(1)
            out.append({'name': name, 'smarts': merged})
    return {
        'source': f'RDKit {rdkit.__version__} Data/Pains/wehi_pains.csv ({path}); Baell and Holloway, J. Med. Chem. '
                  '2010, 53, 2719; SMARTS by Saubern, Guha and Baell, Mol. Inf. 2011, 30, 847; BSD-3-Clause (RDKit)',
        'transform': 'Chem.MergeQueryHs then MolToSmarts',
        'alerts': out,
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, 'qed-params.json'), 'w') as f:
        json.dump(qed_params(), f, indent=1)
        f.write('\n')
    with gzip.GzipFile(os.path.join(OUT, 'sa-fragment-scores.json.gz'), 'wb', mtime=0) as f:
        f.write(json.dumps(sa_scores(), separators=(',', ':')).encode())
    with open(os.path.join(OUT, 'pains.json'), 'w') as f:
        json.dump(pains(), f, indent=1)
        f.write('\n')
    print('wrote', OUT)


if __name__ == '__main__':
    main()
