#!/usr/bin/env bash
# tests/emu/trace/run.sh PART KIT_EMU KIT_TRACE SLOW_READER PROBE_RESOLVE SRCDIR —
# kit-emu --trace and --probe against oracles, one PART per ctest:
#   insn    insn events (blocks expanded by kit-trace) = --tool=insncount, every tier, faults mid-block
#   seq     the pc sequence of small.c = qemu-riscv64 -singlestep -d exec,nochain's; branch events
#           go where the single steps go; the header's build id is readelf's
#   mem     store events carry the values small.c writes, load events what memory held
#   regs    replaying regs events from the initial state = gdb-multiarch's integer and floating-point
#           registers (qemu -g) at the exit ecall, also across signal handlers (sig.c)
#   strace  syscall events = --strace's lines; mmap events = its mmap/munmap/mprotect lines, with file names
#   ring    a slow consumer on shm: nothing lost; with --trace-drop the received + lost count is exact
#   probe   --probe hit counts = the trace's counts of the same pcs and its probe records, -O0 and -O2;
#           addresses where gdb's break puts them; --probe-list; the refusals
#   chrome  kit-trace export --chrome: JSON whose every event has ph, ts, pid, tid, name
#   fuzz    kit-trace on damaged traces: a message and exit 1, never a crash
#   invalidate  code written, run, rewritten, flushed and unmapped (smc.c): an invalidate record
#           for the write (reason 1) over its page and the munmap (2); through a second, shared
#           view of the code, flushes (5) over that page only; the program sees its new code
set -uo pipefail
part=$1 emu=$2 kt=$3 slow=$4 resolve=$5 src=$6
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
guests=$src/tests/emu/guest here=$src/tests/emu/trace
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-trace-$part.XXXXXX")
ring=kit-emu-trace-test-$$
trap 'rm -rf "$work"; rm -f /dev/shm/$ring*' EXIT
cd "$work"
pass=0 fail=0
ok() { if "${@:2}"; then pass=$((pass + 1)); echo "ok $1"; else echo "FAIL $1"; fail=$((fail + 1)); fi; }
small() { riscv64-linux-gnu-gcc -nostdlib -static -O1 -Wl,--no-relax -o small "$here/small.c" || exit 1; }
insncount() { sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions.*/\1/p' "$1"; }
traced() { "$kt" stats "$1" | awk '$1 == "insns" {print $2}'; }

case $part in
invalidate)
  riscv64-linux-gnu-gcc -static -O1 -o smc "$here/smc.c" || exit 1
  $emu --trace=invalidate,translate --trace-out=s.trace ./smc >out 2>err
  ok "smc: runs its rewritten code, also through a second (shared) mapping" \
    [ "$(sed -n '1p;3,$p' out | tr '\n' ' ')" = "1 2 3 4 5 " ]
  for mode in --tier=0 --tier=1 "--tier=auto --jit-threshold=1"; do
    ok "smc $mode: the same" [ "$($emu $mode ./smc 2>&1 | sed -n '1p;3,$p' | tr '\n' ' ')" = "1 2 3 4 5 " ]
  done
  "$kt" dump s.trace | grep ' invalidate ' >inv
  page=$(grep 'reason=1$' inv | head -1 | sed 's/.*\[\(0x[0-9a-f]*\), .*/\1/')
  ok "a write to translated code: reason 1 over one page ($(grep -c 'reason=1$' inv) records)" \
    bash -c "grep -q '\[$page, $(printf '0x%x' $((page + 4096))))' inv"
  ok "munmap of the code: reason 2 over its page" grep -q "\[$page, .* reason=2$" inv
  # the flushes drop what is in executable shared mappings, nothing else
  x=$(sed -n 's/^x=//p' out)
  ok "the flushes after writes through the other view: reason 5 over the shared page (x=$x)" \
    [ "$(grep -c "\[$x, $(printf '0x%x' $((x + 4096)))) reason=5$" inv)" -ge 2 ]
  ok "no flush of everything, no flush over the private page" \
    [ "$(grep 'reason=5$' inv | grep -vc "\[$x, ")" -eq 0 ]
  ;;
insn)
  riscv64-linux-gnu-gcc -static -O2 -o hello "$guests/hello.c" || exit 1
  for mode in --tier=0 --tier=1 --tier=auto --single-step "--tier=auto --no-chain"; do
    $emu $mode --tool=insncount --trace=insn --trace-out=h.trace ./hello >out 2>err
    ok "hello $mode: exit 3, output" [ $? -eq 3 -a "$(cat out)" = "hello, world" ]
    ok "hello $mode: insn events $(traced h.trace) = insncount $(insncount err)" [ "$(traced h.trace)" = "$(insncount err)" ]
  done
  # bad options: one line, exit 1, before the guest runs
  for bad in --trace=bogus --trace= "--trace=insn --trace-out=/nonexistent/dir/t" \
             "--trace=insn --trace-ring=3" --trace-out=x.trace --trace-drop; do
    $emu $bad ./hello >out 2>err
    rc=$?
    ok "refused: $bad ($(head -1 err))" [ $rc = 1 -a ! -s out -a "$(wc -l <err)" = 1 ]
  done
  # loads that fault mid-block (PARTIAL records), in every tier
  riscv64-linux-gnu-gcc -static -O2 -o fault "$here/fault.c" || exit 1
  for mode in --tier=0 --tier=1 "--tier=auto --jit-threshold=5"; do
    $emu $mode --tool=insncount --trace=insn --trace-out=f.trace ./fault >out 2>err
    ok "fault $mode: four faults cut blocks short" bash -c "$kt stats f.trace | grep -Eq '^partial +4$'"
    ok "fault $mode: insn events $(traced f.trace) = insncount $(insncount err)" [ "$(traced f.trace)" = "$(insncount err)" ]
  done
  # a loop hot enough for the JIT's later tiers
  riscv64-linux-gnu-gcc -static -O2 -o loop "$here/loop.c" || exit 1
  $emu --tool=insncount --trace=insn --trace-out=l.trace ./loop 300000 >out 2>err
  ok "hot loop: insn events $(traced l.trace) = insncount $(insncount err)" [ "$(traced l.trace)" = "$(insncount err)" ]
  ;;
