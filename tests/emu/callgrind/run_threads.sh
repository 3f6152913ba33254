#!/usr/bin/env bash
# tests/emu/callgrind/run_threads.sh KIT_EMU GUESTDIR [static|dynamic] — kit-emu --tool=callgrind
# on guest/threads.c (four workers taking turns on the execution lock in the
# middle of their calls; static, and dynamic with lazy binding), with
# --tool=insncount in the same run (the same scheduling):
#  - one file (the default): totals: equal to insncount's whole count, calls=
#    exact per caller and callee summed over the threads, callgrind_annotate
#    (plain, --inclusive=yes, --tree=both) without warning and with the file's
#    figures, no per-thread files; --toggle-collect=work collecting in each
#    thread only inside its own call of work;
#  - --separate-threads=yes: a file per thread named F-01 .. F-05 (Valgrind's
#    thread numbers, vcpu + 1) and no F, each with "thread: N", totals: equal
#    to insncount's line for that thread and summing to its whole count, the
#    worker's own calls= counts in its own file only, the workers' leaf and
#    work self costs summing to the one file's, each read by callgrind_annotate
#    without warning; with --cache-sim=yes too (static).
# The static or the dynamic guest only with the third argument (two ctests).
# 77 without the tools.
set -uo pipefail
emu=${1:?usage: run_threads.sh KIT_EMU GUESTDIR [static|dynamic]} guest=${2:?} kinds=${3:-static dynamic}
here=$(cd "$(dirname "$0")" && pwd)
for t in riscv64-linux-gnu-gcc callgrind_annotate python3; do
  command -v $t >/dev/null || { echo "$t not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-cgthreads.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { if "${@:2}" >"$work/ok.log" 2>&1; then pass=$((pass + 1)); else echo "FAIL $1"; cat "$work/ok.log"; fail=$((fail + 1)); fi; }
no_warning() { [ ! -s "$1" ] && ! grep -qi warn "$2"; }
cd "$work"
riscv64-linux-gnu-gcc -O2 -g -static -pthread -o threads_static "$guest/threads.c" || exit 1
# lazy binding: each function's first call through the PLT goes through
# ld.so's resolver, whose jump to the function is the caller's call
riscv64-linux-gnu-gcc -O2 -g -pthread -o threads_dynamic "$guest/threads.c" || exit 1
sysroot=(-L /usr/riscv64-linux-gnu)
cg=$here/cgfile.py
all=('work>leaf=200000' 'main>leaf=3' 'work>part0=1' 'work>part1=2' 'work>part2=3' 'work>part3=4' 'worker>work=4'
  'work>__sched_yield=50' 'main>work=0')
for kind in $kinds; do
  prog=./threads_$kind
  create=pthread_create wait=pthread_barrier_wait
  # the static libc's names: its first alias in name order
  [ $kind = static ] && create=__pthread_create wait=___pthread_barrier_wait
  # ---- one file, every thread's costs
  "$emu" "${sysroot[@]}" --tool=insncount "--tool=callgrind,--callgrind-out-file=cg.$kind" "$prog" >out.$kind 2>ic.$kind
  rc=$?
  n=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions$/\1/p' ic.$kind)
  ok "$kind: exit status 0 and the output" bash -c "[ $rc = 0 ] && grep -qx 'sum 306065067' out.$kind"
  ok "$kind: insncount saw 5 threads" [ "$(grep -c '^kit-emu: insncount: thread ' ic.$kind)" = 5 ]
  ok "$kind: totals: $n equal insncount's count" grep -qx "totals: $n" cg.$kind
  ok "$kind: calls= exact over the threads" python3 "$cg" check cg.$kind "${all[@]}" "main>$create=4" "worker>$wait=4"
  ok "$kind: one file, no per-thread files" bash -c "[ -s cg.$kind ] && ! ls cg.$kind-* 2>/dev/null"
  ok "$kind: no thread: line in the one file" bash -c "! grep -q '^thread:' cg.$kind"
  callgrind_annotate --threshold=100 cg.$kind >plain.$kind 2>plain.err
  callgrind_annotate --threshold=100 --inclusive=yes cg.$kind >incl.$kind 2>incl.err
  callgrind_annotate --threshold=100 --inclusive=yes --tree=both cg.$kind >tree.$kind 2>tree.err
  for v in plain incl tree; do ok "$kind: callgrind_annotate ($v) without warning" no_warning $v.err $v.$kind; done
  ok "$kind: callgrind_annotate's figures are the file's" python3 "$cg" annotate cg.$kind plain.$kind incl.$kind
  ok "$kind: --tree=both: work called from worker 4x" grep -Eq '< .*threads\.c:worker \(4x\)' tree.$kind

  # ---- a file per thread
  "$emu" "${sysroot[@]}" --tool=insncount "--tool=callgrind,--callgrind-out-file=sep.$kind,--separate-threads=yes" \
    "$prog" >out.$kind 2>ic.$kind
  rc=$?
  n=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions$/\1/p' ic.$kind)
  ok "$kind sep: exit status 0 and the output" bash -c "[ $rc = 0 ] && grep -qx 'sum 306065067' out.$kind"
  ok "$kind sep: files F-01 .. F-05 and no F" bash -c "[ \"\$(ls sep.$kind*)\" = \"\$(printf 'sep.$kind-%02d\n' 1 2 3 4 5)\" ]"
  sum=0
  for v in 0 1 2 3 4; do
    f=sep.$kind-0$((v + 1))
    want=$(sed -n "s/^kit-emu: insncount: thread $v (tid [0-9]*): \([0-9]*\) instructions\$/\1/p" ic.$kind)
    got=$(sed -n 's/^totals: //p' $f)
    sum=$((sum + ${got:-0}))
    ok "$f: thread: $((v + 1))" bash -c "[ \"\$(grep '^thread:' $f)\" = 'thread: $((v + 1))' ] && grep -qx 'part: 1' $f"
    ok "$f: totals: $got equal insncount's thread $v ($want)" [ "$got" = "$want" ]
    if [ $v = 0 ]; then
      ok "$f: main's calls only" python3 "$cg" check $f 'main>leaf=3' 'work>leaf=0' 'worker>work=0' "main>$create=4"
    else
      k=$((v - 1)) others=()
      for j in 0 1 2 3; do [ $j = $k ] || others+=("work>part$j=0"); done
      ok "$f: worker $k's calls only" python3 "$cg" check $f "work>leaf=$((20000 * (k + 1)))" "work>part$k=$((k + 1))" \
        "work>__sched_yield=$((5 * (k + 1)))" 'worker>work=1' "worker>$wait=1" 'main>leaf=0' "${others[@]}"
    fi
    callgrind_annotate --threshold=100 $f >p.txt 2>p.err
    callgrind_annotate --threshold=100 --inclusive=yes $f >i.txt 2>i.err
    ok "$f: callgrind_annotate without warning, the thread named" bash -c "no_warning() { [ ! -s \$1 ] && ! grep -qi warn \$2; }; no_warning p.err p.txt && no_warning i.err i.txt && grep -q 'thread $((v + 1)))' p.txt"
    ok "$f: callgrind_annotate's figures are the file's" python3 "$cg" annotate $f p.txt i.txt
  done
  ok "$kind sep: the threads' totals ($sum) sum to insncount's $n" [ "$sum" = "$n" ]
  # the workers' own code runs the same in every run: its self costs per
  # thread sum to the one file's
  for fn in leaf work part0 part3; do
    s=$(python3 "$cg" self $fn sep.$kind-0[1-5])
    ok "$kind sep: $fn's self cost over the threads ($s) is the one file's" [ "$s" = "$(python3 "$cg" self $fn cg.$kind)" ]
  done
done

[ "$kinds" = dynamic ] && { echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }
# --toggle-collect per thread: each worker collects inside its own call of
# work only (were the state the process's, one worker's entry would stop
# another's collecting)
prog=./threads_static
"$emu" --tool=callgrind,--callgrind-out-file=tg,--collect-atstart=no,--toggle-collect=work $prog >/dev/null 2>&1
# (the call of work itself is counted: it starts the collecting)
ok "--toggle-collect=work: work's calls only" python3 "$cg" check tg "work>leaf=200000" 'main>leaf=0' \
  'work>__sched_yield=50' 'work>part3=4' 'worker>work=4' 'main>__pthread_create=0'
"$emu" --tool=callgrind,--callgrind-out-file=tgs,--collect-atstart=no,--toggle-collect=work,--separate-threads=yes $prog >/dev/null 2>&1
ok "--toggle-collect=work: thread 1 collected nothing" grep -qx 'totals: 0' tgs-01
for v in 2 3 4 5; do
  k=$((v - 2))
  ok "--toggle-collect=work: thread $v's totals are its work ($((20000 * (k + 1))) leaf calls)" \
    python3 "$cg" check tgs-0$v "work>leaf=$((20000 * (k + 1)))" "work>part$k=$((k + 1))"
  ok "--toggle-collect=work: thread $v's total is its call of work's inclusive cost" \
    bash -c "[ \$(sed -n 's/^totals: //p' tgs-0$v) = \$(python3 '$cg' incl tgs-0$v worker work) ]"
done

# --cache-sim=yes with a file per thread: each file's own sums and
# callgrind_annotate; --auto=no, since callgrind_annotate 3.19's
# auto-annotation warns ("Use of uninitialized value ... line 1284") when no
# annotated line has a cost of the last events, as it does on Valgrind's own
# callgrind.out.PID-01 of a threaded program with --cache-sim=yes
"$emu" --tool=callgrind,--callgrind-out-file=cs,--cache-sim=yes,--separate-threads=yes $prog >/dev/null 2>&1
for f in cs-0[1-5]; do
  ok "--cache-sim=yes $f: every event's self costs sum to totals:" python3 "$cg" check $f
  callgrind_annotate --auto=no --inclusive=yes $f >c.txt 2>c.err
  ok "--cache-sim=yes $f: callgrind_annotate without warning" no_warning c.err c.txt
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
