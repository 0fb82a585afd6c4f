"""The PyTorch baseline of bench/run.mjs: open-parl's tensor formulas on CPU, timed.

Critical steps: clamp the steps at 0, a max over the group axis, then a sum over stages (and, for
the "all fields" figure, the total steps and the parallelism too). Reward (spec §3): the linear λ
schedule, clamp(n / max, 0, 1), completed / assigned where assigned > 0, and their weighted sum
plus r_perf (and, for the "all fields" figure, every output of rewardBatch, in float64 as it gives
them). Float32 tensors, shaped as the JavaScript bench's inputs.

Protocol (bench/run.mjs drives it): first a JSON line {"torch": version, "default_threads": n,
"cpus": n}; then, for each line "FIGURE THREADS" read, the seconds of one run of that figure on
that many threads: wall seconds, and on one thread also the thread's CPU seconds ("WALL CPU").

Run: /usr/bin/python3 bench/torch_baseline.py   (then e.g. "critical_steps 1" on stdin)
"""
import json
import os
import sys
import time

import torch

B, T, N, RB = 10_000, 10, 100, 1_000_000
g = torch.Generator().manual_seed(2)
sub = torch.randint(0, 20, (B, T, N), generator=g).float()
main = torch.ones(B, T)
n = torch.randint(0, 120, (RB,), generator=g).float()
assigned = n.clone()
completed = torch.floor(torch.rand(RB, generator=g) * (n + 1))
perf = torch.rand(RB, generator=g)
step = torch.randint(0, 12000, (RB,), generator=g).float()


def critical_steps():
    return (main + sub.clamp(min=0).amax(dim=2)).sum(dim=1)


def critical_all_fields():
    steps = sub.clamp(min=0)
    critical = (main + steps.amax(dim=2)).sum(dim=1)
    total = (main + steps.sum(dim=2)).sum(dim=1)
    return critical, total, torch.where(critical > 0, total / critical, torch.ones_like(total))


def reward():
    lam = torch.where(step >= 10000, torch.zeros_like(step), 0.1 + (0.0 - 0.1) * (step / 10000))
    r_parallel = torch.clamp(n / 100, 0, 1)
    r_finish = torch.where(assigned > 0, completed / assigned, torch.zeros_like(assigned))
    return lam * r_parallel + lam * r_finish + perf


n64, assigned64, completed64, perf64, step64 = (x.double() for x in (n, assigned, completed, perf, step))


def reward_all_fields():
    """Every output of rewardBatch, in float64 as rewardBatch gives them."""
    lambda1 = torch.where(step64 >= 10000, torch.zeros_like(step64), 0.1 + (0.0 - 0.1) * (step64 / 10000))
    lambda2 = lambda1.clone()
    r_parallel = torch.clamp(n64 / 100, 0, 1)
    r_finish = torch.where(assigned64 > 0, completed64 / assigned64, torch.zeros_like(assigned64))
    instantiation = lambda1 * r_parallel
    finish = lambda2 * r_finish
    return instantiation + finish + perf64, r_parallel, r_finish, perf64.clone(), lambda1, lambda2, instantiation, finish, perf64.clone()


FIGURES = {
    "critical_steps": critical_steps,
    "critical_all_fields": critical_all_fields,
    "reward": reward,
    "reward_all_fields": reward_all_fields,
}

# One timing per request, so that the caller can pair each with its own kernel's timing:
# a line "FIGURE THREADS" in, the seconds of one run of FIGURE on THREADS threads out (with one
# thread, its CPU seconds too: on a shared machine, the wall time also counts waiting for a core).
print(json.dumps({"torch": torch.__version__, "default_threads": torch.get_num_threads(), "cpus": os.cpu_count() or 1}), flush=True)
for line in sys.stdin:
    figure, threads = line.split()
    torch.set_num_threads(int(threads))
    fn = FIGURES[figure]
    t0, c0 = time.perf_counter(), time.thread_time()
    fn()
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    print(f"{wall} {cpu}" if int(threads) == 1 else wall, flush=True)