seq)
  small
  command -v qemu-riscv64 >/dev/null || exit 77
  qemu-riscv64 -singlestep -d exec,nochain -D q.log ./small; qrc=$?
  sed -E 's/.*\[[0-9a-f]+\/0*([0-9a-f]+)\/.*/0x\1/' q.log >q.pcs
  for mode in --tier=0 --tier=1 --tier=auto; do
    $emu $mode --trace=insn --trace-out=s.trace ./small; krc=$?
    "$kt" insns s.trace | awk '{print $2}' >k.pcs
    ok "small $mode: exit status $krc = qemu's $qrc" [ $krc = $qrc ]
    ok "small $mode: $(wc -l <k.pcs) pcs, the same sequence as qemu's $(wc -l <q.pcs) single steps" cmp -s q.pcs k.pcs
  done
  # branch events: each edge's target is where the single steps go next, and the next block's pc
  $emu --trace=insn,branch --trace-out=b.trace ./small
  "$kt" dump b.trace >dump.txt
  ok "branch events agree with the single steps and the blocks" python3 <<'EOF'
import re
seq = [int(l, 16) for l in open("q.pcs")]
nxt = {}
for a, b in zip(seq, seq[1:]):
    nxt.setdefault(a, set()).add(b)
edges, pending, kinds = 0, None, set()
for line in open("dump.txt"):
    m = re.match(r"\d+ branch 0x([0-9a-f]+) -> 0x([0-9a-f]+) kind=(\d)", line)
    if m:
        f, t = int(m.group(1), 16), int(m.group(2), 16)
        assert t in nxt.get(f, ()), line
        pending, edges = t, edges + 1
        kinds.add(int(m.group(3)))
        continue
    m = re.match(r"\d+ block pc=0x([0-9a-f]+)", line)
    if m:
        assert pending is None or int(m.group(1), 16) == pending, line
        pending = None
