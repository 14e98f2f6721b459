#!/usr/bin/env python3
"""Folded stacks of a two-source trace are the sum of each source's own
(one call stack per hart, issue #17).  usage: stacks_per_hart.py ALL A B"""
import collections, sys


def folded(path):
    c = collections.Counter()
    for line in open(path):
        if line.startswith('#'):
            continue
        stack, n = line.rsplit(' ', 1)
        c[stack] += int(n)
    return c


all_, a, b = (folded(p) for p in sys.argv[1:4])
want = a + b
if all_ != want:
    diff = sorted(set(all_) ^ set(want))[:5] or [k for k in want if all_[k] != want[k]][:5]
    sys.exit("stacks differ from the sum of the sources' own, e.g. %s" %
             ["%s: %d, want %d" % (k, all_[k], want[k]) for k in diff])
print("%d stacks, the sum of the two sources' own" % len(all_))
