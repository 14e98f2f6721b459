#!/usr/bin/env python3
"""pc_resync.py QEMU.pcs HART.pcs [MAXDIFF]: compare two executed-PC lists
(tests/e2e/qemu_uboot.sh).  At a difference, resynchronise on the nearest
point where both lists agree for 16 PCs (looking up to 4096 ahead in
each) and report it as 'diff at hart line L pc P: qemu +A hart +B' (P: the
hart's first PC that differs; A, B: PCs each side ran until they agree
again).  Exit 0 if at most MAXDIFF (default 0) differences, 1 otherwise."""
import sys
from collections import deque
W = 4096; K = 16
def reader(path):
    with open(path) as f:
        for l in f:
            yield l.strip()
class Buf:
    def __init__(self, it): self.it = it; self.d = deque()
    def fill(self, n):
        while len(self.d) < n:
            try: self.d.append(next(self.it))
            except StopIteration: break
q = Buf(reader(sys.argv[1])); h = Buf(reader(sys.argv[2]))
maxdiff = int(sys.argv[3]) if len(sys.argv) > 3 else 0
line = 0; diffs = 0
while True:
    q.fill(1); h.fill(1)
    if not q.d or not h.d:
        break
    if q.d[0] == h.d[0]:
        q.d.popleft(); h.d.popleft(); line += 1
        continue
    q.fill(W + K); h.fill(W + K)
    ql = list(q.d); hl = list(h.d)
    pos = {}
    for j in range(min(W, len(hl))):
        pos.setdefault(hl[j], []).append(j)
    best = None
    for i in range(min(W, len(ql))):
        for j in pos.get(ql[i], []):
            if ql[i:i + K] == hl[j:j + K] and (best is None or i + j < best[0] + best[1]):
                best = (i, j)
        if best and i > best[0] + best[1]:
            break
    diffs += 1
    if best is None:
        print("diff at hart line %d pc %s: no resync (qemu %s)" % (line + 1, h.d[0], q.d[0]))
        sys.exit(1)
    print("diff at hart line %d pc %s: qemu +%d hart +%d" % (line + 1, h.d[0], best[0], best[1]))
    for _ in range(best[0]): q.d.popleft()
    for _ in range(best[1]): h.d.popleft()
    line += best[1]
print("compared %d hart PCs, %d differences" % (line, diffs))
sys.exit(0 if diffs <= maxdiff else 1)
