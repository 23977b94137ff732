"""Independent check of `evallab calc --limits`: recompute every boundary,
threshold and inverse from the closed forms of metrics.md §2 (inverses by
bisection on C, not by §2.6's formula) and compare with the printed values.

    target/release/evallab calc --x05 0.62 --limits | python3 scripts/check_limits.py 0.62
"""
import math
import re
import sys

x05 = float(sys.argv[1])
k = x05 / math.log(2)
total = 2 * k


def C(x):
    return k * 2 ** (x / x05) if x <= 0 else total - k * 2 ** (-x / x05)


def solve(target):
    lo, hi = -50.0, 50.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if C(mid) < target else (lo, mid)
    return (lo + hi) / 2


def bound(q):  # eval where the tail mass 1 - P(x) reaches q
    return x05 * math.log2(1 / (2 * q))


positions = {
    "nine-wdb": [x05 * math.log2(10 / 9), x05 * math.log2(10 / 7), x05, 2 * x05],
    "nine-equal": [bound(4 / 9), bound(3 / 9), bound(2 / 9), bound(1 / 9)],
    "seven-equal": [bound(3 / 7), bound(2 / 7), bound(1 / 7)],
}
units = {"econ7": (total / 7, [0.5, 1.5, 2.5]), "econ8": (x05 / (4 * math.log(2)), [1, 2, 3]),
         "gen20": (x05 / (10 * math.log(2)), [1, 3, 5]), "gen12": (x05 / (6 * math.log(2)), [1, 2, 3])}
text = sys.stdin.read()
checked = worst = 0
for name, expect in positions.items():
    got = [float(v) for v in re.findall(r"from (-?[\d.]+)", re.search(rf"^\s*{name} .*$", text, re.M).group(0))]
    for g, e in zip(got, expect, strict=True):
        worst, checked = max(worst, abs(g - e)), checked + 1
for name, (u, mult) in units.items():
    got = [float(v) for v in re.search(rf"^\s*{name}\s+(.*)$", text, re.M).group(1).split()]
    expect = [m * u for m in mult] + [solve(C(0) + m * u) for m in mult]
    for g, e in zip(got, expect, strict=True):
        worst, checked = max(worst, abs(g - e)), checked + 1
print(f"{checked} values checked against the closed forms; max |difference| = {worst:.2e}")
sys.exit(0 if worst < 1e-4 else 1)
