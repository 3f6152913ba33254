#!/usr/bin/env bash
# tests/emu/callgrind/run_profile.sh TEST_PROFILE — the profile core's files
# read by the tools people use: callgrind_annotate (plain, --inclusive=yes,
# --tree=both) with the costs of the scripted run and no warning, the folded
# stacks, and the flame graph: well-formed (xmllint), rendered (rsvg-convert
# to PNG), its frame widths those of the folded file. 77 without the tools.
set -uo pipefail
prog=${1:?usage: run_profile.sh TEST_PROFILE}
for t in callgrind_annotate xmllint rsvg-convert python3; do
  command -v $t >/dev/null || { echo "$t not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "${@:2}"; then pass=$((pass + 1)); else echo "FAIL $1"; fail=$((fail + 1)); fi; }
has() { grep -Eq -- "$2" "$1"; }

"$prog" write "$work" || { echo "FAIL test_profile write"; exit 1; }
cd "$work"
callgrind_annotate callgrind.out >plain.txt 2>plain.err
callgrind_annotate --inclusive=yes callgrind.out >incl.txt 2>incl.err
callgrind_annotate --inclusive=yes --tree=both callgrind.out >tree.txt 2>tree.err
ok "callgrind_annotate reads it (rc)" [ -s plain.txt ]
ok "no warning from callgrind_annotate" bash -c '! grep -qi warn plain.* incl.* tree.*'
ok "program total 151" has plain.txt '^151 \(100\.0%\)  PROGRAM TOTALS'
ok "g self 63 (f's 6 calls and main's)" has plain.txt '^63 \([0-9.]+%\)  prog\.c:g \[/tmp/prog\]'
ok "f self 24 and its inlined header line 3" bash -c "grep -Eq '^24 .*prog\.c:f ' plain.txt && grep -Eq '^ ?3 .*other\.h:f' plain.txt"
ok "r self 40 over its recursion" has plain.txt '^40 .*prog\.c:r '
ok "libc's object named" has plain.txt 'string\.h:inlined<&> \[/lib/libc\.so\.6\]'
ok "main inclusive: everything" has incl.txt '^151 \(100\.0%\)  prog\.c:main'
ok "f inclusive 81" has incl.txt '^ ?81 .*prog\.c:f '
ok "tree: main calls f 3x" has tree.txt '>   prog\.c:f \(3x\)'
ok "tree: f calls g 6x" has tree.txt '>   prog\.c:g \(6x\)'
ok "tree: g called by main 1x" has tree.txt '< prog\.c:main \(1x\)'
ok "totals: line" has callgrind.out '^totals: 151$'
ok "events: before summary" bash -c "grep -n '^events: Ir' callgrind.out | cut -d: -f1 | xargs -I{} awk 'NR=={}+1' callgrind.out | grep -q '^summary: 151'"
ok "names compressed" bash -c "[ \$(grep -c '^fn=(3) g\$' callgrind.out) = 0 ] && [ \$(grep -c '^cfn=(3) g\$' callgrind.out) = 1 ] && grep -q '^fn=(3)\$' callgrind.out"

# folded stacks: self cost per distinct stack, summing to the total
ok "folded: f's stack" has folded '^main;f 27$'
ok "folded: recursion kept" has folded '^main;r;r;r;r 10$'
ok "folded: sums to the total" [ "$(awk '{s += $NF} END {print s}' folded)" = 151 ]

# the flame graph
ok "flame graph well-formed" xmllint --noout flame.svg
ok "flame graph renders" rsvg-convert -o flame.png flame.svg
ok "PNG has the SVG's size" python3 -c '
import struct, sys
d = open("flame.png", "rb").read(24)
w, h = struct.unpack(">II", d[16:24])
sys.exit(0 if d[:8] == b"\x89PNG\r\n\x1a\n" and w == 1200 and h > 100 else 1)'
ok "frame widths match the folded stacks" python3 - <<'PY'
import re, sys, collections
svg = open("flame.svg").read()
frames = re.findall(r'<title>(.*?) \((\d+) Ir, [0-9.]+%\)</title><rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)"', svg)
incl = collections.Counter()
for line in open("folded"):
    stack, n = line.rsplit(" ", 1)
    parts = stack.split(";")
    for i in range(1, len(parts) + 1):
        incl[(i, parts[i - 1])] += int(n)  # by depth and name: unique in this profile
total = sum(int(l.rsplit(" ", 1)[1]) for l in open("folded"))
ys = sorted({float(f[3]) for f in frames}, reverse=True)
bad = 0
for name, cost, x, y, w in frames:
    depth = ys.index(float(y))
    name = name.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    want = total if depth == 0 else incl[(depth, name)]
    if int(cost) != want or abs(float(w) - want * 1180 / total) > 0.02:
        print("frame", name, "depth", depth, "cost", cost, "width", w, "want", want); bad = 1
if len(frames) != 1 + len(incl):
    print("frames", len(frames), "want", 1 + len(incl)); bad = 1
sys.exit(bad)
PY
ok "names escaped in the SVG" has flame.svg 'inlined&lt;&amp;&gt;'

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