assert edges > 100 and {0, 1, 3} <= kinds, (edges, kinds)  # calls, returns, conditional branches
EOF
  bid=$(riscv64-linux-gnu-readelf -n small | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
  ok "the header names the executable's build id ($bid)" bash -c "[ -n '$bid' ] && grep -qx '# build id $bid' dump.txt"
  ;;
mem)
  small
  sink=$(riscv64-linux-gnu-nm small | awk '$3 == "sink" {print $1}')
  $emu --trace=insn,mem --trace-out=m.trace ./small
  "$kt" dump m.trace >dump.txt
  ok "mem: the stores and loads of sink[] carry small.c's values" python3 - "$sink" <<'EOF'
import re, sys
sink = int(sys.argv[1], 16)
mem = [0] * 16
stores = loads = 0
for line in open("dump.txt"):
    m = re.match(r"\d+ mem pc=0x[0-9a-f]+ (store|load) (\d+) @0x([0-9a-f]+) = 0x([0-9a-f]+)$", line)
    if not m or not sink <= int(m.group(3), 16) < sink + 128:
        continue
    kind, size, addr, value = m.group(1), int(m.group(2)), int(m.group(3), 16), int(m.group(4), 16)
    k = (addr - sink) // 8
    assert size == 8, line
    if kind == "store":
        assert value == 0x1000 * stores + 0xabc and k == stores % 16, (line, stores)
        mem[k] = value
        stores += 1
    else:
        assert value == mem[k], (line, mem[k])
        loads += 1
assert stores == 40 and loads == 40, (stores, loads)
EOF
  ;;
regs)
  small
  riscv64-linux-gnu-gcc -nostdlib -static -O1 -Wl,--no-relax -o sig "$here/sig.c" || exit 1
  command -v qemu-riscv64 >/dev/null && command -v gdb-multiarch >/dev/null || exit 77
  for prog in small sig; do
  port=$((20000 + ($$ + RANDOM) % 20000))
  qemu-riscv64 -g $port ./$prog &
  sleep 0.5
  gdb-multiarch -nx -batch -ex "target remote :$port" -ex 'info registers sp' -ex 'handle SIGUSR1 nostop noprint pass' -ex 'break kit_small_exit' -ex c \
    -ex 'info all-registers' ./$prog >gdb.txt 2>&1
  wait
  $emu --trace=insn,regs --trace-out=r.trace ./$prog
  "$kt" dump r.trace >dump.txt
  ok "regs $prog: the replayed register file = gdb's at the exit ecall (sp relative to its start)" python3 - $prog <<'EOF'
import re, sys
abi = "ra sp gp tp t0 t1 t2 fp s1 a0 a1 a2 a3 a4 a5 a6 a7 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6".split()
gdb, sp0 = {}, None
for line in open("gdb.txt"):
    m = re.match(r"(\w+)\s+(0x[0-9a-f]+)", line)
    if m and m.group(1) in abi:
        if m.group(1) == "sp" and sp0 is None:
            sp0 = int(m.group(2), 16)
        else:
            gdb[m.group(1)] = int(m.group(2), 16)
fgdb = {}
for line in open("gdb.txt"):  # "fa0  {float = ..., double = ...}  (raw 0x...)"
    m = re.match(r"(f[tsa]\d+)\s.*\(raw (0x[0-9a-f]+)\)", line)
    if m:
        fgdb[m.group(1)] = int(m.group(2), 16)
assert len(gdb) == 31 and sp0 is not None and len(fgdb) == 32, (gdb, fgdb)
regs, first = {}, {}
for line in open("dump.txt"):
    m = re.match(r"\d+ regs pc=0x[0-9a-f]+ r(\d+) = 0x([0-9a-f]+)$", line)
    if m:
        n, v = int(m.group(1)), int(m.group(2), 16)
        first.setdefault(n, v)
        regs[n] = v
