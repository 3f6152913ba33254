#!/usr/bin/env bash
# tests/tools/trace/run.sh KIT_TRACE TRACE_GEN — kit's trace stream end to end:
# a scripted file read back by kit-trace dump/stats/pcs/export --chrome (JSON
# that Python's json loads, with the syscall, signal and thread events), a
# live shared-memory ring read while it is written (lossless: every record
# arrives), a ring that drops when nobody reads (the loss counted), and
# malformed input (a clear message, exit 1, no crash).
set -uo pipefail
kt=${1:?usage: run.sh KIT_TRACE TRACE_GEN}
gen=${2:?usage: run.sh KIT_TRACE TRACE_GEN}
work=$(mktemp -d)
ring=kit-trace-test-$$
trap 'rm -rf "$work"; rm -f /dev/shm/$ring /dev/shm/$ring-drop' EXIT
pass=0 fail=0
ok() { if "${@:2}"; then pass=$((pass + 1)); else echo "FAIL $1"; fail=$((fail + 1)); fi; }
has() { grep -Eq -- "$2" "$1"; }
cd "$work"
"$gen" file t.trace || { echo "FAIL trace_gen"; exit 1; }
"$kt" dump t.trace >dump.txt; ok "dump rc" [ $? -eq 0 ]
ok "dump: header" has dump.txt '^# kit trace v3, machine 243, /bin/prog "q", 3 registers$'
ok "dump: write syscall by name" has dump.txt '^1 syscall write\(0x1, 0x5000, 0x6, 0x0, 0x0, 0x0\) = 6$'
ok "dump: failed openat" has dump.txt '^2 syscall openat\(0xffffff9c, 0x6000, .*\) = -2$'
ok "dump: mmap with its file" has dump.txt '^1 mmap 0x10000\+0x2000 prot=5 flags=0x2 offset=0x1000 /lib/ld-linux-riscv64-lp64d\.so\.1$'
ok "dump: store with value" has dump.txt '^1 mem pc=0x1004 store 4 @0x7000 = 0xdeadbeef$'
ok "dump: register write" has dump.txt '^1 regs pc=0x1004 r10 = 0x2a$'
ok "dump: code installed, with its tier" has dump.txt '^1 code pc=0x1000 tier=1 insns=3$'
ok "dump: every record" [ "$(grep -vc '^#' dump.txt)" = 23 ]
"$kt" stats t.trace >stats.txt
ok "stats: blocks" has stats.txt '^block +8$'
ok "stats: code by tier" has stats.txt '^  baseline +1 blocks$'
ok "stats: hottest block first" bash -c "grep -A1 'hottest blocks' stats.txt | tail -1 | grep -Eq '0x1000 5'"
ok "stats: calls and errors" bash -c "grep -Eq 'write +2 calls, 0 errors' stats.txt && grep -Eq 'openat +1 calls, 1 errors' stats.txt"
"$kt" pcs t.trace >pcs.txt
ok "pcs: blocks expanded by their instruction lengths" bash -c "grep -qx '0x1000 5' pcs.txt && grep -qx '0x1004 5' pcs.txt && grep -qx '0x1006 5' pcs.txt && grep -qx '0x2000 3' pcs.txt && [ \$(wc -l <pcs.txt) = 4 ]"
"$kt" export --chrome t.trace >t.json
ok "chrome export is Trace Event Format JSON" python3 -c '
import json, sys
d = json.load(open("t.json"))
ev = d["traceEvents"]
names = [e["name"] for e in ev]
assert names.count("write") == 2 and "openat" in names and "signal 11" in names, names
assert any(e["ph"] == "M" and e["name"] == "thread_name" and e["tid"] == 2 for e in ev)
assert all("ts" in e for e in ev if e["ph"] == "i")
'
# a live ring: the reader keeps up with a writer 100x the ring's size
"$kt" stats --wait 5000 shm:$ring >ring.txt &
reader=$!
"$gen" ring $ring 200000 65536; wrc=$?
wait $reader; rrc=$?
ok "ring: writer and reader rc" [ $wrc -eq 0 -a $rrc -eq 0 ]
ok "ring: lossless (200000 blocks)" has ring.txt '^block +200000$'
ok "ring: no loss reported" bash -c "! grep -q lost ring.txt"
# a ring that drops: nobody reads while 5000 blocks and the exit record go in
"$gen" drop $ring-drop 5000
"$kt" stats --wait 100 shm:$ring-drop >drop.txt
ok "drop ring: what arrived plus what was lost is everything" python3 -c '
import re
t = open("drop.txt").read()
blocks = int(re.search(r"^block +(\d+)", t, re.M).group(1))
lost = int(re.search(r"^lost +(\d+)", t, re.M).group(1))
exits = len(re.findall(r"^exit +(\d+)", t, re.M)) and int(re.search(r"^exit +(\d+)", t, re.M).group(1))
assert blocks + exits + lost == 5001 and lost > 0, (blocks, exits, lost)
'
# bad input
printf 'not a trace' >bad.trace
"$kt" dump bad.trace >/dev/null 2>bad.err; rc=$?
ok "not a trace: exit 1 and a message" bash -c "[ $rc = 1 ] && grep -q 'not a kit trace' bad.err"
head -c 205 t.trace >cut.trace
"$kt" stats cut.trace >/dev/null 2>cut.err; rc=$?
ok "cut short: exit 1 and a message" bash -c "[ $rc = 1 ] && grep -q 'cut short' cut.err"
"$kt" dump /nonexistent 2>/dev/null; ok "missing file: exit 1" [ $? -eq 1 ]
"$kt" bogus t.trace 2>/dev/null; ok "unknown command: exit 2" [ $? -eq 2 ]
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
