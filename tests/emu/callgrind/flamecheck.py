#!/usr/bin/env python3
"""tests/emu/callgrind/flamecheck.py SVG FOLDED TOTAL — the flame graph's
frames against the folded stacks: every frame's path (its ancestors found by
position: the frame one row down whose span holds it) has the cost the folded
file gives that path prefix, its width is that cost in proportion, the root
is the total, and every prefix wide enough to draw (0.1 px) is there."""
import collections
import re
import sys

svg, folded, total = open(sys.argv[1]).read(), sys.argv[2], int(sys.argv[3])
unesc = lambda s: s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")
frames = [(unesc(n), int(c), float(x), float(y), float(w)) for n, c, x, y, w in
          re.findall(r'<title>(.*?) \((\d+) Ir, [0-9.]+%\)</title><rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)"', svg)]
want = collections.Counter()
for line in open(folded):
    stack, n = line.rsplit(" ", 1)
    parts = stack.split(";")
    for i in range(1, len(parts) + 1):
        want[tuple(parts[:i])] += int(n)
bad = []
assert frames and frames[0][0] == "all" and frames[0][1] == total, "root %r, total %d" % (frames[:1], total)
rows = collections.defaultdict(list)  # y -> frames
for f in frames:
    rows[f[3]].append(f)
ys = sorted(rows, reverse=True)  # the root's row at the bottom
path_of = {}
for f in frames:
    d = ys.index(f[3])
    if d == 0:
        path_of[f] = ()
        continue
    parents = [p for p in rows[ys[d - 1]] if p[2] - 0.01 <= f[2] and f[2] + f[4] <= p[2] + p[4] + 0.02]
    if len(parents) != 1:
        bad.append("frame %s at x %.2f: %d parents" % (f[0], f[2], len(parents)))
        continue
    path_of[f] = path_of.get(parents[0], ("?",)) + (f[0],)
seen = set()
for f, path in path_of.items():
    if not path:
        continue
    seen.add(path)
    if want.get(path) != f[1]:
        bad.append("frame %s: cost %d, folded %s" % (";".join(path), f[1], want.get(path)))
    if abs(f[4] - f[1] * 1180 / total) > 0.01:
        bad.append("frame %s: width %.2f for cost %d" % (";".join(path), f[4], f[1]))
for path, c in want.items():
    if c * 1180 / total >= 0.2 and path not in seen:
        bad.append("folded %s (%d) has no frame" % (";".join(path), c))
print("%d frames, %d folded prefixes" % (len(frames), len(want)))
for b in bad[:20]:
    print("FAIL", b)
sys.exit(1 if bad else 0)