assert len(first) >= 32, "no initial state"
kit = {abi[i - 1]: regs[i] for i in range(1, 32)}
kit["sp"] -= first[2]
gdb["sp"] -= sp0
bad = {r: (hex(kit[r]), hex(gdb[r])) for r in abi if kit[r] != gdb[r]}
fabi = "ft0 ft1 ft2 ft3 ft4 ft5 ft6 ft7 fs0 fs1 fa0 fa1 fa2 fa3 fa4 fa5 fa6 fa7 fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9 fs10 fs11 ft8 ft9 ft10 ft11".split()
bad.update({r: (hex(regs[32 + i]), hex(fgdb[r])) for i, r in enumerate(fabi) if regs[32 + i] != fgdb[r]})
assert not bad, bad
assert sys.argv[1] != "small" or any(regs[32 + i] for i in range(32)), "no floating-point register was written"
EOF
  done
  ;;
strace)
  riscv64-linux-gnu-gcc -O2 -o hello_dyn "$guests/hello.c" || exit 1
  $emu -L /usr/riscv64-linux-gnu --strace --trace=syscall,mmap --trace-out=d.trace ./hello_dyn >out 2>strace.txt
  ok "dynamic hello: exit 3" [ $? -eq 3 ]
  "$kt" dump d.trace >dump.txt
  ok "syscall events = --strace's calls, results, and mmap events its mmap/munmap/mprotect lines" python3 <<'EOF'
import errno, re
flags = {"MAP_SHARED": 1, "MAP_PRIVATE": 2, "MAP_FIXED": 0x10, "MAP_ANONYMOUS": 0x20, "MAP_DENYWRITE": 0x800,
         "MAP_NORESERVE": 0x4000, "MAP_STACK": 0x20000, "MAP_POPULATE": 0x8000}
prots = {"PROT_NONE": 0, "PROT_READ": 1, "PROT_WRITE": 2, "PROT_EXEC": 4}
bits = lambda s, t: sum(t[x] for x in s.split("|"))
page = lambda n: (n + 4095) & ~4095
st = [l for l in open("strace.txt") if re.match(r"[a-z_0-9]+\(", l)]
tr = [l.split(" ", 2)[2] for l in open("dump.txt") if " syscall " in l]
assert len(st) == len(tr) and len(st) > 20, (len(st), len(tr))
for s, t in zip(st, tr):
    name = s.split("(")[0]
    assert t.startswith(name + "("), (s, t)
    r = s.rsplit(" = ", 1)[1].split()
    if r[0] == "-1" and len(r) > 1 and r[1].startswith("E"):
        r[0] = str(-getattr(errno, r[1]))
    if r[0] != "?":
        assert int(r[0], 0) == int(t.rsplit(" = ", 1)[1]), (s, t)
mm = [l.split()[2:] for l in open("dump.txt") if " mmap " in l]
def event(addr, length, prot=None, fl=None):
    for e in mm:
        a, ln = e[0].split("+")
        if int(a, 16) == addr and int(ln, 16) == page(length) and (prot is None or e[1] == "prot=%d" % prot) and \
           (fl is None or int(e[2][6:], 16) == fl):
            return e
    raise AssertionError("no mmap event for 0x%x+0x%x prot %s flags %s" % (addr, length, prot, fl))
files = 0
for s in st:
    m = re.match(r"mmap\((\w+), (\d+), ([A-Z_|]+), ([A-Z_|]+), (-?\d+), (\w+)\) = (0x[0-9a-f]+)", s)
    if m:
        e = event(int(m.group(7), 16), int(m.group(2)), bits(m.group(3), prots), bits(m.group(4), flags))
        if m.group(5) != "-1":
            assert e[4].startswith("/") and int(e[3][7:], 16) == int(m.group(6), 0), (s, e)
            files += 1
    m = re.match(r"munmap\((0x[0-9a-f]+), (\d+)\) = 0", s)
    if m: event(int(m.group(1), 16), int(m.group(2)), -1)
    m = re.match(r"mprotect\((0x[0-9a-f]+), (\d+), ([A-Z_|]+)\) = 0", s)
    if m: event(int(m.group(1), 16), int(m.group(2)), bits(m.group(3), prots), 0x80000000)
