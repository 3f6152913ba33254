#!/usr/bin/env bash
# tests/emu/callgrind/run_tool.sh KIT_EMU GUESTDIR — kit-emu --tool=callgrind
# on guest programs of known call structure (guest/calls.c, static and
# dynamic, -O2): calls= counts exact, totals: equal to --tool=insncount's
# count, self costs summing to the total, main holding nearly all of it, two
# runs byte-identical apart from pid:, callgrind_annotate reading every file
# (plain, --inclusive=yes, --tree=both, --auto=yes) with no warning and with
# the file's per-function figures; --dump-instr=yes; the folded stacks and
# the flame graph (xmllint, rsvg-convert); the cache model's misses on
# guest/cache.c in closed form; option errors. 77 without the tools.
set -uo pipefail
emu=${1:?usage: run_tool.sh KIT_EMU GUESTDIR} guest=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
for t in riscv64-linux-gnu-gcc callgrind_annotate xmllint rsvg-convert python3; do
  command -v $t >/dev/null || { echo "$t not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-callgrind.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "${@:2}" >"$work/ok.log" 2>&1; then pass=$((pass + 1)); else echo "FAIL $1"; cat "$work/ok.log"; fail=$((fail + 1)); fi; }
cd "$work"
riscv64-linux-gnu-gcc -O2 -g -static -o calls_static "$guest/calls.c" || exit 1
riscv64-linux-gnu-gcc -O2 -g -o calls_dynamic "$guest/calls.c" || exit 1
sysroot=(-L /usr/riscv64-linux-gnu)
# the calls main.c makes, each exactly so many times
expect=(one_caller'>'leaf=3 other_caller'>'leaf=5 main'>'one_caller=1 main'>'other_caller=1 main'>'recurse=2
  recurse'>'recurse=11 main'>'apply=4 apply'>'twice=2 apply'>'square=2 main'>'tail=4 tail'>'leaf_tail=4
  main'>'jumper1=1 jumper1'>'jumper2=1 main'>'work=1 '*>handler=2' 'main>=90')

no_warning() { [ ! -s "$1" ] && ! grep -qi warn "$2"; }
for kind in static dynamic; do
  prog=./calls_$kind
  "$emu" "${sysroot[@]}" --tool=insncount "$prog" >out.ic 2>ic.$kind
  n=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions$/\1/p' ic.$kind)
  for run in 1 2; do
    "$emu" "${sysroot[@]}" "--tool=callgrind,--callgrind-out-file=cg.$kind.$run,--folded-out=folded.$kind,--flamegraph=flame.$kind.svg" \
      "$prog" >out.$kind 2>err.$kind
    rc=$?
    ok "$kind run $run: exit status 0 and the output" bash -c "[ $rc = 0 ] && grep -q ' 57\$' out.$kind"
  done
  ok "$kind: totals: $n equal insncount's count" grep -qx "totals: $n" cg.$kind.1
  ok "$kind: calls= counts, sums, main's share" python3 "$here/cgfile.py" check cg.$kind.1 "${expect[@]}"
  ok "$kind: two runs byte-identical but pid:" cmp <(grep -v '^pid:' cg.$kind.1) <(grep -v '^pid:' cg.$kind.2)
  callgrind_annotate --threshold=100 cg.$kind.1 >plain.$kind 2>plain.err
  callgrind_annotate --threshold=100 --inclusive=yes cg.$kind.1 >incl.$kind 2>incl.err
  callgrind_annotate --threshold=100 --inclusive=yes --tree=both cg.$kind.1 >tree.$kind 2>tree.err
  callgrind_annotate --auto=yes cg.$kind.1 >auto.$kind 2>auto.err
  for v in plain incl tree auto; do ok "$kind: callgrind_annotate ($v) without warning" no_warning $v.err $v.$kind; done
  ok "$kind: callgrind_annotate's figures are the file's" python3 "$here/cgfile.py" annotate cg.$kind.1 plain.$kind incl.$kind
  ok "$kind: --tree=both shows leaf has two callers" bash -c "grep -Eq '< .*calls\.c:one_caller \(3x\)' tree.$kind && grep -Eq '< .*calls\.c:other_caller \(5x\)' tree.$kind"
  ok "$kind: --auto=yes annotates calls.c" grep -Eq '=> .*calls\.c:leaf \(3x\)' auto.$kind
  # folded stacks: Ir per distinct stack, summing to the total
  ok "$kind: folded stacks sum to the total" bash -c "[ \$(awk '{s += \$NF} END {print s}' folded.$kind) = $n ]"
  ok "$kind: folded stack main;work" grep -Eq '(^|;)main;work [0-9]+$' folded.$kind
  ok "$kind: flame graph well-formed" xmllint --noout flame.$kind.svg
  ok "$kind: flame graph renders" rsvg-convert -o flame.$kind.png flame.$kind.svg
  ok "$kind: flame graph frames match the folded stacks" python3 "$here/flamecheck.py" flame.$kind.svg folded.$kind $n
  ok "$kind: flame graph has main;work" grep -q '<title>work (' flame.$kind.svg
done

# faults caught by a handler on an alternate stack that siglongjmps out
# (tests/emu/guest/segv.c): the handler called from main 4 times, totals as
# insncount's, the faulting loads' instructions not counted
riscv64-linux-gnu-gcc -O2 -g -static -o segv "$guest/../../guest/segv.c" || exit 1
"$emu" --tool=insncount --tool=callgrind,--callgrind-out-file=cg.segv ./segv >out.segv 2>err.segv
n=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions$/\1/p' err.segv)
ok "segv: totals: $n, the same run's count" grep -qx "totals: $n" cg.segv
ok "segv: the handler called 4 times, from main" python3 "$here/cgfile.py" check cg.segv main'>'on_segv=4 '*>on_segv=4'
# with other tools: insncount and AddressSanitizer in the same run
"$emu" --sanitize=address --tool=insncount --tool=callgrind,--callgrind-out-file=cg.asan ./calls_static >out.asan 2>err.asan
n=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions$/\1/p' err.asan)
ok "with --sanitize=address and insncount: totals: $n, the same run's count" grep -qx "totals: $n" cg.asan
ok "with --sanitize=address: calls" python3 "$here/cgfile.py" check cg.asan one_caller'>'leaf=3 other_caller'>'leaf=5 recurse'>'recurse=11
# every execution mode gives the same file
# (libc does more for a file than for /dev/null: the output goes where it went above)
for mode in --tier=0 --tier=1 --single-step --no-chain; do
  "$emu" $mode --tool=callgrind,--callgrind-out-file=cg.mode ./calls_static >out.mode 2>err.mode # stdout a file, as above
  ok "$mode: the same file" cmp <(grep -v '^pid:' cg.static.1) <(grep -v '^pid:' cg.mode)
done
# instruction positions
"$emu" --tool=callgrind,--dump-instr=yes,--callgrind-out-file=cg.instr ./calls_static >/dev/null 2>&1
ok "--dump-instr=yes: positions: instr line" grep -qx 'positions: instr line' cg.instr
ok "--dump-instr=yes: sums and calls" python3 "$here/cgfile.py" check cg.instr "${expect[@]}"
callgrind_annotate --inclusive=yes --tree=both cg.instr >instr.txt 2>instr.err
ok "--dump-instr=yes: callgrind_annotate without warning" no_warning instr.err instr.txt
# jumps: work()'s loop branch taken 399999 of 400000 times
"$emu" --tool=callgrind,--collect-jumps=yes,--callgrind-out-file=cg.jumps ./calls_static >out.jumps 2>&1
ok "--collect-jumps=yes: work's loop branch" grep -Eq '^jcnd=399999/400000 [0-9]+$' cg.jumps
ok "--collect-jumps=yes: sums and calls" python3 "$here/cgfile.py" check cg.jumps "${expect[@]}"
callgrind_annotate --inclusive=yes --tree=both --auto=yes cg.jumps >jumps.txt 2>jumps.err
ok "--collect-jumps=yes: callgrind_annotate without warning" no_warning jumps.err jumps.txt
# --toggle-collect: what is left out or kept is exactly a call's inclusive cost
total() { sed -n 's/^totals: \([0-9]*\).*/\1/p' "$1"; }
"$emu" --tool=callgrind,--toggle-collect=work,--callgrind-out-file=cg.nowork ./calls_static >out.mode 2>&1
wcost=$(python3 "$here/cgfile.py" incl cg.static.1 main work)
ok "--toggle-collect=work: the total less the calls of work ($wcost)" [ $(($(total cg.static.1) - $(total cg.nowork))) = "$wcost" ]
ok "--toggle-collect=work: no call of work, the rest" python3 "$here/cgfile.py" check cg.nowork main'>'work=0 one_caller'>'leaf=3 recurse'>'recurse=11
"$emu" --tool=callgrind,--collect-atstart=no,--toggle-collect=one_*,--toggle-collect=recurse,--callgrind-out-file=cg.only ./calls_static >out.mode 2>&1
want=$(($(python3 "$here/cgfile.py" incl cg.static.1 main one_caller) + $(python3 "$here/cgfile.py" incl cg.static.1 main recurse)))
ok "--collect-atstart=no --toggle-collect=one_*,recurse: their calls' cost only ($want)" [ "$(total cg.only)" = "$want" ]
ok "--collect-atstart=no: the calls inside" python3 "$here/cgfile.py" check cg.only main'>'one_caller=1 one_caller'>'leaf=3 \
  main'>'recurse=2 recurse'>'recurse=11 other_caller'>'leaf=0
callgrind_annotate --inclusive=yes --tree=both cg.only >only.txt 2>only.err
ok "--collect-atstart=no: callgrind_annotate without warning" no_warning only.err only.txt
# the default name: callgrind.out.<pid>
mkdir d && (cd d && "$emu" --tool=callgrind ../calls_static >/dev/null 2>&1)
ok "default file callgrind.out.<pid>" bash -c 'ls d | grep -Eqx "callgrind\.out\.[0-9]+"'
# the cache model: guest/cache.c's misses in closed form
riscv64-linux-gnu-gcc -O2 -g -static -o cache "$guest/cache.c" || exit 1
"$emu" --tool=callgrind,--cache-sim=yes,--D1=32768,8,64,--LL=262144,8,64,--callgrind-out-file=cg.cache ./cache >/dev/null 2>&1
"$emu" --tool=insncount ./cache >/dev/null 2>ic.cache
ok "--cache-sim=yes: events as callgrind names them" grep -qx 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw' cg.cache
ok "--cache-sim=yes: Ir total equals insncount" bash -c "[ \"\$(sed -n 's/^totals: \([0-9]*\) .*/\1/p' cg.cache)\" = \"\$(sed -n 's/^kit-emu: insncount: \([0-9]*\) .*/\1/p' ic.cache)\" ]"
ok "--cache-sim=yes: closed-form misses" python3 "$here/cgfile.py" check cg.cache stride:Dr=32768 stride:D1mr=32768 \
  stride:DLmr=32768 inside:Dr=20480 inside:D1mr=256 inside:DLmr=256 writes:Dw=1024 writes:D1mw=1024 writes:DLmw=1024
callgrind_annotate --inclusive=yes --tree=both cg.cache >cache.txt 2>cache.err
ok "--cache-sim=yes: callgrind_annotate without warning" no_warning cache.err cache.txt
callgrind_annotate --threshold=100 cg.cache >cplain.txt 2>/dev/null
callgrind_annotate --threshold=100 --inclusive=yes cg.cache >cincl.txt 2>/dev/null
ok "--cache-sim=yes: callgrind_annotate's figures are the file's" python3 "$here/cgfile.py" annotate cg.cache cplain.txt cincl.txt
# option errors: one line, exit status 1
for bad in --nosuch=1 --separate-threads=maybe --dump-instr=maybe --D1=100,3,64 --I1=32768,8 --flamegraph= --folded-out; do
  "$emu" --tool=callgrind,$bad ./calls_static >/dev/null 2>bad.err
  rc=$?
  ok "callgrind,$bad refused" bash -c "[ $rc = 1 ] && grep -q 'callgrind' bad.err && [ \$(wc -l <bad.err) = 1 ]"
done
"$emu" --tool=insncount,x ./calls_static >/dev/null 2>bad.err
rc=$?
ok "insncount refuses arguments" [ $rc = 1 ]

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
