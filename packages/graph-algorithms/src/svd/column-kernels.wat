;; The Lanczos polish's row-block kernels (row-ops.ts) in WebAssembly: the dense ones with 128-bit SIMD, two rows
;; per instruction, and all of them without bounds checks. Same loops as column-kernels.ts (chunks of rows, four columns per sweep); V8
;; compiles those to one scalar multiply-add per element with a bounds check per load, and they ran at a third of
;; the speed of OpenBLAS's dgemv on one core (100,000 × 120: 13 ms against 4.5 ms), bound by instructions rather
;; than memory. Written by hand: no npm library offers such kernels over a shared memory.
;;
;; Pointers are byte offsets into the imported memory. Matrices are column-major with n rows: row r of column i of
;; V is at v + 8·(i·n + r). Row ranges [from, to) must have an even length (the caller does an odd last row).
;; scripts/build-wasm.mjs assembles this file into column-kernels-wasm.ts; a test checks that the two agree.
(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; out[i] = Σ_{r ∈ [from, to)} V[r, i]·w[r] for i < count (out[0 .. count) overwritten). Chunks of 1,024 rows.
  (func (export "project")
    (param $v i32) (param $n i32) (param $count i32) (param $w i32) (param $out i32) (param $from i32) (param $to i32)
    (local $nb i32) (local $i i32) (local $r0 i32) (local $r1 i32) (local $len i32) (local $k i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $wp i32) (local $q i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128) (local $x v128)
    local.get $n
    i32.const 3
    i32.shl
    local.set $nb
    local.get $out
    i32.const 0
    local.get $count
    i32.const 3
    i32.shl
    memory.fill
    local.get $from
    local.set $r0
    block $chunksDone
      loop $chunks
        local.get $r0
        local.get $to
        i32.ge_s
        br_if $chunksDone
        ;; r1 = min(to, r0 + 1024); len = bytes of the chunk
        local.get $r0
        i32.const 1024
        i32.add
        local.tee $r1
        local.get $to
        local.get $r1
        local.get $to
        i32.lt_s
        select
        local.tee $r1
        local.get $r0
        i32.sub
        i32.const 3
        i32.shl
        local.set $len
        local.get $w
        local.get $r0
        i32.const 3
        i32.shl
        i32.add
        local.set $wp
        i32.const 0
        local.set $i
        block $quadsDone
          loop $quads
            local.get $i
            i32.const 4
            i32.add
            local.get $count
            i32.gt_s
            br_if $quadsDone
            local.get $v
            local.get $i
            local.get $n
            i32.mul
            local.get $r0
            i32.add
            i32.const 3
            i32.shl
            i32.add
            local.tee $p0
            local.get $nb
            i32.add
            local.tee $p1
            local.get $nb
            i32.add
            local.tee $p2
            local.get $nb
            i32.add
            local.set $p3
            v128.const f64x2 0 0
            local.tee $s0
            local.tee $s1
            local.tee $s2
            local.set $s3
            i32.const 0
            local.set $k
            block $rowsDone
              loop $rows
                local.get $k
                local.get $len
                i32.ge_u
                br_if $rowsDone
                local.get $wp
                local.get $k
                i32.add
                v128.load align=8
                local.set $x
                local.get $s0
                local.get $p0
                local.get $k
                i32.add
                v128.load align=8
                local.get $x
                f64x2.mul
                f64x2.add
                local.set $s0
                local.get $s1
                local.get $p1
                local.get $k
                i32.add
                v128.load align=8
                local.get $x
                f64x2.mul
                f64x2.add
                local.set $s1
                local.get $s2
                local.get $p2
                local.get $k
                i32.add
                v128.load align=8
                local.get $x
                f64x2.mul
                f64x2.add
                local.set $s2
                local.get $s3
                local.get $p3
                local.get $k
                i32.add
                v128.load align=8
                local.get $x
                f64x2.mul
                f64x2.add
                local.set $s3
                local.get $k
                i32.const 16
                i32.add
                local.set $k
                br $rows
              end
            end
            ;; out[i .. i + 4) += the lanes' sums
            local.get $out
            local.get $i
            i32.const 3
            i32.shl
            i32.add
            local.tee $q
            local.get $q
            f64.load
            local.get $s0
            f64x2.extract_lane 0
            local.get $s0
            f64x2.extract_lane 1
            f64.add
            f64.add
            f64.store
            local.get $q
            local.get $q
            f64.load offset=8
            local.get $s1
            f64x2.extract_lane 0
            local.get $s1
            f64x2.extract_lane 1
            f64.add
            f64.add
            f64.store offset=8
            local.get $q
            local.get $q
            f64.load offset=16
            local.get $s2
            f64x2.extract_lane 0
            local.get $s2
            f64x2.extract_lane 1
            f64.add
            f64.add
            f64.store offset=16
            local.get $q
            local.get $q
            f64.load offset=24
            local.get $s3
            f64x2.extract_lane 0
            local.get $s3
            f64x2.extract_lane 1
            f64.add
            f64.add
            f64.store offset=24
            local.get $i
            i32.const 4
            i32.add
            local.set $i
            br $quads
          end
        end
        ;; the last count mod 4 columns, one at a time
        block $singlesDone
          loop $singles
            local.get $i
            local.get $count
            i32.ge_s
            br_if $singlesDone
            local.get $v
            local.get $i
            local.get $n
            i32.mul
            local.get $r0
            i32.add
            i32.const 3
            i32.shl
            i32.add
            local.set $p0
            v128.const f64x2 0 0
            local.set $s0
            i32.const 0
            local.set $k
            block $rowsDone
              loop $rows
                local.get $k
                local.get $len
                i32.ge_u
                br_if $rowsDone
                local.get $s0
                local.get $p0
                local.get $k
                i32.add
                v128.load align=8
                local.get $wp
                local.get $k
                i32.add
                v128.load align=8
                f64x2.mul
                f64x2.add
                local.set $s0
                local.get $k
                i32.const 16
                i32.add
                local.set $k
                br $rows
              end
            end
            local.get $out
            local.get $i
            i32.const 3
            i32.shl
            i32.add
            local.tee $q
            local.get $q
            f64.load
            local.get $s0
            f64x2.extract_lane 0
            local.get $s0
            f64x2.extract_lane 1
            f64.add
            f64.add
            f64.store
            local.get $i
            i32.const 1
            i32.add
            local.set $i
            br $singles
          end
        end
        local.get $r1
        local.set $r0
        br $chunks
      end
    end)

  ;; w[r] −= Σ_{i < count} coef[i]·V[r, i] for r ∈ [from, to). Chunks of 1,024 rows.
  (func (export "subtract")
    (param $v i32) (param $n i32) (param $count i32) (param $coef i32) (param $w i32) (param $from i32) (param $to i32)
    (local $nb i32) (local $i i32) (local $r0 i32) (local $r1 i32) (local $len i32) (local $k i32)
    (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $wp i32) (local $q i32)
    (local $f0 v128) (local $f1 v128) (local $f2 v128) (local $f3 v128)
    local.get $n
    i32.const 3
    i32.shl
    local.set $nb
    local.get $from
    local.set $r0
    block $chunksDone
      loop $chunks
        local.get $r0
        local.get $to
        i32.ge_s
        br_if $chunksDone
        local.get $r0
        i32.const 1024
        i32.add
        local.tee $r1
        local.get $to
        local.get $r1
        local.get $to
        i32.lt_s
        select
        local.tee $r1
        local.get $r0
        i32.sub
        i32.const 3
        i32.shl
        local.set $len
        local.get $w
        local.get $r0
        i32.const 3
        i32.shl
        i32.add
        local.set $wp
        i32.const 0
        local.set $i
        block $quadsDone
          loop $quads
            local.get $i
            i32.const 4
            i32.add
            local.get $count
            i32.gt_s
            br_if $quadsDone
            local.get $v
            local.get $i
            local.get $n
            i32.mul
            local.get $r0
            i32.add
            i32.const 3
            i32.shl
            i32.add
            local.tee $p0
            local.get $nb
            i32.add
            local.tee $p1
            local.get $nb
            i32.add
            local.tee $p2
            local.get $nb
            i32.add
            local.set $p3
            local.get $coef
            local.get $i
            i32.const 3
            i32.shl
            i32.add
            local.tee $q
            v128.load64_splat
            local.set $f0
            local.get $q
            v128.load64_splat offset=8
            local.set $f1
            local.get $q
            v128.load64_splat offset=16
            local.set $f2
            local.get $q
            v128.load64_splat offset=24
            local.set $f3
            i32.const 0
            local.set $k
            block $rowsDone
              loop $rows
                local.get $k
                local.get $len
                i32.ge_u
                br_if $rowsDone
                ;; w −= ((f0·x0 + f1·x1) + f2·x2) + f3·x3, the order of column-kernels.ts
                local.get $wp
                local.get $k
                i32.add
                local.tee $q
                local.get $q
                v128.load align=8
                local.get $f0
                local.get $p0
                local.get $k
                i32.add
                v128.load align=8
                f64x2.mul
                local.get $f1
                local.get $p1
                local.get $k
                i32.add
                v128.load align=8
                f64x2.mul
                f64x2.add
                local.get $f2
                local.get $p2
                local.get $k
                i32.add
                v128.load align=8
                f64x2.mul
                f64x2.add
                local.get $f3
                local.get $p3
                local.get $k
                i32.add
                v128.load align=8
                f64x2.mul
                f64x2.add
                f64x2.sub
                v128.store align=8
                local.get $k
                i32.const 16
                i32.add
                local.set $k
                br $rows
              end
            end
            local.get $i
            i32.const 4
            i32.add
            local.set $i
            br $quads
          end
        end
        block $singlesDone
          loop $singles
            local.get $i
            local.get $count
            i32.ge_s
            br_if $singlesDone
            local.get $v
            local.get $i
            local.get $n
            i32.mul
            local.get $r0
            i32.add
            i32.const 3
            i32.shl
            i32.add
            local.set $p0
            local.get $coef
            local.get $i
            i32.const 3
            i32.shl
            i32.add
            v128.load64_splat
            local.set $f0
            i32.const 0
            local.set $k
            block $rowsDone
              loop $rows
                local.get $k
                local.get $len
                i32.ge_u
                br_if $rowsDone
                local.get $wp
                local.get $k
                i32.add
                local.tee $q
                local.get $q
                v128.load align=8
                local.get $f0
                local.get $p0
                local.get $k
                i32.add
                v128.load align=8
                f64x2.mul
                f64x2.sub
                v128.store align=8
                local.get $k
                i32.const 16
                i32.add
                local.set $k
                br $rows
              end
            end
            local.get $i
            i32.const 1
            i32.add
            local.set $i
            br $singles
          end
        end
        local.get $r1
        local.set $r0
        br $chunks
      end
    end)

  ;; Y[r, j] = Σ_{i < m} V[r, i]·c[i·width + j] for j < width, r ∈ [from, to) (those rows of Y overwritten; c is
  ;; m × width row-major). Chunks of 256 rows, so that the m columns' chunk stays in L2; two output columns per
  ;; sweep, so that each load of four V values serves eight multiply-adds.
  (func (export "combine")
    (param $v i32) (param $n i32) (param $m i32) (param $c i32) (param $width i32) (param $y i32) (param $from i32)
    (param $to i32)
    (local $nb i32) (local $wb i32) (local $i i32) (local $j i32) (local $r0 i32) (local $r1 i32) (local $len i32)
    (local $k i32) (local $p0 i32) (local $p1 i32) (local $p2 i32) (local $p3 i32) (local $oy i32) (local $oz i32)
    (local $q i32) (local $pair i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $b0 v128) (local $b1 v128) (local $b2 v128) (local $b3 v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    local.get $n
    i32.const 3
    i32.shl
    local.set $nb
    local.get $width
    i32.const 3
    i32.shl
    local.set $wb
    ;; zero the rows of every output column
    i32.const 0
    local.set $j
    block $zeroDone
      loop $zero
        local.get $j
        local.get $width
        i32.ge_s
        br_if $zeroDone
        local.get $y
        local.get $j
        local.get $n
        i32.mul
        local.get $from
        i32.add
        i32.const 3
        i32.shl
        i32.add
        i32.const 0
        local.get $to
        local.get $from
        i32.sub
        i32.const 3
        i32.shl
        memory.fill
        local.get $j
        i32.const 1
        i32.add
        local.set $j
        br $zero
      end
    end
    local.get $from
    local.set $r0
    block $chunksDone
      loop $chunks
        local.get $r0
        local.get $to
        i32.ge_s
        br_if $chunksDone
        local.get $r0
        i32.const 256
        i32.add
        local.tee $r1
        local.get $to
        local.get $r1
        local.get $to
        i32.lt_s
        select
        local.tee $r1
        local.get $r0
        i32.sub
        i32.const 3
        i32.shl
        local.set $len
        i32.const 0
        local.set $j
        ;; output columns j and j + 1; a width of one column, or an odd last one, pairs with a second column
        ;; whose coefficients are zero and whose sums are not stored (the loop below handles it)
        block $colsDone
          loop $cols
            local.get $j
            local.get $width
            i32.ge_s
            br_if $colsDone
            local.get $y
            local.get $j
            local.get $n
            i32.mul
            local.get $r0
            i32.add
            i32.const 3
            i32.shl
            i32.add
            local.tee $oy
            local.get $nb
            i32.add
            local.set $oz
            local.get $j
            i32.const 1
            i32.add
            local.get $width
            i32.lt_s
            local.set $pair
            i32.const 0
            local.set $i
            block $quadsDone
              loop $quads
                local.get $i
                i32.const 4
                i32.add
                local.get $m
                i32.gt_s
                br_if $quadsDone
                ;; the coefficients of rows i .. i + 3 of c, columns j and j + 1
                local.get $c
                local.get $i
                local.get $width
                i32.mul
                local.get $j
                i32.add
                i32.const 3
                i32.shl
                i32.add
                local.tee $q
                v128.load64_splat
                local.set $a0
                local.get $q
                local.get $wb
                i32.add
                local.tee $q
                v128.load64_splat
                local.set $a1
                local.get $q
                local.get $wb
                i32.add
                local.tee $q
                v128.load64_splat
                local.set $a2
                local.get $q
                local.get $wb
                i32.add
                local.tee $q
                v128.load64_splat
                local.set $a3
                v128.const f64x2 0 0
                local.tee $b0
                local.tee $b1
                local.tee $b2
                local.set $b3
                local.get $pair
                if
                  local.get $q
                  v128.load64_splat offset=8
                  local.set $b3
                  local.get $q
                  local.get $wb
                  i32.sub
                  local.tee $q
                  v128.load64_splat offset=8
                  local.set $b2
                  local.get $q
                  local.get $wb
                  i32.sub
                  local.tee $q
                  v128.load64_splat offset=8
                  local.set $b1
                  local.get $q
                  local.get $wb
                  i32.sub
                  v128.load64_splat offset=8
                  local.set $b0
                end
                local.get $v
                local.get $i
                local.get $n
                i32.mul
                local.get $r0
                i32.add
                i32.const 3
                i32.shl
                i32.add
                local.tee $p0
                local.get $nb
                i32.add
                local.tee $p1
                local.get $nb
                i32.add
                local.tee $p2
                local.get $nb
                i32.add
                local.set $p3
                i32.const 0
                local.set $k
                block $rowsDone
                  loop $rows
                    local.get $k
                    local.get $len
                    i32.ge_u
                    br_if $rowsDone
                    local.get $p0
                    local.get $k
                    i32.add
                    v128.load align=8
                    local.set $x0
                    local.get $p1
                    local.get $k
                    i32.add
                    v128.load align=8
                    local.set $x1
                    local.get $p2
                    local.get $k
                    i32.add
                    v128.load align=8
                    local.set $x2
                    local.get $p3
                    local.get $k
                    i32.add
                    v128.load align=8
                    local.set $x3
                    ;; y += ((a0·x0 + a1·x1) + a2·x2) + a3·x3
                    local.get $oy
                    local.get $k
                    i32.add
                    local.tee $q
                    local.get $q
                    v128.load align=8
                    local.get $a0
                    local.get $x0
                    f64x2.mul
                    local.get $a1
                    local.get $x1
                    f64x2.mul
                    f64x2.add
                    local.get $a2
                    local.get $x2
                    f64x2.mul
                    f64x2.add
                    local.get $a3
                    local.get $x3
                    f64x2.mul
                    f64x2.add
                    f64x2.add
                    v128.store align=8
                    local.get $pair
                    if
                      local.get $oz
                      local.get $k
                      i32.add
                      local.tee $q
                      local.get $q
                      v128.load align=8
                      local.get $b0
                      local.get $x0
                      f64x2.mul
                      local.get $b1
                      local.get $x1
                      f64x2.mul
                      f64x2.add
                      local.get $b2
                      local.get $x2
                      f64x2.mul
                      f64x2.add
                      local.get $b3
                      local.get $x3
                      f64x2.mul
                      f64x2.add
                      f64x2.add
                      v128.store align=8
                    end
                    local.get $k
                    i32.const 16
                    i32.add
                    local.set $k
                    br $rows
                  end
                end
                local.get $i
                i32.const 4
                i32.add
                local.set $i
                br $quads
              end
            end
            ;; the last m mod 4 rows of c, one at a time
            block $singlesDone
              loop $singles
                local.get $i
                local.get $m
                i32.ge_s
                br_if $singlesDone
                local.get $c
                local.get $i
                local.get $width
                i32.mul
                local.get $j
                i32.add
                i32.const 3
                i32.shl
                i32.add
                local.tee $q
                v128.load64_splat
                local.set $a0
                v128.const f64x2 0 0
                local.set $b0
                local.get $pair
                if
                  local.get $q
                  v128.load64_splat offset=8
                  local.set $b0
                end
                local.get $v
                local.get $i
                local.get $n
                i32.mul
                local.get $r0
                i32.add
                i32.const 3
                i32.shl
                i32.add
                local.set $p0
                i32.const 0
                local.set $k
                block $rowsDone
                  loop $rows
                    local.get $k
                    local.get $len
                    i32.ge_u
                    br_if $rowsDone
                    local.get $p0
                    local.get $k
                    i32.add
                    v128.load align=8
                    local.set $x0
                    local.get $oy
                    local.get $k
                    i32.add
                    local.tee $q
                    local.get $q
                    v128.load align=8
                    local.get $a0
                    local.get $x0
                    f64x2.mul
                    f64x2.add
                    v128.store align=8
                    local.get $pair
                    if
                      local.get $oz
                      local.get $k
                      i32.add
                      local.tee $q
                      local.get $q
                      v128.load align=8
                      local.get $b0
                      local.get $x0
                      f64x2.mul
                      f64x2.add
                      v128.store align=8
                    end
                    local.get $k
                    i32.const 16
                    i32.add
                    local.set $k
                    br $rows
                  end
                end
                local.get $i
                i32.const 1
                i32.add
                local.set $i
                br $singles
              end
            end
            local.get $j
            i32.const 2
            i32.add
            local.set $j
            br $cols
          end
        end
        local.get $r1
        local.set $r0
        br $chunks
      end
    end)

  ;; y[r] = Σ_{p ∈ [offsets[r], offsets[r + 1])} weights[p]·x[targets[p]] for r ∈ [from, to): the sparse product
  ;; on CSR arrays (offsets and targets 32-bit), summed in the same order as row-ops.ts's loop. No SIMD (a gather).
  (func (export "spmv")
    (param $offsets i32) (param $targets i32) (param $weights i32) (param $x i32) (param $y i32) (param $from i32)
    (param $to i32)
    (local $r i32) (local $p i32) (local $end i32) (local $sum f64)
    local.get $offsets
    local.get $from
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.set $p
    local.get $from
    local.set $r
    block $rowsDone
      loop $rows
        local.get $r
        local.get $to
        i32.ge_s
        br_if $rowsDone
        local.get $offsets
        local.get $r
        i32.const 2
        i32.shl
        i32.add
        i32.load offset=4
        local.set $end
        f64.const 0
        local.set $sum
        block $entriesDone
          loop $entries
            local.get $p
            local.get $end
            i32.ge_s
            br_if $entriesDone
            local.get $sum
            local.get $weights
            local.get $p
            i32.const 3
            i32.shl
            i32.add
            f64.load
            local.get $x
            local.get $targets
            local.get $p
            i32.const 2
            i32.shl
            i32.add
            i32.load
            i32.const 3
            i32.shl
            i32.add
            f64.load
            f64.mul
            f64.add
            local.set $sum
            local.get $p
            i32.const 1
            i32.add
            local.set $p
            br $entries
          end
        end
        local.get $y
        local.get $r
        i32.const 3
        i32.shl
        i32.add
        local.get $sum
        f64.store
        local.get $r
        i32.const 1
        i32.add
        local.set $r
        br $rows
      end
    end)
)