assert files >= 3, files
paths = " ".join(e[4] for e in mm if len(e) > 4)
assert "libc.so.6" in paths and "ld-linux-riscv64-lp64d.so.1" in paths and "hello_dyn" in paths, paths
EOF
  ;;
ring)
  riscv64-linux-gnu-gcc -static -O2 -o tier2 "$guests/tier2.c" || exit 1
  riscv64-linux-gnu-gcc -static -O2 -o hello "$guests/hello.c" || exit 1
  # lossless: a consumer that naps every 2000 records still gets every instruction
  "$kt" stats --wait 10000 shm:$ring >ring.txt &
  reader=$!
  $emu --tool=insncount --trace=insn,syscall --trace-out=shm:$ring --trace-ring=1048576 ./hello >out 2>err
  wait $reader
  ok "ring: every instruction arrives ($(awk '$1 == "insns" {print $2}' ring.txt) = $(insncount err))" \
    [ "$(awk '$1 == "insns" {print $2}' ring.txt)" = "$(insncount err)" ]
  # a slow consumer (a 4 ms nap every 1000 records) of 1 MiB rings and a guest of about 0.9 M records
  riscv64-linux-gnu-gcc -static -O2 -o loop "$here/loop.c" || exit 1
  $emu --tier=0 --trace=insn,syscall --trace-out=all.trace ./loop 300000 >out 2>err
  all=$("$kt" stats all.trace | awk '/^[a-z]/ && $1 != "insns" && NF == 2 {s += $2} END {print s}')
  "$slow" shm:$ring-slow 1000 4000 >slow.txt &
  reader=$!
  $emu --tier=0 --trace=insn,syscall --trace-out=shm:$ring-slow --trace-ring=1048576 --trace-drop ./loop 300000 >out 2>err
  wait $reader
  read -r _ got _ lost _ < slow.txt
  ok "drop: received $got + lost $lost = the $all records of the same run to a file, lost > 0" \
    [ $((got + lost)) = "$all" -a "$lost" -gt 0 ]
  "$slow" shm:$ring-slow2 1000 4000 >slow2.txt &
  reader=$!
  $emu --tier=0 --trace=insn,syscall --trace-out=shm:$ring-slow2 --trace-ring=1048576 ./loop 300000 >out 2>err
  wait $reader
  read -r _ got _ lost _ < slow2.txt
  ok "lossless under a slow consumer: received $got = $all, lost $lost" [ "$got" = "$all" -a "$lost" = 0 ]
  ;;
