#!/usr/bin/env Rscript
# Builds test/fixtures/hgu95a-annotation.tsv.gz: Affymetrix HG-U95A probe set -> Entrez (LocusLink) id and symbol,
# from the example annotation that Bioconductor's annotate package ships (data hgu95Asym, hgu95All; Artistic-2.0).
# The 12,625 probe set ids are those of HG-U95Av2, the array of the ALL reference data. The annotation dates from
# the LocusLink era: some ids have since been retired or merged, as in any real, ageing annotation file.
#
#   apt-get install -y r-base-core r-bioc-annotate
#   Rscript packages/target-discovery/scripts/build-hgu95a-annotation.R
args <- commandArgs(trailingOnly = FALSE)
here <- dirname(normalizePath(sub("^--file=", "", args[grep("^--file=", args)])))
out <- file.path(here, "..", "test", "fixtures", "hgu95a-annotation.tsv.gz")
e <- new.env()
data("hgu95Asym", "hgu95All", package = "annotate", envir = e)
sym <- unlist(as.list(e$hgu95Asym))
ll <- unlist(as.list(e$hgu95All))
ids <- sort(names(sym))
d <- data.frame(probe_id = ids, entrez_id = ll[ids], symbol = sym[ids])
d[is.na(d) | d == "NA"] <- ""
con <- gzfile(out, "w")
writeLines("# HG-U95A probe sets from Bioconductor annotate's hgu95Asym/hgu95All (Artistic-2.0); scripts/build-hgu95a-annotation.R", con)
write.table(d, con, sep = "\t", quote = FALSE, row.names = FALSE)
close(con)
cat(nrow(d), "probe sets,", sum(d$entrez_id != ""), "with an Entrez id ->", out, "\n")
