#!/usr/bin/env python3
"""Builds data/human-genes.tsv.gz, the gene/druggability table target-discovery ships.

Source: Bioconductor org.Hs.eg.db's SQLite file (Debian package r-bioc-org.hs.eg.db), which bundles NCBI Gene,
Ensembl, UniProt, GO and Pfam mappings. Only the Python 3 standard library is used.

    apt-get install -y r-bioc-org.hs.eg.db
    python3 scripts/build-druggability-table.py [path/to/org.Hs.eg.sqlite]

The family rules below are the documented classification (README "Druggability"); the first matching rule wins.
"""
import gzip
import os
import re
import sqlite3
import sys

DEFAULT_DB = "/usr/lib/R/site-library/org.Hs.eg.db/extdata/org.Hs.eg.sqlite"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "human-genes.tsv.gz")

# (family, tier, GO molecular-function ids, Pfam ids). Order = precedence: ion channels are also
# "transporter activity" in GO and kinases are also "catalytic activity", so the specific families come first.
RULES = [
    ("kinase", 1, ["GO:0004672", "GO:0052742"], ["PF00069", "PF07714", "PF00454"]),
    ("GPCR", 1, ["GO:0004930"], ["PF00001", "PF00002", "PF00003"]),
    ("nuclear receptor", 1, ["GO:0004879"], ["PF00104"]),
    ("ion channel", 1, ["GO:0005216"], ["PF00520"]),
    ("protease", 2, ["GO:0008233"], []),
    ("phosphatase", 2, ["GO:0004721"], ["PF00102"]),
    ("transporter", 2, ["GO:0005215"], []),
    ("other enzyme", 3, ["GO:0003824"], []),
]
OTHER = ("other", 4)

# Reviewed (Swiss-Prot) accessions mostly use the 6-character O/P/Q pattern; TrEMBL ones are mostly A0A...
SWISSPROT_LIKE = re.compile(r"^[OPQ][0-9][A-Z0-9]{3}[0-9]$")


def main():
    db = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DB
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    q = con.execute

    def multi(sql):
        out = {}
        for k, v in q(sql):
            out.setdefault(k, []).append(v)
        return out

    genes = {row[0]: row[1:] for row in q(
        "select g._id, g.gene_id, i.symbol, i.gene_name, coalesce(t.gene_type, '') from genes g "
        "join gene_info i on i._id = g._id left join genetype t on t._id = g._id")}
    aliases = multi("select _id, alias_symbol from alias")
    ensembl = multi("select _id, ensembl_id from ensembl")
    uniprot = multi("select _id, uniprot_id from uniprot")
    # 'ND' = no biological data available: not evidence of a function.
    go = multi("select distinct _id, go_id from go_mf_all where evidence != 'ND'")
    pfam = multi("select distinct _id, pfam_id from pfam where pfam_id is not null")
    source = dict(q("select name, value from metadata"))

    rows = []
    for _id, (entrez, symbol, name, gene_type) in genes.items():
        gos = set(go.get(_id, []))
        pfs = sorted(set(pfam.get(_id, [])))
        has_protein = _id in uniprot or gene_type == "protein-coding"
        if not has_protein and _id not in ensembl:
            continue  # keep the table compact: no protein and no Ensembl id to resolve
        family, tier, ev_go, ev_pf = OTHER[0], OTHER[1], [], []
        if has_protein:
            for fam, t, go_ids, pf_ids in RULES:
                hit_go = [g for g in go_ids if g in gos]
                hit_pf = [p for p in pf_ids if p in pfs]
                if hit_go or hit_pf:
                    family, tier, ev_go, ev_pf = fam, t, hit_go, hit_pf
                    break
        accs = sorted(set(uniprot.get(_id, [])), key=lambda a: (not SWISSPROT_LIKE.match(a), len(a), a))
        al = sorted(set(a for a in aliases.get(_id, []) if a != symbol))
        rows.append([
            entrez, symbol, name, gene_type,
            "|".join(sorted(set(ensembl.get(_id, [])))),
            accs[0] if accs else "",
            "|".join(al),
            family, str(tier),
            "|".join(ev_go),
            "|".join(pfs[:12]),
            "|".join(ev_pf),
        ])
    rows.sort(key=lambda r: int(r[0]))
    header = ["entrez_id", "symbol", "name", "gene_type", "ensembl_ids", "uniprot", "aliases", "family", "tier",
              "evidence_go_mf", "pfam_domains", "evidence_pfam"]
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as fh:
        fh.write("# org.Hs.eg.db " + source.get("ORGPKGSCHEMA", "") + " " + source.get("EGSOURCEDATE", "") +
                 "; built by scripts/build-druggability-table.py\n")
        fh.write("\t".join(header) + "\n")
        for r in rows:
            fh.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    fams = {}
    for r in rows:
        fams[r[7]] = fams.get(r[7], 0) + 1
    print(f"{len(rows)} genes -> {OUT}; families: {fams}")


if __name__ == "__main__":
    main()
