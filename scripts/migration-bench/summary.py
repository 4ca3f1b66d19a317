#!/usr/bin/env python3
"""Reads the lines scripts/bench-migrations.sh --repeat K collected (job, rows, seconds, processor
seconds, statements, peak KiB) and prints each job's medians per size, then each job's ratios
from one size to the next against #53's targets: time at most 12x a decade, peak memory at most 2x.
Time is read three ways: the median wall clock, the median processor time, and the fastest run
(a busy machine only ever adds time, so the fastest run is the one least disturbed). A target is
met only when all three are within it."""
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
for line in open(sys.argv[1]):
    job, rows, seconds, processor, statements, peak = line.split()
    runs[(job, int(rows))].append((float(seconds), float(processor), int(statements), int(peak)))

jobs = list(dict.fromkeys(job for job, _ in runs))
count = max(len(r) for r in runs.values())
print(f"\nmedians of {count} run{'' if count == 1 else 's'}")
print(f"{'job':12} {'rows':>9} {'seconds':>10} {'processor':>10} {'statements':>12} {'peak MiB':>10} seconds, each run")
median = {}
for job in jobs:
    for rows in sorted(r for j, r in runs if j == job):
        samples = runs[(job, rows)]
        value = tuple(statistics.median(s[i] for s in samples) for i in range(4))
        median[(job, rows)] = value
        each = " ".join(f"{s[0]:.3f}" for s in samples)
        print(f"{job:12} {rows:>9} {value[0]:>10.3f} {value[1]:>10.3f} {value[2]:>12.0f} "
              f"{value[3] / 1024:>10.1f} {each}")

print("\nratios of the medians and of the fastest runs "
      "(targets for ten times the rows: time at most 12x, peak memory at most 2x)")
print(f"{'job':12} {'rows':>19} {'seconds':>8} {'processor':>9} {'fastest':>8} {'statements':>10} {'peak':>6}  verdict")
for job in jobs:
    sizes = sorted(r for j, r in runs if j == job)
    for small, large in zip(sizes, sizes[1:]):
        a, b = median[(job, small)], median[(job, large)]
        # The time target is set for ten times the rows; another step between sizes is held to it
        # in proportion (twice the rows: 2.4x).
        factor = large / small
        time_limit, memory_limit = 12 * factor / 10, 2.0
        ratios = [b[i] / a[i] if a[i] else float("inf") for i in range(4)]
        fastest = [min(s[0] for s in runs[(job, size)]) for size in (small, large)]
        fastest_ratio = fastest[1] / fastest[0] if fastest[0] else float("inf")
        met = max(ratios[0], ratios[1], fastest_ratio) <= time_limit and ratios[3] <= memory_limit
        print(f"{job:12} {f'{small} -> {large}':>19} {ratios[0]:>7.1f}x {ratios[1]:>8.1f}x {fastest_ratio:>7.1f}x "
              f"{ratios[2]:>9.1f}x {ratios[3]:>5.2f}x  {'met' if met else 'NOT met'}")
