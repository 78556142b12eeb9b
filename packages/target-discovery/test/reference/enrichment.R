#!/usr/bin/env Rscript
# R's gene-set enrichment on the reference data, the oracle of test/enrichment-reference.test.ts (issue 42):
# limma's goana, camera (inter.gene.cor 0.01, limma's default, and estimated: NA) and fry on
#   1. ALL, BCR/ABL versus NEG (limma on RMA log2 values): the rows the engine tests once the HG-U95A probe
#      annotation is applied (one probe set per gene), with their Entrez ids: all_bcrabl_features.tsv, written by
#      export-all-features.ts (the engine's gene resolution is its own; this file pins the rows and genes R gets);
#   2. the simulated counts (DESeq2's simulator, 10,000 genes x 12) through filterByExpr, TMM and voom. Their gene
#      ids name no gene, so this script gives 9,000 of them Entrez ids drawn (seed 42) from the engine's gene table
#      among genes with a GO annotation and leaves 1,000 unannotated: sim_rnaseq_entrez.csv, which the test sends as
#      options.feature_annotation.
# GO sets are org.Hs.egGO2ALLEGS (a term and its descendants, every evidence code), one collection per ontology,
# restricted to sets of 15 to 500 tested rows; BH within each method and collection.
#
#   apt-get install -y r-base-core r-bioc-limma r-bioc-edger r-bioc-go.db r-bioc-org.hs.eg.db r-cran-statmod
#   Rscript packages/target-discovery/test/reference/enrichment.R
# Reference inputs: ../shared/reference/target-discovery beside the repository (EVIDENT_REFERENCE_DIR overrides).
suppressPackageStartupMessages({
  library(limma)
  library(edgeR)
  library(AnnotationDbi)
  library(org.Hs.eg.db)
  library(GO.db)
})
args <- commandArgs(trailingOnly = FALSE)
here <- dirname(normalizePath(sub("^--file=", "", args[grep("^--file=", args)])))
refdir <- Sys.getenv("EVIDENT_REFERENCE_DIR",
  file.path(here, "..", "..", "..", "..", "..", "shared", "reference", "target-discovery"))
MIN_SIZE <- 15
MAX_SIZE <- 500

pairs <- toTable(org.Hs.egGO2ALLEGS)[, c("gene_id", "go_id", "Ontology")]
pairs <- pairs[!duplicated(pairs[, c("gene_id", "go_id")]), ]

fmt <- function(x) ifelse(is.na(x), "", sprintf("%.15g", x))

# One table per data set: every method, collection and set; columns as the engine names them.
enrichment <- function(y, design, fit, entrez) {
  out <- list()
  add <- function(d) out[[length(out) + 1]] <<- d
  g <- goana(fit, coef = 2, geneid = entrez, FDR = 0.05)
  for (ont in c("BP", "CC", "MF")) {
    collection <- paste0("GO:", ont)
    gg <- g[g$Ont == ont & g$N >= MIN_SIZE & g$N <= MAX_SIZE, ]
    p <- pmin(gg$P.Up, gg$P.Down)
    add(data.frame(method = "goana", collection = collection, set_id = rownames(gg), size = gg$N,
      direction = ifelse(gg$P.Down < gg$P.Up, "down", "up"), p_value = p, fdr = p.adjust(p, "BH"),
      up = gg$Up, down = gg$Down, p_up = gg$P.Up, p_down = gg$P.Down, p_value_mixed = NA, fdr_mixed = NA,
      correlation = NA))
    pp <- pairs[pairs$Ontology == ont & pairs$gene_id %in% entrez, ]
    index <- ids2indices(split(pp$gene_id, pp$go_id), entrez)
    index <- index[lengths(index) >= MIN_SIZE & lengths(index) <= MAX_SIZE]
    for (cor in c(0.01, NA)) {
      cam <- camera(y, index, design, contrast = 2, inter.gene.cor = cor, sort = FALSE)
      add(data.frame(method = if (is.na(cor)) "camera_estimated" else "camera", collection = collection,
        set_id = rownames(cam), size = cam$NGenes, direction = tolower(cam$Direction), p_value = cam$PValue,
        fdr = cam$FDR, up = NA, down = NA, p_up = NA, p_down = NA, p_value_mixed = NA, fdr_mixed = NA,
        correlation = if (is.na(cor)) cam$Correlation else NA))
    }
    fr <- fry(y, index, design, contrast = 2, sort = "none")
    add(data.frame(method = "fry", collection = collection, set_id = rownames(fr), size = fr$NGenes,
      direction = tolower(fr$Direction), p_value = fr$PValue, fdr = fr$FDR, up = NA, down = NA, p_up = NA,
      p_down = NA, p_value_mixed = fr$PValue.Mixed, fdr_mixed = fr$FDR.Mixed, correlation = NA))
  }
  d <- do.call(rbind, out)
  for (k in c("p_value", "fdr", "p_up", "p_down", "p_value_mixed", "fdr_mixed", "correlation")) d[[k]] <- fmt(d[[k]])
  d$up[is.na(d$up)] <- ""
  d$down[is.na(d$down)] <- ""
  d
}

