#!/usr/bin/env python3
"""Builds data/human-genes.tsv.gz, the gene/druggability table target-discovery ships.

Sources: Bioconductor org.Hs.eg.db's SQLite file (Debian package r-bioc-org.hs.eg.db), which bundles NCBI Gene,
Ensembl, UniProt, GO and Pfam mappings; the curated lists beside the table, data/approved-drug-targets.tsv (efficacy
targets of approved medicines, with drugs) and data/safety-targets.tsv (the Bowes et al. 2012 safety panel).
Only the Python 3 standard library is used.

    apt-get install -y r-bioc-org.hs.eg.db
    python3 scripts/build-druggability-table.py [path/to/org.Hs.eg.sqlite]

The family rules below are the documented classification (README "Druggability"); the first matching rule wins.
Tiers follow Finan et al. 2017 (Sci Transl Med 9:eaag1166) with the data at hand:
  1  efficacy target of an approved medicine (approved-drug-targets.tsv);
  2  close homologue of a tier-1 gene: same symbol root (the symbol less its final number and letter: HGNC names paralogues
     with a shared root, HDAC1/HDAC8, SLC6A4/SLC6A2; roots under 3 characters, like CD or CA, do not count) and the same Pfam domain architecture (identical, non-empty set of Pfam domains);
  3  member of a druggable family (the GO/Pfam family rules);
  4  none of these.
Olfactory and taste receptors are tier 3 at most (a family of GPCRs without drug precedent).
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
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
# Olfactory (OR1A1, OR52E2, ...) and taste (TAS1R1, TAS2R38) receptors: tier 3 at most.
CHEMOSENSORY = re.compile(r"^(OR\d+[A-Z]+\d+[A-Z]*|TAS1R\d|TAS2R\d+)$")

# Reviewed (Swiss-Prot) accessions mostly use the 6-character O/P/Q pattern; TrEMBL ones are mostly A0A...
SWISSPROT_LIKE = re.compile(r"^[OPQ][0-9][A-Z0-9]{3}[0-9]$")


def read_list(name):
    """A curated TSV (comment lines start with #): a list of dicts by header."""
    with open(os.path.join(DATA, name), encoding="utf-8") as fh:
        lines = [l.rstrip("\n") for l in fh if l.strip() and not l.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, l.split("\t"))) for l in lines[1:]]


def symbol_root(symbol):
    """HDAC1 -> HDAC, SLC6A4 -> SLC6A, CYP19A1 -> CYP19A, KCNH2 -> KCNH: the name a paralogue family shares.
    A root shorter than 3 characters (CD79B -> CD, CA2 -> CA) names no family: None."""
    root = re.sub(r"\d+[A-Z]?$", "", symbol)
    return root if len(root) >= 3 else None


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

    # The curated lists name genes by symbol; resolve each to a row id (current symbol, else a unique alias).
    by_symbol = {v[1]: k for k, v in genes.items()}
    by_alias = {}
    for k, al in aliases.items():
        for a in al:
            by_alias.setdefault(a, set()).add(k)

    def lookup(sym, source):
        if sym in by_symbol:
            return by_symbol[sym]
        hits = by_alias.get(sym, set())
        if len(hits) == 1:
            return next(iter(hits))
        sys.exit(f"{source}: symbol {sym} does not name exactly one gene in org.Hs.eg.db")

    approved = {lookup(r["symbol"], "approved-drug-targets.tsv"): r for r in read_list("approved-drug-targets.tsv")}
    safety = {lookup(r["symbol"], "safety-targets.tsv"): r for r in read_list("safety-targets.tsv")}
    # Tier-2 homology key: (symbol root, Pfam architecture) of every tier-1 gene.
    tier1_keys = {}
    for _id in approved:
        pf = frozenset(pfam.get(_id, []))
        if pf and symbol_root(genes[_id][1]):
            tier1_keys.setdefault((symbol_root(genes[_id][1]), pf), genes[_id][1])

    rows = []
    tiers = {}
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
        # Finan-style tier: approved-drug target, close homologue of one, druggable family, none.
        chemosensory = bool(CHEMOSENSORY.match(symbol))
        homologue = tier1_keys.get((symbol_root(symbol), frozenset(pfs))) if pfs and symbol_root(symbol) else None
        if _id in approved and not chemosensory:
            tier, tsrc, evidence = 1, "approved_drug", "efficacy target of " + approved[_id]["drugs"]
        elif homologue and not chemosensory:
            tier, tsrc = 2, "homologue"
            evidence = f"homologue of {homologue} (same symbol root and Pfam architecture {'+'.join(pfs)})"
        elif family != OTHER[0]:
            tier, tsrc, evidence = 3, "druggable_family", f"druggable family: {family}"
        else:
            tier, tsrc, evidence = 4, "none", ""
        tiers[tsrc] = tiers.get(tsrc, 0) + 1
        drugs = approved[_id]["drugs"] if _id in approved else ""
        liability = ""
        if _id in safety:
            liability = f"{safety[_id]['bowes_target']}: {safety[_id]['concern']} (Bowes et al. 2012 panel)"
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
            tsrc, evidence, drugs, liability,
        ])
    rows.sort(key=lambda r: int(r[0]))
    header = ["entrez_id", "symbol", "name", "gene_type", "ensembl_ids", "uniprot", "aliases", "family", "tier",
              "evidence_go_mf", "pfam_domains", "evidence_pfam", "tier_source", "tier_evidence", "drugs", "safety_liability"]
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as fh:
        fh.write("# org.Hs.eg.db " + source.get("ORGPKGSCHEMA", "") + " " + source.get("EGSOURCEDATE", "") +
                 "; built by scripts/build-druggability-table.py\n")
        fh.write("\t".join(header) + "\n")
        for r in rows:
            fh.write("\t".join(x.replace("\t", " ") for x in r) + "\n")
    fams = {}
    for r in rows:
        fams[r[7]] = fams.get(r[7], 0) + 1
    missing = [genes[k][1] for k in approved if not any(r[0] == genes[k][0] for r in rows)]
    if missing:
        sys.exit(f"approved-drug targets left out of the table: {missing}")
    print(f"{len(rows)} genes -> {OUT}; families: {fams}; tier sources: {tiers}")


if __name__ == "__main__":
    main()
