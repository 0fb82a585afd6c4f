/* The C roofline of bench/run.mjs: a max-reduce over a float32 array of the critical-steps
 * bench's size, the least work a critical-steps kernel can do per element (it must at least read
 * each step once and compare it). Prints the median rate in elements/s of REPS passes after WARMUP
 * by wall time, a number that keeps the loop from being optimised away, and the median rate by
 * the thread's CPU time (time spent waiting for a core on a shared machine left out).
 *
 * Build and run: cc -O3 -march=native -o roofline roofline.c && ./roofline ELEMENTS REPS WARMUP */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double clock_seconds(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Unsigned maximum of the float bits: for steps ≥ 0 the same order as the floats, and a loop
 * every compiler vectorises without -ffast-math. */
static unsigned max_reduce(const unsigned *bits, size_t n) {
  unsigned m = 0;
  for (size_t i = 0; i < n; i++) m = bits[i] > m ? bits[i] : m;
  return m;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: roofline ELEMENTS REPS WARMUP\n");
    return 2;
  }
  size_t n = strtoull(argv[1], NULL, 10);
  int reps = atoi(argv[2]), warmup = atoi(argv[3]);
  unsigned *bits = malloc(n * sizeof *bits);
  double *times = malloc(reps * sizeof *times);
  double *cpu_times = malloc(reps * sizeof *cpu_times);
  if (bits == NULL || times == NULL || cpu_times == NULL || reps < 1) return 1;
  unsigned seed = 2;
  for (size_t i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    float step = (float)(seed >> 27); /* 0..31 */
    memcpy(&bits[i], &step, sizeof step);
  }
  unsigned sink = 0;
  for (int r = 0; r < warmup; r++) sink ^= max_reduce(bits, n);
  for (int r = 0; r < reps; r++) {
    double t0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    sink ^= max_reduce(bits, n);
    cpu_times[r] = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
    times[r] = clock_seconds(CLOCK_MONOTONIC) - t0;
  }
  qsort(times, reps, sizeof *times, by_value);
  qsort(cpu_times, reps, sizeof *cpu_times, by_value);
  printf("%.6e %u %.6e\n", n / times[reps / 2], sink, n / cpu_times[reps / 2]);
  return 0;
}
