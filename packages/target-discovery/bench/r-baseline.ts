// Same-run R baselines for the DE benchmark: R is run on the same data in the same run and its own timing of
// the pipeline (excluding file reading) is reported. Without Rscript or a needed package the baseline is
// reported as missing, never as a constant. Install line: see the package README.
import { spawnSync } from 'node:child_process';

export type RBaseline =
  | { seconds: number; cpu_seconds?: number; what: string }
  | { missing: string }
  | { timed_out_after_seconds: number; what: string };

/** Which of the packages Rscript can load; null when Rscript itself is absent. */
export function rPackages(): Set<string> | null {
  const probe = spawnSync(
    'Rscript',
    ['-e', 'for (p in c("limma","edgeR","DESeq2")) if (requireNamespace(p, quietly=TRUE)) cat(p, "\\n")'],
    { encoding: 'utf8' },
  );
  if (probe.error || probe.status !== 0) return null;
  return new Set(probe.stdout.split(/\s+/).filter(Boolean));
}

/**
 * Runs an R script whose last output line is the elapsed (and then the CPU) seconds of the timed part, as R's
 * system.time reports them (CPU = user + system: on a shared machine the wall clock also counts waiting for a
 * core, so both are reported, as for our pipelines); `needs` are the packages
 * it loads. timeoutSeconds bounds the wait (a baseline that takes longer is reported as a lower bound).
 */
export function runR(script: string, needs: string[], what: string, timeoutSeconds: number): RBaseline {
  const pkgs = rPackages();
  if (!pkgs) return { missing: 'Rscript not found (install: see packages/target-discovery/README.md)' };
  const absent = needs.filter((p) => !pkgs.has(p));
  if (absent.length) return { missing: `R package(s) not installed: ${absent.join(', ')}` };
  const r = spawnSync('Rscript', ['-e', script], {
    encoding: 'utf8',
    timeout: timeoutSeconds * 1000,
    maxBuffer: 1 << 24,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT')
    return { timed_out_after_seconds: timeoutSeconds, what };
  if (r.status !== 0) return { missing: `R failed: ${r.stderr.trim().split('\n').slice(-2).join(' ')}` };
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  const [seconds, cpu] = last.trim().split(/\s+/).map(Number);
  if (seconds === undefined || !Number.isFinite(seconds)) return { missing: `R printed no timing (${last})` };
  return cpu !== undefined && Number.isFinite(cpu) ? { seconds, cpu_seconds: cpu, what } : { seconds, what };
}

const q = (s: string) => JSON.stringify(s);

export const rScripts = {
  limmaAll: (expr: string, meta: string) => `
suppressMessages(library(limma))
x <- as.matrix(read.csv(${q(expr)}, row.names=1, check.names=FALSE))
m <- read.csv(${q(meta)})
keep <- m[["mol.biol"]] %in% c("BCR/ABL","NEG"); x <- x[, m$sample[keep]]
design <- model.matrix(~factor(m[["mol.biol"]][keep], levels=c("NEG","BCR/ABL")))
st <- system.time(for (i in 1:5) tt <- topTable(eBayes(lmFit(x, design)), coef=2, number=Inf, sort.by="none")) / 5
cat(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]], "\\n")`,

  deseq2Csv: (counts: string, meta: string) => `
suppressMessages(library(DESeq2))
cts <- as.matrix(read.csv(${q(counts)}, row.names=1)); meta <- read.csv(${q(meta)})
meta$condition <- factor(meta$condition, levels=c("control","tumor"))
st <- system.time({ dds <- DESeq(DESeqDataSetFromMatrix(cts, meta, ~condition), quiet=TRUE); res <- results(dds) })
cat(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]], "\\n")`,

  edgerQlCsv: (counts: string, meta: string) => `
suppressMessages(library(edgeR))
cts <- as.matrix(read.csv(${q(counts)}, row.names=1)); meta <- read.csv(${q(meta)})
grp <- factor(meta$condition, levels=c("control","tumor")); design <- model.matrix(~grp)
st <- system.time({ y <- DGEList(cts, group=grp); keep <- filterByExpr(y); y <- y[keep,,keep.lib.sizes=FALSE]
  y <- calcNormFactors(y); y <- estimateDisp(y, design); fit <- glmQLFit(y, design); tt <- topTags(glmQLFTest(fit, coef=2), n=Inf) })
cat(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]], "\\n")`,

  /** Counts as int32 binary (genes x samples, row-major), the case indicator as a 0/1 vector. */
  deseq2Bin: (file: string, G: number, n: number, caseFrom: number) => `
suppressMessages(library(DESeq2))
cts <- matrix(readBin(${q(file)}, "integer", n=${G * n}, size=4), nrow=${G}, ncol=${n}, byrow=TRUE)
cd <- data.frame(condition=factor(ifelse(seq_len(${n}) > ${caseFrom}, "case", "control"), levels=c("control","case")))
st <- system.time({ dds <- DESeq(DESeqDataSetFromMatrix(cts, cd, ~condition), quiet=TRUE); res <- results(dds) })
cat(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]], "\\n")`,

  edgerQlBin: (file: string, G: number, n: number, caseFrom: number) => `
suppressMessages(library(edgeR))
cts <- matrix(readBin(${q(file)}, "integer", n=${G * n}, size=4), nrow=${G}, ncol=${n}, byrow=TRUE)
grp <- factor(ifelse(seq_len(${n}) > ${caseFrom}, "case", "control"), levels=c("control","case")); design <- model.matrix(~grp)
st <- system.time({ y <- DGEList(cts, group=grp); keep <- filterByExpr(y); y <- y[keep,,keep.lib.sizes=FALSE]
  y <- calcNormFactors(y); y <- estimateDisp(y, design); fit <- glmQLFit(y, design); tt <- topTags(glmQLFTest(fit, coef=2), n=Inf) })
cat(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]], "\\n")`,
};
