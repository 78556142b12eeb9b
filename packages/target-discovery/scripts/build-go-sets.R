#!/usr/bin/env Rscript
# Builds data/go-sets.tsv.gz: the human GO gene sets limma's goana uses, org.Hs.egGO2ALLEGS (each term with the
# genes annotated to it or to any of its descendants, every evidence code; Bioconductor org.Hs.eg.db, Artistic-2.0;
# GO CC BY 4.0) with each term's name and ontology from GO.db (Artistic-2.0).
#
#   apt-get install -y r-base-core r-bioc-org.hs.eg.db r-bioc-go.db
#   Rscript packages/target-discovery/scripts/build-go-sets.R
#
# One line per term: go_id, ontology (BP/CC/MF), term name, then its Entrez ids in increasing numeric order as the
# first id followed by the gaps between consecutive ids (comma-separated), which gzip packs several times smaller
# than the ids themselves. Gene-term pairs repeated under several evidence codes count once, as in goana.
suppressPackageStartupMessages({
  library(AnnotationDbi)
  library(org.Hs.eg.db)
  library(GO.db)
})
args <- commandArgs(trailingOnly = FALSE)
here <- dirname(normalizePath(sub("^--file=", "", args[grep("^--file=", args)])))
out <- file.path(here, "..", "data", "go-sets.tsv.gz")

pairs <- toTable(org.Hs.egGO2ALLEGS)[, c("gene_id", "go_id", "Ontology")]
pairs <- pairs[!duplicated(pairs[, c("gene_id", "go_id")]), ]
by_term <- split(as.numeric(pairs$gene_id), pairs$go_id)
terms <- sort(names(by_term))
ont <- pairs$Ontology[match(terms, pairs$go_id)]
name <- suppressMessages(AnnotationDbi::select(GO.db, keys = terms, columns = "TERM"))
stopifnot(identical(name$GOID, terms))
name <- gsub("[\t\r\n]", " ", name$TERM)
enc <- vapply(terms, function(t) {
  g <- sort(by_term[[t]])
  paste(format(c(g[1], diff(g)), scientific = FALSE, trim = TRUE), collapse = ",")
}, "")

# goana's universe is restricted to org.Hs.eg.db's genes (Lkeys of the map): the engine takes every Entrez id of
# its gene table (built from the same org.Hs.eg.db) as such a gene, which holds only if the gene table's ids are
# all org.Hs.eg.db genes. Checked here when the gene table is beside this script.
genes_file <- file.path(here, "..", "data", "human-genes.tsv.gz")
if (file.exists(genes_file)) {
  gt <- read.delim(gzfile(genes_file), comment.char = "#", colClasses = "character")
  missing <- setdiff(gt$entrez_id, Lkeys(org.Hs.egGO2ALLEGS))
  if (length(missing)) stop(length(missing), " gene-table Entrez ids are not org.Hs.eg.db genes, e.g. ", missing[1])
}

info <- org.Hs.eg_dbInfo()
go_info <- GO_dbInfo()
val <- function(d, k) d$value[d$name == k]
con <- gzfile(out, "w")
writeLines(sprintf(
  "# org.Hs.egGO2ALLEGS from org.Hs.eg.db %s (Entrez Gene %s, GO annotations %s) and GO.db %s (GO %s); scripts/build-go-sets.R",
  packageVersion("org.Hs.eg.db"), val(info, "EGSOURCEDATE"), val(info, "GOEGSOURCEDATE"),
  packageVersion("GO.db"), val(go_info, "GOSOURCEDATE")), con)
writeLines("go_id\tontology\tterm\tentrez_gaps", con)
writeLines(paste(terms, ont, name, enc, sep = "\t"), con)
close(con)
cat(length(terms), "terms,", nrow(pairs), "gene-term pairs ->", out, "\n")
