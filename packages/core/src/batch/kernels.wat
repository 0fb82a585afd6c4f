;; The WebAssembly SIMD kernels of @parl/core: critical steps (spec §2) and the reward (spec §3).
;;
;; Hand-written WebAssembly text, assembled by `scripts/assemble-kernels.mjs` (wabt) into
;; `kernels-wasm.ts`; `test/batch/kernels-wasm.test.ts` checks that the committed bytes are this
;; file's. Every result equals the JavaScript kernels' (critical-steps-batch.ts,
;; reward-batch.ts) bit for bit: see the comment above each function for why.
;;
;; The memory is imported: each arena (wasm-arena.ts) brings its own, laid out by the caller.
;; Pointers are byte offsets into it. The functions return -1 when every input was valid, else
;; the index of an episode with a bad input; the caller then runs the JavaScript kernel, which
;; throws the error naming the first bad field. `critical_steps_whole` returns -2 instead for
;; anything but the inputs it can prove it sums exactly: the caller then runs `critical_steps`.
(module
  (import "env" "memory" (memory 1))

  ;; One stage of critical steps: the maximum and the float64 sum of the k float32 steps at
  ;; byte offset $p. Returns (max, sum), or (0, -1) when a step is negative, NaN or infinite.
  ;;
  ;; Fast path, four lanes at a time: the steps are read as unsigned integers (their float32
  ;; bits). For floats ≥ +0 the unsigned order of the bits is the numeric order, and every
  ;; negative number, -0, Infinity and NaN has bits ≥ 0x7F800000, so one unsigned maximum gives
  ;; both the stage maximum and the validity test. The sum is taken in float64 in a different
  ;; order from the JavaScript kernel (four accumulators of two lanes), which is only allowed
  ;; when every partial sum is exact: then any order gives the one exact sum. The steps are
  ;; whole multiples of the unit in the last place of the smallest nonzero step, u = 2^(Emin-150)
  ;; (E the biased exponent, at least 1), and each is below 2^(Emax-126), so every partial sum is
  ;; a whole multiple of u below k·2^(Emax-126); it is exact in float64 when that is at most
  ;; 2^53·u, i.e. when k ≤ 2^(29 - (Emax - Emin)). Otherwise (steps spanning more than ~22
  ;; binades, a -0, a bad step) the stage runs again one step at a time in the JavaScript
  ;; kernel's order.
  (func $stage (param $p i32) (param $k i32) (result f64 f64)
    (local $i i32) (local $q i32) (local $u0 v128) (local $u1 v128) (local $u2 v128) (local $u3 v128)
    (local $mx0 v128) (local $mx1 v128) (local $mn0 v128) (local $mn1 v128)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $hmax i32) (local $hmin i32) (local $emax i32) (local $emin i32) (local $d i32)
    (local $v f64) (local $m f64) (local $s f64)
    (local.set $mn0 (v128.const i32x4 -1 -1 -1 -1))
    (local.set $mn1 (local.get $mn0))
    (local.set $q (local.get $p))
    ;; sixteen steps a round
    (block $done16
      (loop $round16
        (br_if $done16 (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $k)))
        (local.set $u0 (v128.load (local.get $q)))
        (local.set $u1 (v128.load offset=16 (local.get $q)))
        (local.set $u2 (v128.load offset=32 (local.get $q)))
        (local.set $u3 (v128.load offset=48 (local.get $q)))
        (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u0)))
        (local.set $mx1 (i32x4.max_u (local.get $mx1) (local.get $u1)))
        (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u2)))
        (local.set $mx1 (i32x4.max_u (local.get $mx1) (local.get $u3)))
        ;; the smallest nonzero step: bits - 1 turns 0 into the largest unsigned value
        (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u0) (v128.const i32x4 1 1 1 1))))
        (local.set $mn1 (i32x4.min_u (local.get $mn1) (i32x4.sub (local.get $u1) (v128.const i32x4 1 1 1 1))))
        (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u2) (v128.const i32x4 1 1 1 1))))
        (local.set $mn1 (i32x4.min_u (local.get $mn1) (i32x4.sub (local.get $u3) (v128.const i32x4 1 1 1 1))))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.promote_low_f32x4 (local.get $u0))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $q)))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.promote_low_f32x4 (local.get $u1))))
        (local.set $s3 (f64x2.add (local.get $s3) (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $q)))))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.promote_low_f32x4 (local.get $u2))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.promote_low_f32x4 (v128.load64_zero offset=40 (local.get $q)))))
        (local.set $s2 (f64x2.add (local.get $s2) (f64x2.promote_low_f32x4 (local.get $u3))))
        (local.set $s3 (f64x2.add (local.get $s3) (f64x2.promote_low_f32x4 (v128.load64_zero offset=56 (local.get $q)))))
        (local.set $q (i32.add (local.get $q) (i32.const 64)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $round16)))
    ;; four steps a round
    (block $done4
      (loop $round4
        (br_if $done4 (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $k)))
        (local.set $u0 (v128.load (local.get $q)))
        (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u0)))
        (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u0) (v128.const i32x4 1 1 1 1))))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.promote_low_f32x4 (local.get $u0))))
        (local.set $s1 (f64x2.add (local.get $s1) (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $q)))))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $round4)))
    ;; the last 1-3 steps: a full load (the caller leaves 16 readable bytes after the steps)
    ;; with the lanes past the group set to +0, which changes neither the maximum, nor the
    ;; smallest nonzero step, nor the sum
    (if (i32.lt_u (local.get $i) (local.get $k))
      (then
        (local.set $u0
          (v128.and
            (v128.load (local.get $q))
            (i32x4.lt_u (v128.const i32x4 0 1 2 3) (i32x4.splat (i32.sub (local.get $k) (local.get $i))))))
        (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u0)))
        (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u0) (v128.const i32x4 1 1 1 1))))
        (local.set $s0 (f64x2.add (local.get $s0) (f64x2.promote_low_f32x4 (local.get $u0))))
        (local.set $s1
          (f64x2.add
            (local.get $s1)
            (f64x2.promote_low_f32x4
              (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $u0) (local.get $u0)))))))
    ;; lanes to scalars
    (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $mx1)))
    (local.set $mx0 (i32x4.max_u (local.get $mx0) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mx0) (local.get $mx0))))
    (local.set $mx0 (i32x4.max_u (local.get $mx0) (i8x16.shuffle 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 (local.get $mx0) (local.get $mx0))))
    (local.set $hmax (i32x4.extract_lane 0 (local.get $mx0)))
    (local.set $mn0 (i32x4.min_u (local.get $mn0) (local.get $mn1)))
    (local.set $mn0 (i32x4.min_u (local.get $mn0) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mn0) (local.get $mn0))))
    (local.set $mn0 (i32x4.min_u (local.get $mn0) (i8x16.shuffle 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 (local.get $mn0) (local.get $mn0))))
    (local.set $hmin (i32x4.extract_lane 0 (local.get $mn0)))
    (block $slow
      ;; a negative step, -0, Infinity or NaN
      (br_if $slow (i32.ge_u (local.get $hmax) (i32.const 0x7F800000)))
      ;; every step zero (or none): the sum is +0 in any order
      (if (i32.ne (local.get $hmin) (i32.const -1))
        (then
          (local.set $emax (i32.shr_u (local.get $hmax) (i32.const 23)))
          (local.set $emin (i32.shr_u (i32.add (local.get $hmin) (i32.const 1)) (i32.const 23)))
          (if (i32.eqz (local.get $emax)) (then (local.set $emax (i32.const 1))))
          (if (i32.eqz (local.get $emin)) (then (local.set $emin (i32.const 1))))
          (local.set $d (i32.sub (local.get $emax) (local.get $emin)))
          (br_if $slow (i32.gt_u (local.get $d) (i32.const 29)))
          (br_if $slow (i32.gt_u (local.get $k) (i32.shl (i32.const 1) (i32.sub (i32.const 29) (local.get $d)))))))
      (local.set $s0 (f64x2.add (f64x2.add (local.get $s0) (local.get $s1)) (f64x2.add (local.get $s2) (local.get $s3))))
      (return
        (f64.promote_f32 (f32.reinterpret_i32 (local.get $hmax)))
        (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64x2.extract_lane 1 (local.get $s0)))))
    ;; slow path: one step at a time, in the JavaScript kernel's order
    (local.set $i (i32.const 0))
    (local.set $q (local.get $p))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
        (local.set $v (f64.promote_f32 (f32.load (local.get $q))))
        (if (i32.eqz (i32.and (f64.ge (local.get $v) (f64.const 0)) (f64.lt (local.get $v) (f64.const inf))))
          (then (return (f64.const 0) (f64.const -1))))
        (local.set $s (f64.add (local.get $s) (local.get $v)))
        (if (f64.gt (local.get $v) (local.get $m)) (then (local.set $m (local.get $v))))
        (local.set $q (i32.add (local.get $q) (i32.const 4)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $step)))
    (local.get $m)
    (local.get $s))

  ;; criticalStepsBatch over a float32 [B, T, N] array at $sub, with per-stage group sizes
  ;; (int32 [B, T] at $groups, when bit 0 of $flags is set, else N), main steps (float64 [B, T]
  ;; at $mains, bit 1, else 1) and stage counts (int32 [B] at $used, bit 2, else T), all three
  ;; already validated by the caller. Per episode and stage, the same float64 operations in
  ;; the same order as the JavaScript kernel: critical += main + max, total += main + sum.
  ;; Writes float64 critical, total, parallelism and mean width, int32 max width and stages.
  (func (export "critical_steps")
    (param $B i32) (param $T i32) (param $N i32)
    (param $sub i32) (param $groups i32) (param $mains i32) (param $used i32) (param $flags i32)
    (param $oCritical i32) (param $oTotal i32) (param $oParallelism i32)
    (param $oMaxWidth i32) (param $oStages i32) (param $oMeanWidth i32)
    (result i32)
    (local $b i32) (local $t i32) (local $stageCount i32) (local $bt i32) (local $k i32)
    (local $main f64) (local $max f64) (local $sum f64)
    (local $critical f64) (local $total f64)
    (local $widest i32) (local $groupCount i32) (local $widthSum i32)
    (block $episodesDone
      (loop $episode
        (br_if $episodesDone (i32.ge_u (local.get $b) (local.get $B)))
        (local.set $stageCount
          (if (result i32) (i32.and (local.get $flags) (i32.const 4))
            (then (i32.load (i32.add (local.get $used) (i32.shl (local.get $b) (i32.const 2)))))
            (else (local.get $T))))
        (local.set $critical (f64.const 0))
        (local.set $total (f64.const 0))
        (local.set $widest (i32.const 0))
        (local.set $groupCount (i32.const 0))
        (local.set $widthSum (i32.const 0))
        (local.set $t (i32.const 0))
        (block $stagesDone
          (loop $stage
            (br_if $stagesDone (i32.ge_u (local.get $t) (local.get $stageCount)))
            (local.set $bt (i32.add (i32.mul (local.get $b) (local.get $T)) (local.get $t)))
            (local.set $k
              (if (result i32) (i32.and (local.get $flags) (i32.const 1))
                (then (i32.load (i32.add (local.get $groups) (i32.shl (local.get $bt) (i32.const 2)))))
                (else (local.get $N))))
            (local.set $main
              (if (result f64) (i32.and (local.get $flags) (i32.const 2))
                (then (f64.load (i32.add (local.get $mains) (i32.shl (local.get $bt) (i32.const 3)))))
                (else (f64.const 1))))
            (call $stage
              (i32.add (local.get $sub) (i32.shl (i32.mul (local.get $bt) (local.get $N)) (i32.const 2)))
              (local.get $k))
            (local.set $sum)
            (local.set $max)
            (if (f64.lt (local.get $sum) (f64.const 0)) (then (return (local.get $b))))
            (local.set $critical (f64.add (local.get $critical) (f64.add (local.get $main) (local.get $max))))
            (local.set $total (f64.add (local.get $total) (f64.add (local.get $main) (local.get $sum))))
            (if (i32.gt_s (local.get $k) (i32.const 0))
              (then
                (local.set $groupCount (i32.add (local.get $groupCount) (i32.const 1)))
                (local.set $widthSum (i32.add (local.get $widthSum) (local.get $k)))
                (if (i32.gt_s (local.get $k) (local.get $widest)) (then (local.set $widest (local.get $k))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $stage)))
        (f64.store (i32.add (local.get $oCritical) (i32.shl (local.get $b) (i32.const 3))) (local.get $critical))
        (f64.store (i32.add (local.get $oTotal) (i32.shl (local.get $b) (i32.const 3))) (local.get $total))
        (f64.store (i32.add (local.get $oParallelism) (i32.shl (local.get $b) (i32.const 3)))
          (if (result f64) (f64.eq (local.get $critical) (f64.const 0))
            (then (f64.const 1))
            (else (f64.div (local.get $total) (local.get $critical)))))
        (i32.store (i32.add (local.get $oMaxWidth) (i32.shl (local.get $b) (i32.const 2))) (local.get $widest))
        (i32.store (i32.add (local.get $oStages) (i32.shl (local.get $b) (i32.const 2))) (local.get $stageCount))
        (f64.store (i32.add (local.get $oMeanWidth) (i32.shl (local.get $b) (i32.const 3)))
          (if (result f64) (i32.eqz (local.get $groupCount))
            (then (f64.const 0))
            (else (f64.div (f64.convert_i32_s (local.get $widthSum)) (f64.convert_i32_s (local.get $groupCount))))))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $episode)))
    (i32.const -1))

  ;; criticalStepsBatch as `critical_steps` below (the same parameters and outputs), faster for
  ;; the steps seen in practice, and exact only when it can prove it: it returns -1 when done,
  ;; and -2 when the caller must run `critical_steps` instead (a step that is negative, -0,
  ;; Infinity or NaN, or an episode whose sums it cannot prove exact).
  ;;
  ;; Each stage's sum is taken in float32, in four lanes: one add per four steps where
  ;; `critical_steps` widens to float64 (two conversions and two adds). The proof, per episode:
  ;; every nonzero step x is m·2^(E-150), E its biased exponent (1 for a denormal) and m its
  ;; integer significand, whose trailing zeros are at least L = the trailing zeros of the OR of
  ;; every step's 23 fraction bits (23 when none is set). So every step, and every partial sum,
  ;; is a whole multiple of g = 2^(Emin-150+L), and below N·2^(Emax-126) = N·2^(Emax-Emin+24-L)·g;
  ;; when N·2^(Emax-Emin) ≤ 2^L that is below 2^24·g, exact in float32 (unless it overflows,
  ;; caught by a finite total), hence equal to the JavaScript kernel's float64 sum in any order.
  ;; Whole-number steps below 2^24/N and the like pass; steps spanning many binades with full
  ;; significands go to `critical_steps`. The stage maximum and the validity test are one
  ;; unsigned maximum of the bits, as in $stage.
  ;;
  ;; The accumulators of the inner loop are the stage's own (folded into the episode's after
  ;; it), so that V8 keeps them in registers.
  (func (export "critical_steps_whole")
    (param $B i32) (param $T i32) (param $N i32)
    (param $sub i32) (param $groups i32) (param $mains i32) (param $used i32) (param $flags i32)
    (param $oCritical i32) (param $oTotal i32) (param $oParallelism i32)
    (param $oMaxWidth i32) (param $oStages i32) (param $oMeanWidth i32)
    (result i32)
    (local $b i32) (local $t i32) (local $stageCount i32) (local $bt i32) (local $k i32)
    (local $i i32) (local $q i32) (local $hmax i32) (local $episodeMax i32)
    (local $hmin i32) (local $span i32) (local $low i32)
    (local $main f64) (local $critical f64) (local $total f64)
    (local $widest i32) (local $groupCount i32) (local $widthSum i32)
    (local $u0 v128) (local $u1 v128) (local $u2 v128) (local $u3 v128)
    (local $mx0 v128) (local $mx1 v128) (local $mn0 v128) (local $mn1 v128) (local $or0 v128) (local $or1 v128)
    (local $s0 v128) (local $s1 v128) (local $episodeMin v128) (local $episodeOr v128)
    (block $episodesDone
      (loop $episode
        (br_if $episodesDone (i32.ge_u (local.get $b) (local.get $B)))
        (local.set $stageCount
          (if (result i32) (i32.and (local.get $flags) (i32.const 4))
            (then (i32.load (i32.add (local.get $used) (i32.shl (local.get $b) (i32.const 2)))))
            (else (local.get $T))))
        (local.set $critical (f64.const 0))
        (local.set $total (f64.const 0))
        (local.set $widest (i32.const 0))
        (local.set $groupCount (i32.const 0))
        (local.set $widthSum (i32.const 0))
        (local.set $episodeMax (i32.const 0))
        (local.set $episodeMin (v128.const i32x4 -1 -1 -1 -1))
        (local.set $episodeOr (v128.const i32x4 0 0 0 0))
        (local.set $t (i32.const 0))
        (block $stagesDone
          (loop $stage
            (br_if $stagesDone (i32.ge_u (local.get $t) (local.get $stageCount)))
            (local.set $bt (i32.add (i32.mul (local.get $b) (local.get $T)) (local.get $t)))
            (local.set $k
              (if (result i32) (i32.and (local.get $flags) (i32.const 1))
                (then (i32.load (i32.add (local.get $groups) (i32.shl (local.get $bt) (i32.const 2)))))
                (else (local.get $N))))
            (local.set $main
              (if (result f64) (i32.and (local.get $flags) (i32.const 2))
                (then (f64.load (i32.add (local.get $mains) (i32.shl (local.get $bt) (i32.const 3)))))
                (else (f64.const 1))))
            (local.set $q (i32.add (local.get $sub) (i32.shl (i32.mul (local.get $bt) (local.get $N)) (i32.const 2))))
            (local.set $i (i32.const 0))
            (local.set $mx0 (v128.const i32x4 0 0 0 0))
            (local.set $mx1 (v128.const i32x4 0 0 0 0))
            (local.set $mn0 (v128.const i32x4 -1 -1 -1 -1))
            (local.set $mn1 (v128.const i32x4 -1 -1 -1 -1))
            (local.set $or0 (v128.const i32x4 0 0 0 0))
            (local.set $or1 (v128.const i32x4 0 0 0 0))
            (local.set $s0 (v128.const i32x4 0 0 0 0))
            (local.set $s1 (v128.const i32x4 0 0 0 0))
            ;; sixteen steps a round
            (block $done16
              (loop $round16
                (br_if $done16 (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $k)))
                (local.set $u0 (v128.load (local.get $q)))
                (local.set $u1 (v128.load offset=16 (local.get $q)))
                (local.set $u2 (v128.load offset=32 (local.get $q)))
                (local.set $u3 (v128.load offset=48 (local.get $q)))
                (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u0)))
                (local.set $mx1 (i32x4.max_u (local.get $mx1) (local.get $u1)))
                (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u2)))
                (local.set $mx1 (i32x4.max_u (local.get $mx1) (local.get $u3)))
                ;; the smallest nonzero step: bits - 1 turns 0 into the largest unsigned value
                (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u0) (v128.const i32x4 1 1 1 1))))
                (local.set $mn1 (i32x4.min_u (local.get $mn1) (i32x4.sub (local.get $u1) (v128.const i32x4 1 1 1 1))))
                (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u2) (v128.const i32x4 1 1 1 1))))
                (local.set $mn1 (i32x4.min_u (local.get $mn1) (i32x4.sub (local.get $u3) (v128.const i32x4 1 1 1 1))))
                (local.set $or0 (v128.or (local.get $or0) (local.get $u0)))
                (local.set $or1 (v128.or (local.get $or1) (local.get $u1)))
                (local.set $or0 (v128.or (local.get $or0) (local.get $u2)))
                (local.set $or1 (v128.or (local.get $or1) (local.get $u3)))
                (local.set $s0 (f32x4.add (local.get $s0) (local.get $u0)))
                (local.set $s1 (f32x4.add (local.get $s1) (local.get $u1)))
                (local.set $s0 (f32x4.add (local.get $s0) (local.get $u2)))
                (local.set $s1 (f32x4.add (local.get $s1) (local.get $u3)))
                (local.set $q (i32.add (local.get $q) (i32.const 64)))
                (local.set $i (i32.add (local.get $i) (i32.const 16)))
                (br $round16)))
            ;; four steps a round
            (block $done4
              (loop $round4
                (br_if $done4 (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $k)))
                (local.set $u0 (v128.load (local.get $q)))
                (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u0)))
                (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u0) (v128.const i32x4 1 1 1 1))))
                (local.set $or0 (v128.or (local.get $or0) (local.get $u0)))
                (local.set $s0 (f32x4.add (local.get $s0) (local.get $u0)))
                (local.set $q (i32.add (local.get $q) (i32.const 16)))
                (local.set $i (i32.add (local.get $i) (i32.const 4)))
                (br $round4)))
            ;; the last 1-3 steps, the lanes past the group set to +0 (as in $stage)
            (if (i32.lt_u (local.get $i) (local.get $k))
              (then
                (local.set $u0
                  (v128.and
                    (v128.load (local.get $q))
                    (i32x4.lt_u (v128.const i32x4 0 1 2 3) (i32x4.splat (i32.sub (local.get $k) (local.get $i))))))
                (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $u0)))
                (local.set $mn0 (i32x4.min_u (local.get $mn0) (i32x4.sub (local.get $u0) (v128.const i32x4 1 1 1 1))))
                (local.set $or0 (v128.or (local.get $or0) (local.get $u0)))
                (local.set $s0 (f32x4.add (local.get $s0) (local.get $u0)))))
            ;; the stage maximum; a negative step, -0, Infinity or NaN leaves it all to `critical_steps`
            (local.set $mx0 (i32x4.max_u (local.get $mx0) (local.get $mx1)))
            (local.set $mx0 (i32x4.max_u (local.get $mx0) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mx0) (local.get $mx0))))
            (local.set $mx0 (i32x4.max_u (local.get $mx0) (i8x16.shuffle 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 (local.get $mx0) (local.get $mx0))))
            (local.set $hmax (i32x4.extract_lane 0 (local.get $mx0)))
            (if (i32.ge_u (local.get $hmax) (i32.const 0x7F800000)) (then (return (i32.const -2))))
            (if (i32.gt_u (local.get $hmax) (local.get $episodeMax)) (then (local.set $episodeMax (local.get $hmax))))
            (local.set $episodeMin (i32x4.min_u (local.get $episodeMin) (i32x4.min_u (local.get $mn0) (local.get $mn1))))
            (local.set $episodeOr (v128.or (local.get $episodeOr) (v128.or (local.get $or0) (local.get $or1))))
            ;; critical += main + max; total += main + the stage sum (exact if the proof holds)
            (local.set $s0 (f32x4.add (local.get $s0) (local.get $s1)))
            (local.set $s0 (f32x4.add (local.get $s0) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $s0) (local.get $s0))))
            (local.set $critical
              (f64.add (local.get $critical)
                (f64.add (local.get $main) (f64.promote_f32 (f32.reinterpret_i32 (local.get $hmax))))))
            (local.set $total
              (f64.add (local.get $total)
                (f64.add (local.get $main)
                  (f64.promote_f32 (f32.add (f32x4.extract_lane 0 (local.get $s0)) (f32x4.extract_lane 1 (local.get $s0)))))))
            (if (i32.gt_s (local.get $k) (i32.const 0))
              (then
                (local.set $groupCount (i32.add (local.get $groupCount) (i32.const 1)))
                (local.set $widthSum (i32.add (local.get $widthSum) (local.get $k)))
                (if (i32.gt_s (local.get $k) (local.get $widest)) (then (local.set $widest (local.get $k))))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $stage)))
        ;; the proof (above) for this episode's steps; else `critical_steps` decides
        (local.set $episodeMin (i32x4.min_u (local.get $episodeMin) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $episodeMin) (local.get $episodeMin))))
        (local.set $episodeMin (i32x4.min_u (local.get $episodeMin) (i8x16.shuffle 4 5 6 7 0 1 2 3 4 5 6 7 0 1 2 3 (local.get $episodeMin) (local.get $episodeMin))))
        (local.set $hmin (i32x4.extract_lane 0 (local.get $episodeMin)))
        ;; every step zero (or none): every sum is +0
        (if (i32.ne (local.get $hmin) (i32.const -1))
          (then
            (local.set $episodeOr (v128.or (local.get $episodeOr) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $episodeOr) (local.get $episodeOr))))
            (local.set $low
              (i32.ctz (i32.or (i32.const 0x800000)
                (i32.or (i32x4.extract_lane 0 (local.get $episodeOr)) (i32x4.extract_lane 1 (local.get $episodeOr))))))
            ;; span = Emax - Emin, each exponent at least 1 (denormals)
            (local.set $span
              (i32.sub
                (select (i32.shr_u (local.get $episodeMax) (i32.const 23)) (i32.const 1) (i32.ge_u (local.get $episodeMax) (i32.const 0x800000)))
                (select (i32.shr_u (i32.add (local.get $hmin) (i32.const 1)) (i32.const 23)) (i32.const 1) (i32.ge_u (local.get $hmin) (i32.const 0x7FFFFF)))))
            (br_if $episodesDone (i32.gt_u (local.get $span) (local.get $low)))
            (br_if $episodesDone (i32.gt_u (local.get $N) (i32.shl (i32.const 1) (i32.sub (local.get $low) (local.get $span)))))
            (br_if $episodesDone (i32.eqz (f64.lt (local.get $total) (f64.const inf))))))
        (f64.store (i32.add (local.get $oCritical) (i32.shl (local.get $b) (i32.const 3))) (local.get $critical))
        (f64.store (i32.add (local.get $oTotal) (i32.shl (local.get $b) (i32.const 3))) (local.get $total))
        (f64.store (i32.add (local.get $oParallelism) (i32.shl (local.get $b) (i32.const 3)))
          (if (result f64) (f64.eq (local.get $critical) (f64.const 0))
            (then (f64.const 1))
            (else (f64.div (local.get $total) (local.get $critical)))))
        (i32.store (i32.add (local.get $oMaxWidth) (i32.shl (local.get $b) (i32.const 2))) (local.get $widest))
        (i32.store (i32.add (local.get $oStages) (i32.shl (local.get $b) (i32.const 2))) (local.get $stageCount))
        (f64.store (i32.add (local.get $oMeanWidth) (i32.shl (local.get $b) (i32.const 3)))
          (if (result f64) (i32.eqz (local.get $groupCount))
            (then (f64.const 0))
            (else (f64.div (f64.convert_i32_s (local.get $widthSum)) (f64.convert_i32_s (local.get $groupCount))))))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $episode)))
    (select (i32.const -2) (i32.const -1) (i32.lt_u (local.get $b) (local.get $B))))

  ;; rewardBatch with the linear r_parallel for $size ≥ 2 episodes, two at a time (an odd last
  ;; episode is done in a pair with the one before it, computed again to the same values).
  ;; Inputs: sub-agents, assigned, completed, r_perf and training steps at $n $a $c $p $s, each
  ;; float32 when its bit of $kinds is set (1, 2, 4, 8, 16), else float64. λ, by $lambdaMode:
  ;; 0, already in the λ1 and λ2 outputs; 1, from the training steps, each schedule linear
  ;; ($kind 1: $from, $to, $steps) or constant ($kind 0: $from), λ2 also "same as λ1"
  ;; ($kind2 2); 2, the constants $from1 and $from2. A linear λ is computed as the JavaScript
  ;; schedule does, s ≥ steps ? to : from + (to - from) · (s / steps), and a float32 input is
  ;; widened to float64 exactly, as JavaScript reads it. Each value is validated as the JavaScript
  ;; kernel does; the outputs are the nine float64 arrays of RewardBatchOutput, each computed
  ;; with the JavaScript kernel's operations in its order, or with $totalOnly set, total_reward
  ;; alone (the other eight pointers are not written; λ by $lambdaMode 0 is still read).
  (func (export "reward")
    (param $size i32) (param $n i32) (param $a i32) (param $c i32) (param $p i32) (param $s i32) (param $kinds i32)
    (param $max f64) (param $lambdaMode i32)
    (param $kind1 i32) (param $from1 f64) (param $to1 f64) (param $steps1 f64)
    (param $kind2 i32) (param $from2 f64) (param $to2 f64) (param $steps2 f64)
    (param $oTotal i32) (param $oParallel i32) (param $oFinish i32) (param $oPerf i32)
    (param $oLambda1 i32) (param $oLambda2 i32)
    (param $oInstantiation i32) (param $oFinishComponent i32) (param $oTask i32) (param $totalOnly i32)
    (result i32)
    (local $i i32) (local $at i32) (local $ok v128)
    (local $vn v128) (local $va v128) (local $vc v128) (local $vp v128) (local $vs v128)
    (local $rp v128) (local $rf v128) (local $l1 v128) (local $l2 v128) (local $inst v128) (local $fin v128)
    (local.set $ok (v128.const i64x2 -1 -1))
    (block $done
      (loop $round
        (br_if $done (i32.ge_u (local.get $i) (local.get $size)))
        ;; the pair i, i+1, or size-2, size-1 for the last of an odd size
        (if (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $size))
          (then (local.set $i (i32.sub (local.get $size) (i32.const 2)))))
        (local.set $at (i32.shl (local.get $i) (i32.const 3)))
        (local.set $vn (if (result v128) (i32.and (local.get $kinds) (i32.const 1))
            (then (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $n) (i32.shl (local.get $i) (i32.const 2))))))
            (else (v128.load (i32.add (local.get $n) (local.get $at))))))
        (local.set $va (if (result v128) (i32.and (local.get $kinds) (i32.const 2))
            (then (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2))))))
            (else (v128.load (i32.add (local.get $a) (local.get $at))))))
        (local.set $vc (if (result v128) (i32.and (local.get $kinds) (i32.const 4))
            (then (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $c) (i32.shl (local.get $i) (i32.const 2))))))
            (else (v128.load (i32.add (local.get $c) (local.get $at))))))
        (local.set $vp (if (result v128) (i32.and (local.get $kinds) (i32.const 8))
            (then (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 2))))))
            (else (v128.load (i32.add (local.get $p) (local.get $at))))))
        ;; n, a ≥ 0 and finite, 0 ≤ c ≤ a, r_perf finite (NaN fails every comparison)
        (local.set $ok
          (v128.and (local.get $ok)
            (v128.and
              (v128.and
                (v128.and (f64x2.ge (local.get $vn) (f64x2.splat (f64.const 0))) (f64x2.lt (local.get $vn) (f64x2.splat (f64.const inf))))
                (v128.and (f64x2.ge (local.get $va) (f64x2.splat (f64.const 0))) (f64x2.lt (local.get $va) (f64x2.splat (f64.const inf)))))
              (v128.and
                (v128.and (f64x2.ge (local.get $vc) (f64x2.splat (f64.const 0))) (f64x2.le (local.get $vc) (local.get $va)))
                (v128.and (f64x2.gt (local.get $vp) (f64x2.splat (f64.const -inf))) (f64x2.lt (local.get $vp) (f64x2.splat (f64.const inf))))))))
        ;; r_parallel = min(n / max, 1); r_finish = a > 0 ? c / a : 0
        (local.set $rp (f64x2.div (local.get $vn) (f64x2.splat (local.get $max))))
        (local.set $rp (v128.bitselect (f64x2.splat (f64.const 1)) (local.get $rp) (f64x2.gt (local.get $rp) (f64x2.splat (f64.const 1)))))
        (local.set $rf
          (v128.bitselect
            (f64x2.div (local.get $vc) (local.get $va))
            (f64x2.splat (f64.const 0))
            (f64x2.gt (local.get $va) (f64x2.splat (f64.const 0)))))
        (if (i32.eqz (local.get $lambdaMode))
          (then
            (local.set $l1 (v128.load (i32.add (local.get $oLambda1) (local.get $at))))
            (local.set $l2 (v128.load (i32.add (local.get $oLambda2) (local.get $at)))))
          (else
            (if (i32.eq (local.get $lambdaMode) (i32.const 1))
              (then
                ;; a training step is finite and ≥ 0
                (local.set $vs (if (result v128) (i32.and (local.get $kinds) (i32.const 16))
            (then (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $s) (i32.shl (local.get $i) (i32.const 2))))))
            (else (v128.load (i32.add (local.get $s) (local.get $at))))))
                (local.set $ok
                  (v128.and (local.get $ok)
                    (v128.and (f64x2.ge (local.get $vs) (f64x2.splat (f64.const 0))) (f64x2.lt (local.get $vs) (f64x2.splat (f64.const inf))))))
                (local.set $l1
                  (if (result v128) (local.get $kind1)
                    (then (v128.bitselect
                          (f64x2.splat (local.get $to1))
                          (f64x2.add (f64x2.splat (local.get $from1))
                            (f64x2.mul (f64x2.splat (f64.sub (local.get $to1) (local.get $from1)))
                              (f64x2.div (local.get $vs) (f64x2.splat (local.get $steps1)))))
                          (f64x2.ge (local.get $vs) (f64x2.splat (local.get $steps1)))))
                    (else (f64x2.splat (local.get $from1)))))
                (local.set $l2
                  (if (result v128) (i32.eq (local.get $kind2) (i32.const 2))
                    (then (local.get $l1))
                    (else
                      (if (result v128) (local.get $kind2)
                        (then (v128.bitselect
                          (f64x2.splat (local.get $to2))
                          (f64x2.add (f64x2.splat (local.get $from2))
                            (f64x2.mul (f64x2.splat (f64.sub (local.get $to2) (local.get $from2)))
                              (f64x2.div (local.get $vs) (f64x2.splat (local.get $steps2)))))
                          (f64x2.ge (local.get $vs) (f64x2.splat (local.get $steps2)))))
                        (else (f64x2.splat (local.get $from2))))))))
              (else
                (local.set $l1 (f64x2.splat (local.get $from1)))
                (local.set $l2 (f64x2.splat (local.get $from2)))))
            (if (i32.eqz (local.get $totalOnly))
              (then
                (v128.store (i32.add (local.get $oLambda1) (local.get $at)) (local.get $l1))
                (v128.store (i32.add (local.get $oLambda2) (local.get $at)) (local.get $l2))))))
        (local.set $inst (f64x2.mul (local.get $l1) (local.get $rp)))
        (local.set $fin (f64x2.mul (local.get $l2) (local.get $rf)))
        (if (i32.eqz (local.get $totalOnly))
          (then
            (v128.store (i32.add (local.get $oParallel) (local.get $at)) (local.get $rp))
            (v128.store (i32.add (local.get $oFinish) (local.get $at)) (local.get $rf))
            (v128.store (i32.add (local.get $oPerf) (local.get $at)) (local.get $vp))
            (v128.store (i32.add (local.get $oInstantiation) (local.get $at)) (local.get $inst))
            (v128.store (i32.add (local.get $oFinishComponent) (local.get $at)) (local.get $fin))
            (v128.store (i32.add (local.get $oTask) (local.get $at)) (local.get $vp))))
        (v128.store (i32.add (local.get $oTotal) (local.get $at))
          (f64x2.add (f64x2.add (local.get $inst) (local.get $fin)) (local.get $vp)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $round)))
    (if (result i32) (i64x2.all_true (local.get $ok)) (then (i32.const -1)) (else (i32.const 0))))
)
