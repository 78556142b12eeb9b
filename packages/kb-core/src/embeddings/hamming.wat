;; Hamming distances between 256-bit codes (vectors' sign bits, binary-codes.ts): a flat scan over every code for
;; one query, in four 64-bit words per code with the native popcount (one instruction on x64 and arm64; JavaScript
;; has none, and its shift-and-mask count was about 10x slower per code), then the candidates under a threshold.
;; Assembled into hamming-wasm.ts (test/vectors-binary.test.ts checks the two agree).
(module
  (memory (export "memory") 1)

  ;; The distance of each of `n` codes (32 bytes each, from `codes`) to the code at `q`, one byte each at `out`
  ;; (256, every bit different, is stored as 255), and their histogram: 256 u32 counters at `hist`, which the
  ;; caller zeroes.
  (func (export "scan") (param $codes i32) (param $n i32) (param $q i32) (param $out i32) (param $hist i32)
    (local $q0 i64) (local $q1 i64) (local $q2 i64) (local $q3 i64) (local $end i32) (local $d i32) (local $h i32)
    (local.set $q0 (i64.load offset=0 (local.get $q)))
    (local.set $q1 (i64.load offset=8 (local.get $q)))
    (local.set $q2 (i64.load offset=16 (local.get $q)))
    (local.set $q3 (i64.load offset=24 (local.get $q)))
    (local.set $end (i32.add (local.get $out) (local.get $n)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $d
          (i32.wrap_i64
            (i64.add
              (i64.add
                (i64.popcnt (i64.xor (i64.load offset=0 (local.get $codes)) (local.get $q0)))
                (i64.popcnt (i64.xor (i64.load offset=8 (local.get $codes)) (local.get $q1))))
              (i64.add
                (i64.popcnt (i64.xor (i64.load offset=16 (local.get $codes)) (local.get $q2)))
                (i64.popcnt (i64.xor (i64.load offset=24 (local.get $codes)) (local.get $q3)))))))
        (local.set $d (i32.sub (local.get $d) (i32.shr_u (local.get $d) (i32.const 8))))
        (i32.store8 (local.get $out) (local.get $d))
        (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $d) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $codes (i32.add (local.get $codes) (i32.const 32)))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (br $next))))

  ;; Writes to `out` (u32 each) the positions of the `n` distances at `dist` that are below `t`, and of those
  ;; equal to `t` the first `room`; returns how many it wrote. Sixteen distances at a time are skipped when none
  ;; is at or below `t` (the threshold is a low percentile, so most blocks are).
  (func (export "collect") (param $dist i32) (param $n i32) (param $t i32) (param $room i32) (param $out i32) (result i32)
    (local $i i32) (local $d i32) (local $count i32) (local $limit v128) (local $blockEnd i32) (local $whole i32)
    (local.set $limit (i8x16.splat (local.get $t)))
    (local.set $whole (i32.and (local.get $n) (i32.const -16)))
    (block $done
      (loop $block
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $blockEnd (i32.add (local.get $i) (i32.const 16)))
        (if (i32.gt_u (local.get $blockEnd) (local.get $n)) (then (local.set $blockEnd (local.get $n))))
        (if (i32.and
              (i32.lt_u (local.get $i) (local.get $whole))
              (i32.eqz (v128.any_true
                (i8x16.le_u (v128.load (i32.add (local.get $dist) (local.get $i))) (local.get $limit)))))
          (then (local.set $i (local.get $blockEnd)) (br $block)))
        (loop $one
          (local.set $d (i32.load8_u (i32.add (local.get $dist) (local.get $i))))
          (if (i32.or
                (i32.lt_u (local.get $d) (local.get $t))
                (i32.and (i32.eq (local.get $d) (local.get $t)) (i32.gt_s (local.get $room) (i32.const 0))))
            (then
              (if (i32.eq (local.get $d) (local.get $t))
                (then (local.set $room (i32.sub (local.get $room) (i32.const 1)))))
              (i32.store (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))) (local.get $i))
              (local.set $count (i32.add (local.get $count) (i32.const 1)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $one (i32.lt_u (local.get $i) (local.get $blockEnd))))
        (br $block)))
    (local.get $count))

  ;; For each of `m` candidates (u32 keys at `cand`), the query's score against its code (codes at `codes`, 32 bytes
  ;; each): the sum over the code's 32 bytes of `table[b][byte]` (f32, 256 per byte position, 32 KiB at
  ;; `table`), an inner product of the rotated query with the code's ±1 signs up to a constant. f32 each at `out`.
  (func (export "score") (param $codes i32) (param $cand i32) (param $m i32) (param $table i32) (param $out i32)
    (local $end i32) (local $c i32) (local $b i32) (local $t i32) (local $s0 f32) (local $s1 f32) (local $s2 f32) (local $s3 f32)
    (local.set $end (i32.add (local.get $cand) (i32.shl (local.get $m) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $cand) (local.get $end)))
        (local.set $c (i32.add (local.get $codes) (i32.shl (i32.load (local.get $cand)) (i32.const 5))))
        (local.set $s0 (f32.const 0))
        (local.set $s1 (f32.const 0))
        (local.set $s2 (f32.const 0))
        (local.set $s3 (f32.const 0))
        (local.set $b (i32.const 0))
        (local.set $t (local.get $table))
        ;; Four sums, so that the additions do not wait on one another.
        (loop $bytes
          (local.set $s0 (f32.add (local.get $s0) (f32.load offset=0
            (i32.add (local.get $t) (i32.shl (i32.load8_u offset=0 (i32.add (local.get $c) (local.get $b))) (i32.const 2))))))
          (local.set $s1 (f32.add (local.get $s1) (f32.load offset=1024
            (i32.add (local.get $t) (i32.shl (i32.load8_u offset=1 (i32.add (local.get $c) (local.get $b))) (i32.const 2))))))
          (local.set $s2 (f32.add (local.get $s2) (f32.load offset=2048
            (i32.add (local.get $t) (i32.shl (i32.load8_u offset=2 (i32.add (local.get $c) (local.get $b))) (i32.const 2))))))
          (local.set $s3 (f32.add (local.get $s3) (f32.load offset=3072
            (i32.add (local.get $t) (i32.shl (i32.load8_u offset=3 (i32.add (local.get $c) (local.get $b))) (i32.const 2))))))
          (local.set $t (i32.add (local.get $t) (i32.const 4096)))
          (local.set $b (i32.add (local.get $b) (i32.const 4)))
          (br_if $bytes (i32.lt_u (local.get $b) (i32.const 32))))
        (f32.store (local.get $out) (f32.add (f32.add (local.get $s0) (local.get $s1)) (f32.add (local.get $s2) (local.get $s3))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $cand (i32.add (local.get $cand) (i32.const 4)))
        (br $next))))
)
