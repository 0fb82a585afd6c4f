"""The PyTorch baseline of bench/run.mjs: open-parl's tensor formulas on CPU, timed.

Critical steps: clamp the steps at 0, a max over the group axis, then a sum over stages (and, for
the "all fields" figure, the total steps and the parallelism too). Reward (spec §3): the linear λ
schedule, clamp(n / max, 0, 1), completed / assigned where assigned > 0, and their weighted sum
plus r_perf. Float32 tensors, shaped as the JavaScript bench's inputs. Prints one JSON object of
rates per second: {"torch": version, "default_threads": n, "runs": [{"threads": t, "<figure>": rate, ...}, ...]}.

Run: /usr/bin/python3 bench/torch_baseline.py REPS WARMUP
"""
import json
import os
import sys
import time

import torch

REPS, WARMUP = (int(a) for a in sys.argv[1:3])
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


def rate(fn, items):
    for _ in range(WARMUP):
        fn()
    times = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return items / times[len(times) // 2]


default_threads = torch.get_num_threads()
runs = []
# one thread, torch's default, and one per CPU
for threads in sorted({1, torch.get_num_threads(), os.cpu_count() or 1}):
    torch.set_num_threads(threads)
    runs.append({
        "threads": threads,
        "critical_steps": rate(critical_steps, B * T * N),
        "critical_all_fields": rate(critical_all_fields, B * T * N),
        "reward": rate(reward, RB),
    })
print(json.dumps({"torch": torch.__version__, "default_threads": default_threads, "runs": runs}))