write_gz <- function(d, name) {
  con <- gzfile(file.path(here, name), "w")
  write.csv(d, con, row.names = FALSE, quote = FALSE)
  close(con)
  cat(name, ":", nrow(d), "rows\n")
}

time <- function(label, expr) {
  t <- system.time(v <- expr)[["elapsed"]]
  cat(sprintf("%s: %.2f s\n", label, t))
  v
}

# 1. ALL
expr <- as.matrix(read.csv(file.path(refdir, "all_bcrabl_expr.csv"), row.names = 1, check.names = FALSE))
meta <- read.csv(file.path(refdir, "all_bcrabl_meta.csv"), check.names = FALSE)
features <- read.delim(file.path(here, "all_bcrabl_features.tsv"), colClasses = "character")
features$entrez_id[features$entrez_id == ""] <- NA
y <- expr[features$feature_id, meta$sample]
design <- model.matrix(~ factor(meta$mol.biol, levels = c("NEG", "BCR/ABL")))
fit <- eBayes(lmFit(y, design))
all <- time("ALL goana+camera+fry", enrichment(y, design, fit, features$entrez_id))
write_gz(all, "all_bcrabl_enrichment.csv.gz")

# 2. Simulated counts through voom
counts <- as.matrix(read.csv(file.path(refdir, "sim_rnaseq_counts.csv"), row.names = 1))
smeta <- read.csv(file.path(refdir, "sim_rnaseq_meta.csv"))
genes <- read.delim(gzfile(file.path(here, "..", "..", "data", "human-genes.tsv.gz")), comment.char = "#",
  colClasses = "character")
with_go <- sort(as.integer(intersect(genes$entrez_id, unique(pairs$gene_id))))
set.seed(42)
ids <- rownames(counts)
annotated <- sort(sample(length(ids), 9000))
entrez_all <- rep(NA_character_, length(ids))
entrez_all[annotated] <- as.character(sample(with_go, 9000))
write.csv(data.frame(feature_id = ids, entrez_id = ifelse(is.na(entrez_all), "", entrez_all)),
  file.path(here, "sim_rnaseq_entrez.csv"), row.names = FALSE, quote = FALSE)
grp <- factor(smeta$condition, levels = c("control", "tumor"))
sdesign <- model.matrix(~grp)
dge <- DGEList(counts[, smeta$sample_id], group = grp)
keep <- filterByExpr(dge)
dge <- calcNormFactors(dge[keep, , keep.lib.sizes = FALSE])
v <- voom(dge, sdesign)
sfit <- eBayes(lmFit(v, sdesign))
sim <- time("simulated voom goana+camera+fry", enrichment(v, sdesign, sfit, entrez_all[keep]))
write_gz(sim, "sim_rnaseq_enrichment.csv.gz")
cat(R.version.string, "limma", as.character(packageVersion("limma")), "org.Hs.eg.db",
  as.character(packageVersion("org.Hs.eg.db")), "GO.db", as.character(packageVersion("GO.db")), "\n")