probe)
  command -v gdb-multiarch >/dev/null || exit 77
  for opt in -O0 -O2; do
    riscv64-linux-gnu-gcc -static -g $opt -o p$opt "$here/probe_prog.c" || exit 1
    sq=$(grep -n PROBE_LINE_SQUARE "$here/probe_prog.c" | cut -d: -f1)
    xl=$(grep -n PROBE_LINE_XOR "$here/probe_prog.c" | cut -d: -f1)
    # the second instruction of work, as objdump decodes it
    off=$(riscv64-linux-gnu-objdump -d p$opt | awk '/<work>:$/ {getline; getline; sub(":", "", $1); print $1; exit}')
    base=$(riscv64-linux-gnu-nm p$opt | awk '$3 == "work" {print $1}')
    woff=$(printf '0x%x' $((0x$off - 0x$base)))
    specs=(work "work+$woff" square_plus "probe_prog.c:$sq" "probe_prog.c:$xl")
    args=()
    for s in "${specs[@]}"; do args+=(--probe "$s"); done
    $emu --tool=insncount "./p$opt" >plain.out 2>plain.err
    $emu --tool=insncount "${args[@]}" --trace=insn --trace-out=p.trace "./p$opt" >out 2>err
    ok "$opt: output unchanged" cmp -s plain.out out
    ok "$opt: instruction count unchanged" [ "$(insncount plain.err)" = "$(insncount err)" ]
    "$kt" pcs p.trace >pcs.txt
    "$kt" dump p.trace >dump.txt
    "$kt" stats p.trace >stats.txt
    idx=0
    for s in "${specs[@]}"; do
      recs=$(grep -c "^[0-9]* probe $idx $s pc=0x" dump.txt)
      idx=$((idx + 1))
      hits=$(sed -n "s/^kit-emu: probe $s: \([0-9]*\) hits\{0,1\}$/\1/p" err)
      addrs=$("$resolve" "./p$opt" "$s" | sed -E 's/^[^>]*-> [a-z]+ ?//')
      want=0
      for a in $addrs; do want=$((want + $(awk -v a=$a '$1 == a {print $2}' pcs.txt | grep . || echo 0))); done
      st=$(awk -v s="$s" '$1 == s && $3 == "hits" {print $2}' stats.txt)
      ok "$opt: probe $s at [$addrs]: $hits hits = the trace's $want, $recs probe records, kit-trace stats' $st" \
        [ -n "$hits" -a "$hits" = "$want" -a "$want" -gt 0 -a "$recs" = "$hits" -a "$st" = "$hits" ]
    done
    sed -n 's/^kit-emu: probe square_plus: \([0-9]*\) hits$/\1/p' err >"sq$opt"
    $emu --probe work --probe 'work%return' --probe 'main%return' "./p$opt" >out 2>err
    ok "$opt: work%return: as many returns as calls, main%return: 1" bash -c \
      "grep -qx 'kit-emu: probe work%return: 51 hits' err && grep -qx 'kit-emu: probe work: 51 hits' err && grep -qx 'kit-emu: probe main%return: 1 hit' err"
    for f in work square_plus; do
      g=$(gdb-multiarch -nx -batch -ex "break $f" -ex 'info breakpoints' "./p$opt" 2>&1 | grep -oE '0x[0-9a-f]{16}' |
        sed -E 's/^0x0*/0x/' | sort -u | tr '\n' ' ' | sed 's/ $//')
      k=$("$resolve" "./p$opt" "$f" | sed -E 's/^[^>]*-> [a-z]+ ?//' | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//')
      ok "$opt: probe $f where gdb's break $f is ($k)" [ "$k" = "$g" ]
    done
    [ $opt = -O2 ] && ok "-O2: square_plus has inlined copies" [ "$("$resolve" ./p-O2 square_plus | wc -w)" -gt 4 ]
  done
  ok "square_plus: as many hits inlined at -O2 ($(cat sq-O2)) as calls at -O0 ($(cat sq-O0))" [ "$(cat sq-O2)" = "$(cat sq-O0)" ]
  # a dynamic PIE: the probes move with the executable's load bias
  riscv64-linux-gnu-gcc -g -O2 -o pdyn "$here/probe_prog.c" || exit 1
  $emu -L /usr/riscv64-linux-gnu --probe square_plus --probe 'work%return' ./pdyn >out 2>err
  ok "dynamic PIE -O2: square_plus $(cat sq-O0) hits, work%return 51" bash -c \
    "grep -qx 'kit-emu: probe square_plus: $(cat sq-O0) hits' err && grep -qx 'kit-emu: probe work%return: 51 hits' err"
  $emu --probe-list work ./p-O2 >list.txt 2>err
  ok "--probe-list: every instruction of work as objdump decodes it" [ "$(grep -c '^  +0x' list.txt)" = \
    "$(riscv64-linux-gnu-objdump -d p-O2 | awk '/<work>:$/ {on = 1; next} on && /^$/ {exit} on {n++} END {print n}')" ]
  ok "--probe-list: with file:line, and the two inlined calls of square_plus" bash -c \
    "grep -q '+0x0 .*probe_prog.c:[0-9]' list.txt && [ \$(grep -c '^  square_plus, called at line [0-9]*: 0x' list.txt) = 2 ]"
  $emu --probe-list nosuchfn ./p-O2 >out 2>err
  rc=$?
  ok "--probe-list nosuchfn: refused, exit 1" [ $rc = 1 -a "$(wc -l <err)" = 1 ]
  $emu --probe 'work:print a0,sp' ./p-O0 >out 2>err
  ok "probe :print: a line per hit with the registers" bash -c "[ \$(grep -c '^kit-emu: probe work:print a0,sp: hit at 0x[0-9a-f]* thread [0-9]*: a0=0x[0-9a-f]* sp=0x' err) = 51 ]"
  $emu --trace=insn --trace-out=refused.trace --probe nosuchfn ./p-O2 >out 2>err
  ok "a refused probe leaves no trace behind" [ ! -e refused.trace ]
  for bad in nosuchfn work+0x100000 work+1 probe_prog.c:100000 nosuchfile.c:3 "work:print nosuchreg" "1abc" \
             "nosuchfn%return"; do
    $emu --probe "$bad" ./p-O2 >out 2>err
    rc=$?
    ok "refused before the guest starts: '$bad' ($(cat err))" [ $rc = 1 -a ! -s out -a "$(wc -l <err)" = 1 ]
    grep -qF -- "${bad%%[:%]*}" err || { echo "FAIL the message names '$bad'"; fail=$((fail + 1)); }
  done
  ;;
chrome)
  riscv64-linux-gnu-gcc -static -O2 -o tier2 "$guests/tier2.c" || exit 1
  $emu --trace=syscall,mmap,signal,thread --trace-out=c.trace --probe=mix ./tier2 >out 2>err
  "$kt" export --chrome c.trace >c.json
  ok "chrome: Trace Event Format with syscalls, signals, mappings, threads" python3 <<'EOF'
