#!/usr/bin/env python3
"""Test fixture: which PAINS alerts RDKit's own FilterCatalog (RDKit 2022.09) reports for each molecule of the shared
reference set, to check the engine's SMARTS-based PAINS matching against RDKit's. Run with Debian's python3-rdkit:
    /usr/bin/python3 packages/compound-generation/scripts/pains-fixture.py
Writes packages/compound-generation/test/fixtures/pains-filtercatalog.json ({reference id: [alert names]}, only
molecules with at least one alert; all others have none).
"""
import csv
import json
import os

import rdkit
from rdkit import Chem
from rdkit.Chem.FilterCatalog import FilterCatalog, FilterCatalogParams

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, '..', '..', '..', '..', 'shared', 'reference', 'chemistry', 'nci_public_ref.csv')
OUT = os.path.join(HERE, '..', 'test', 'fixtures', 'pains-filtercatalog.json')

params = FilterCatalogParams()
params.AddCatalog(FilterCatalogParams.FilterCatalogs.PAINS)
catalog = FilterCatalog(params)
hits = {}
n = 0
with open(REF) as f:
    for row in csv.DictReader(f):
        n += 1
        mol = Chem.MolFromSmiles(row['smiles'])
        names = sorted({e.GetDescription() for e in catalog.GetMatches(mol)}) if mol else []
        if names:
            hits[row['id']] = names
with open(OUT, 'w') as f:
    json.dump({'source': f'RDKit {rdkit.__version__} FilterCatalog PAINS on nci_public_ref.csv', 'molecules': n, 'hits': hits}, f, indent=1)
    f.write('\n')
print(len(hits), 'of', n, 'flagged')