import json
d = json.load(open("c.json"))
ev = d["traceEvents"]
assert all(all(k in e for k in ("ph", "ts", "pid", "tid", "name")) for e in ev), [e for e in ev if "ts" not in e][:3]
cats = {e.get("cat") for e in ev}
assert {"syscall", "signal", "mmap", "thread"} <= cats, cats
assert any(e["name"] == "signal 11" for e in ev) and any(e["name"] == "signal 14" for e in ev)
assert any(e.get("cat") == "probe" and e["name"] == "mix" for e in ev)
calls = [e for e in ev if e.get("cat") == "syscall"]
assert all(e["ph"] == "X" and e["dur"] >= 0 for e in calls) and any(e["name"] == "write" for e in calls), calls[:3]
EOF
  ;;
fuzz)
  # kit-trace on damaged streams of every kind: a message and exit 1, never a crash
  riscv64-linux-gnu-gcc -static -O2 -o hello "$guests/hello.c" || exit 1
  $emu --trace=all --probe=main --trace-out=f.trace ./hello >out 2>err
  ok "kit-trace survives 60 damaged copies of a trace of every kind" python3 - "$kt" <<'EOF'
import random, subprocess, sys
data = open("f.trace", "rb").read()
random.seed(20)
for it in range(60):
    b = bytearray(data)
    for _ in range(random.randint(1, 24)):
        b[random.randrange(len(b))] = random.randrange(256)
    if it % 3 == 0:
        b = b[:random.randrange(len(b))]
    open("bad.trace", "wb").write(b)
    for cmd in (["dump"], ["stats"], ["pcs"], ["insns"], ["export", "--chrome"]):
        r = subprocess.run([sys.argv[1]] + cmd + ["bad.trace"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20)
        assert 0 <= r.returncode <= 1, (it, cmd, r.returncode, r.stderr[:200])
        assert r.returncode == 0 or r.stderr.startswith(b"kit-trace: "), (it, cmd, r.stderr[:200])
EOF
  ;;
*) echo "unknown part $part"; exit 2 ;;
esac
echo "$part: $pass passed, $fail failed"
[ $fail -eq 0 ]
