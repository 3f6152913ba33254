#!/usr/bin/env bash
# tests/peer/packages.sh — Debian packages' own test suites, built by gcc,
# clang-16 and kitcc (and with -fsanitize=address,undefined) and cross-built
# for riscv64 to run under qemu-riscv64, kit-emu and kit-emu --sanitize=address.
# Prints a Markdown table per package and one verdict line per acceptance point.
#   tests/peer/packages.sh [--kitcc PATH] [--emu PATH] [--pkgs gzip,expat,...]
#       [--modes host,asan,cross|CONFIG,...] [--out DIR] [--quick] [--report-only]
#       [--timeout SECONDS] [--no-run]
# Sources come from apt-get source (fetch-source.sh); builds are cached under
# ${KIT_CACHE:-~/.cache/kit}/packages, keyed by source, compiler and flags.
# Exit 0 when every verdict holds, 1 when one fails (0 with --report-only),
# 77 when no package's source can be fetched.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kitcc=$root/build/bin/kitcc
emu=$root/build/bin/kit-emu
pkgs=gzip,expat,jansson,pcre2,libyaml,lz4,libzstd,xz-utils,mawk
modes=host,asan,cross
out=""
quick=0
report_only=0
norun=0
tmo=3600
usage() { sed -n '6,8p' "$0" | sed 's/^# *//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --kitcc) kitcc=$2; shift 2 ;;
    --emu) emu=$2; shift 2 ;;
    --pkgs) pkgs=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) tmo=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --report-only) report_only=1; shift ;;
    --no-run) norun=1; shift ;;
    -h|--help) usage ;;
    *) echo "packages.sh: unknown argument $1" >&2; usage ;;
  esac
done
abspath() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
kitcc=$(abspath "$kitcc"); emu=$(abspath "$emu")
cache=${KIT_CACHE:-$HOME/.cache/kit}/packages
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/kit-packages.XXXXXX")
mkdir -p "$out" "$cache"; out=$(cd "$out" && pwd)
sysroot=/usr/riscv64-linux-gnu
host_cols="gcc clang kitcc"; asan_cols="clang-asan kitcc-asan"; cross_cols="qemu kit-emu kit-emu-asan"
cols=""
for m in ${modes//,/ }; do
  case "$m" in
    host) cols="$cols $host_cols" ;; asan) cols="$cols $asan_cols" ;; cross) cols="$cols $cross_cols" ;;
    gcc|clang|kitcc|clang-asan|kitcc-asan|qemu|kit-emu|kit-emu-asan) cols="$cols $m" ;;
    *) echo "packages.sh: unknown mode $m" >&2; exit 2 ;;
  esac
done
# Debian's flags; -ffile-prefix-map names the current directory, so it is dropped
debflags() { dpkg-buildflags --get "$1" | sed 's/-ffile-prefix-map=[^ ]*//; s/  */ /g; s/^ //; s/ $//'; }
# (KIT_PKG_CFLAGS, KIT_PKG_CPPFLAGS, KIT_PKG_LDFLAGS replace them when set)
CFLAGS_DEB=${KIT_PKG_CFLAGS-$(debflags CFLAGS)}
CPPFLAGS_DEB=${KIT_PKG_CPPFLAGS-$(debflags CPPFLAGS)}
LDFLAGS_DEB=${KIT_PKG_LDFLAGS-$(debflags LDFLAGS)}
SAN="-fsanitize=address,undefined"

# ---------------------------------------------------------------- recipes
# recipe PKG sets: kind (autotools: configure && make && make check; make: the
# package's own Makefile in a copy of the tree), sub (the directory holding
# configure.ac), reconf (1: autoreconf -fi first), conf / cross_conf (configure
# arguments; cross_conf only for riscv64), checkdir and checkvars (where and
# with which make variables `make check` runs), counts (how a finished run is
# counted), and for kind=make buildtargets (make arguments) and tests (one
# make target per test).
recipe() {
  kind=autotools sub="" conf="" cross_conf="" reconf=0 checkdir="." checkvars=()
  tests="" buildtargets="" counts=automake_counts
  case "$1" in
    gzip) conf="CONFIG_SHELL=/bin/sh GREP=grep" ;;
    expat) sub=expat reconf=1 conf="--without-docbook" checkdir=tests
           # runtestspp is C++: only the C suite, whose own check count is used
           checkvars=(TESTS=runtests check_PROGRAMS=runtests) counts=expat_counts ;;
    jansson) reconf=1 checkvars=(VERBOSE=1) counts=jansson_counts ;;
    pcre2) conf="--enable-pcre2-16 --enable-pcre2-32 --disable-pcre2grep-callout --enable-jit"
           cross_conf="--disable-jit" counts=pcre2_counts ;;
    libyaml) reconf=1 ;;
    xz-utils) conf="--enable-threads" ;;
    mawk) counts=mawk_counts ;;
    lz4) kind=make buildtargets="lib lz4 && make -C tests datagen unlz4 lz4cat lz4c frametest fuzzer decompress-partial decompress-partial-usingDict"
         tests="test-lz4-basic test-lz4-multiple test-lz4-multiple-legacy test-lz4-frame-concatenation
                test-lz4-testmode test-lz4-contentSize test-lz4-dict test-lz4-sparse test-lz4-skippable
                test-lz4c test-frametest test-fuzzer test-decompress-partial"
         checkvars=(FUZZER_TIME="-s2026 -i256")
         # --quick: the tests without 100+ MB of data
         if [ $quick -eq 1 ]; then tests="test-lz4-multiple test-lz4-frame-concatenation test-lz4-testmode test-lz4-skippable test-frametest test-decompress-partial"; fi
         ;;
    libzstd) kind=make buildtargets="-C tests zstd datagen fuzzer zstreamtest invalidDictionaries legacy decodecorpus poolTests"
             tests="test-zstd test-fuzzer test-zstream test-invalidDictionaries test-legacy test-decodecorpus test-pool"
             checkvars=(ZSTDRTTEST= FUZZERTEST="-s2026 -i300" ZSTREAM_TESTTIME="-s2026 -i300" DECODECORPUS_TESTTIME="-s2026 -n200") ;;
    *) echo "packages.sh: no recipe for $1" >&2; return 1 ;;
  esac
}

# build-config NAME -> cc, cflags, ldflags, host (configure --host)
buildconf() {
  host="" cflags="$CFLAGS_DEB" cppflags="$CPPFLAGS_DEB" ldflags="$LDFLAGS_DEB"
  case "$1" in
    gcc) cc=gcc ;;
    clang) cc=clang-16 ;;
    kitcc) cc=$kitcc ;;
    clang-asan) cc="clang-16 $SAN" ;;
    kitcc-asan) cc="$kitcc $SAN" ;;
    rv64) cc=riscv64-linux-gnu-gcc host=riscv64-linux-gnu ;;
  esac
}
buildof() { case "$1" in qemu|kit-emu|kit-emu-asan) echo rv64 ;; *) echo "$1" ;; esac; }

# what identifies a compiler: its version text and, for kitcc, its bytes and runtime
ccid() {
  local c=${1%% *}
  if [ "$c" = "$kitcc" ]; then
    cat "$c" "$(dirname "$c")"/../lib/libkit_*.a 2>/dev/null | sha1sum | cut -c1-12
  else
    "$c" --version 2>/dev/null | head -1
  fi
}

# ---------------------------------------------------------------- building
# the riscv64 executables of a build tree become shell wrappers running
# "$KIT_PKG_EMU -0 NAME NAME.rv64 ARGS" (symlinks to them get a NAME.rv64 link
# too), so every test driver runs them under the emulator named at test time,
# and the program sees the argv[0] it was run as (gzip's tests run it as gunzip)
wrap_cross() {
  local d=$1 f l t
  while IFS= read -r f; do
    file -b "$f" | grep -q 'RISC-V.*executable\|executable.*RISC-V' || continue
    mv "$f" "$f.rv64"
    printf '#!/bin/sh\nexec ${KIT_PKG_EMU:?} -0 "$0" "$0.rv64" "$@"\n' >"$f"
    chmod +x "$f"
  done < <(find "$d" -type f -perm -u+x ! -name '*.rv64' ! -name '*.sh' ! -name '*.so*' | xargs -r file | grep 'ELF.*RISC-V' | cut -d: -f1)
  while IFS= read -r l; do
    t=$(readlink "$l")
    [ -e "$(dirname "$l")/$t.rv64" ] && ln -sf "$t.rv64" "$l.rv64"
  done < <(find "$d" -type l ! -name '*.rv64')
}

# the first compiler error of a failed build: when configure stopped, the
# first error of the last check in config.log (the probes before it fail on purpose)
first_build_error() {
  local b=$1 e
  e=$(grep -m1 -E '(^|: )error:|Error [0-9]|No rule to make' "$b/build.log")
  if grep -q '^configure: error:' "$b/build.log"; then
    local cl; cl=$(find "$b/tree" -maxdepth 2 -name config.log | head -1)
    e="$(grep -m1 '^configure: error:' "$b/build.log" | cut -c1-100)"
    [ -n "$cl" ] && e="$e; $(awk '/^configure:[0-9]+: checking/ { buf = "" } / error: / && buf == "" { buf = $0 } /Cache variables/ { exit } END { print buf }' "$cl")"
  fi
  echo "${e:-$(tail -1 "$b/build.log")}" | cut -c1-240
}

# build PKG SRC BUILD-CONFIG -> prints the build directory; build.status says ok or why not
build() {
  local pkg=$1 src=$2 bc=$3
  buildconf "$bc"
  local key; key=$(printf '%s\n' "$src" "$(cat "$src/debian/changelog" | head -1)" "$cc" "$(ccid "$cc")" \
                   "$cflags" "$cppflags" "$ldflags" "$(declare -f recipe build)" | sha1sum | cut -c1-12)
  local b=$cache/$pkg/$bc-$key
  echo "$b"
  mkdir -p "$cache/$pkg"
  exec 9>"$b.lock"; flock 9   # one build (or test run) of a tree at a time
  [ -f "$b/build.status" ] && return 0
  rm -rf "$b"; mkdir -p "$b"
  local log=$b/build.log st=ok
  (
    set -e
    export CC="$cc" CFLAGS="$cflags" CPPFLAGS="$cppflags" LDFLAGS="$ldflags"
    if [ $kind = autotools ]; then
      local s=$src/$sub
      if [ $reconf -eq 1 ]; then   # no configure shipped: generate it once in a copy of the source
        s=$cache/$pkg/src-reconf
        if [ ! -f "$s/configure" ]; then
          rm -rf "$s"; cp -a "$src/$sub" "$s"; (cd "$s" && autoreconf -fi)
        fi
      fi
      mkdir -p "$b/tree"; cd "$b/tree"
      if [ -n "$host" ]; then
        # shellcheck disable=SC2086
        eval "\"$s/configure\" --host=$host --disable-shared $conf $cross_conf"
      else
        eval "\"$s/configure\" $conf"
      fi
      # a Debian patch to a .texi must not need makeinfo; a cross build that
      # runs what it built (gzip compresses its doc) does so under qemu
      local chk=(make -j2 -C "$checkdir" check MAKEINFO=true "${checkvars[@]}" TESTS=)   # the test programs, no test run
      if [ -n "$host" ]; then
        export KIT_PKG_EMU="qemu-riscv64 -L $sysroot"
        make -j2 MAKEINFO=true || { wrap_cross "$b/tree"; make -j2 MAKEINFO=true; }
        wrap_cross "$b/tree"
        "${chk[@]}" || { wrap_cross "$b/tree"; "${chk[@]}"; }
      else
        make -j2 MAKEINFO=true
        "${chk[@]}"
      fi
    else
      cp -a "$src" "$b/tree"; cd "$b/tree"
      eval "make -j2 $buildtargets"
    fi
  ) >"$log" 2>&1 || st="build failed: $(first_build_error "$b")"
  [ "$st" = ok ] && [ -n "$host" ] && wrap_cross "$b/tree"
  echo "$st" >"$b/build.status"
}

# ---------------------------------------------------------------- counting
# each prints "PASSED TOTAL FIRST-FAILURE" for a finished run in tree $1, log dir $2
automake_counts() {
  local pass=0 total=0 first="" f
  for f in $(find "$1" -name test-suite.log | sort); do
    # the summary's lines are the first (a test's own log, copied below, may have "# TOTAL:" lines too)
    pass=$((pass + $(sed -n 's/^# PASS: *//p' "$f" | head -n1) + $(sed -n 's/^# XFAIL: *//p' "$f" | head -n1)))
    total=$((total + $(sed -n 's/^# TOTAL: *//p' "$f" | head -n1) - $(sed -n 's/^# SKIP: *//p' "$f" | head -n1)))
    [ -n "$first" ] || first=$(grep -m1 -E '^(FAIL|ERROR|XPASS): ' "$f")
  done
  echo "$pass $total ${first:-}"
}
# expat's runtests (minicheck) counts its own checks: "100%: Checks: 245, Failed: 0"
expat_counts() {
  local l; l=$(grep -h -m1 -E 'Checks: [0-9]+, Failed: [0-9]+' "$1"/tests/runtests.log 2>/dev/null)
  [ -n "$l" ] || { automake_counts "$1"; return; }
  local n f; n=$(sed 's/.*Checks: \([0-9]*\).*/\1/' <<<"$l"); f=$(sed 's/.*Failed: \([0-9]*\).*/\1/' <<<"$l")
  echo "$((n - f)) $n $(grep -m1 -E 'FAIL|ERROR' "$1"/tests/runtests.log | cut -c1-160)"
}
# jansson's run-suites with VERBOSE=1: one "NAME... ok|FAILED|skipped" line per test
jansson_counts() {
  local l=$1/test/run-suites.log
  [ -f "$l" ] || { automake_counts "$1"; return; }
  echo "$(grep -c '\.\.\. ok$' "$l") $(grep -cE '\.\.\. (ok|FAILED)$' "$l") $(grep -m1 -B1 'FAILED$' "$l" | tr '\n' ' ' | cut -c1-160)"
}
# mawk's make check: mawktest prints "GROUP OK" or "GROUP had N failures"
# per group of checks (its last line, "tested PROG OK", sums them up), then
# fpe_test "results consistent" when its floating-point checks agree
mawk_counts() {
  local l=$2/test.log pass fail fpe=0
  pass=$(grep -E ' OK$' "$l" | grep -vc '^tested ')
  fail=$(grep -cE ' had (one|[0-9]+) failures?$' "$l")
  grep -q '^results consistent' "$l" && fpe=1
  echo "$((pass + fpe)) $((pass + fail + 1)) $(grep -m1 -E ' had (one|[0-9]+) failures?$|inconsistent' "$l")"
}
# pcre2's RunTest runs ~80 pcre2test scripts (x 8/16/32-bit, with and
# without JIT) and stops at the first failure: each "  OK" line counts as a
# test, a failed RunTest as one more; the other automake tests count as usual
pcre2_counts() {
  local a; read -r -a a <<<"$(automake_counts "$1")"
  local l=$1/RunTest.log ok failed=0
  [ -f "$l" ] || { echo "${a[*]}"; return; }
  ok=$(grep -cE '^ *OK' "$l")
  grep -q ':test-result: PASS' "$1/RunTest.trs" 2>/dev/null || failed=1
  echo "$((a[0] - 1 + failed + ok)) $((a[1] - 1 + ok + failed)) ${a[*]:2}"
}
# a make-target suite: one target, one test (tests.txt: "TARGET RC")
make_counts() {
  local pass total first
  pass=$(awk '$2 == 0' "$2/tests.txt" | wc -l); total=$(wc -l <"$2/tests.txt")
  first=$(awk '$2 != 0 { print $1; exit }' "$2/tests.txt")
  [ -n "$first" ] && first="$first: $(grep -m1 -iE 'error|fail|abort|mismatch|differ' "$2/$first.log" | cut -c1-150)"
  echo "$pass $total $first"
}

# sanitizer reports: log_path files (ASAN_OPTIONS/UBSAN_OPTIONS) and the test
# logs; ASan/LSan: one per ERROR line, UBSan: distinct "file:line:col: kind"
san_counts() { # LOGDIR TREE -> "ASAN UBSAN"
  local a u
  a=$(cat "$1"/san/* 2>/dev/null | grep -cE '^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)')
  u=$( { cat "$1"/san/* 2>/dev/null; find "$2" -name '*.log' -exec cat {} + 2>/dev/null; } |
       grep -oE '[^ /]+:[0-9]+:[0-9]+: runtime error: [^0-9]*' | sort -u | wc -l)
  echo "$a $u"
}
first_report() { cat "$1"/san/* 2>/dev/null | grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY' | cut -c1-200; }

# ---------------------------------------------------------------- running
# run PKG COLUMN BUILD-DIR: the package's suite, results in $out/PKG/COLUMN/result
run() {
  local pkg=$1 col=$2 b=$3 d=$out/$1/$2
  rm -rf "$d"; mkdir -p "$d/san"
  if [ "$(cat "$b/build.status")" != ok ]; then
    echo "- - - - $(cat "$b/build.status")" >"$d/result"; return
  fi
  buildconf "$(buildof "$col")"
  local emucmd=""
  case "$col" in
    qemu) emucmd="qemu-riscv64 -L $sysroot" ;;
    kit-emu) emucmd="$emu -L $sysroot" ;;
    kit-emu-asan) emucmd="$emu -L $sysroot --sanitize=address" ;;
  esac
  (
    exec 9>"$b.lock"; flock 9
    cd "$b/tree" || exit 1
    export CC="$cc" CFLAGS="$cflags" CPPFLAGS="$cppflags" LDFLAGS="$ldflags" KIT_PKG_EMU="$emucmd"
    # a suite that inspects its binary (zstd's playTests.sh: readelf -lW for an
    # executable stack) reads the riscv64 ELF behind a cross wrapper
    if [ -n "$emucmd" ]; then
      mkdir -p "$d/bin"
      cat >"$d/bin/readelf" <<'SHIM'
#!/bin/sh
n=$#
for a; do
  if [ -f "$a.rv64" ] && grep -q KIT_PKG_EMU "$a" 2>/dev/null; then a=$a.rv64; fi
  set -- "$@" "$a"
done
shift "$n"
exec "${KIT_PKG_READELF:?}" "$@"
SHIM
      chmod +x "$d/bin/readelf"
      export KIT_PKG_READELF=$(command -v readelf) PATH="$d/bin:$PATH"
    fi
    export ASAN_OPTIONS="log_path=$d/san/asan" UBSAN_OPTIONS="log_path=$d/san/ubsan"
    if [ $kind = autotools ]; then
      find . -name '*.log' -delete
      timeout -k 10 "$tmo" make -k -j2 -C "$checkdir" check MAKEINFO=true "${checkvars[@]}" >"$d/test.log" 2>&1
      echo "exit $?" >>"$d/test.log"
    else
      : >"$d/tests.txt"
      for t in $tests; do
        timeout -k 10 "$tmo" make -C tests "$t" "${checkvars[@]}" >"$d/$t.log" 2>&1
        echo "$t $?" >>"$d/tests.txt"
      done
    fi
  )
  local c s
  if [ $kind = autotools ]; then c=$($counts "$b/tree" "$d"); else c=$(make_counts "$b/tree" "$d"); fi
  s=$(san_counts "$d" "$b/tree")
  local fr; fr=$(first_report "$d")
  read -r p t rest <<<"$c"
  read -r sa su <<<"$s"
  echo "$p $t $sa $su ${rest:-}${fr:+ [report: $fr]}" >"$d/result"
  # keep the suite's own logs next to the result
  (cd "$b/tree" && find . \( -name 'test-suite.log' -o -name 'RunTest.log' -o -name 'run-suites.log' -o -name 'runtests.log' \) \
    -exec cp --parents -t "$d" {} + 2>/dev/null) || true
}

# ---------------------------------------------------------------- reporting
res() { cat "$out/$1/$2/result" 2>/dev/null; }   # PKG COL
cell() {
  local r; r=$(res "$1" "$2") || { echo "n/a"; return; }
  read -r p t sa su rest <<<"$r"
  if [ "$p" = - ]; then echo "build failed"; return; fi
  [ "$t" = 0 ] && { echo "no tests ran"; return; }
  case "$2" in
    clang-asan|kitcc-asan) echo "$p/$t (asan $sa, ubsan $su)" ;;
    kit-emu-asan) echo "$p/$t (asan $sa)" ;;
    *) echo "$p/$t" ;;
  esac
}
field() { res "$1" "$2" | awk -v n="$3" '{ print $n }'; }
has() { [[ " $cols " == *" $1 "* ]]; }
verdicts=0 failed=0
verdict() { # PKG TEXT CONDITION-RESULT
  verdicts=$((verdicts + 1))
  if [ "$3" = 0 ]; then echo "- PASS $1: $2"; else echo "- FAIL $1: $2"; failed=$((failed + 1)); fi
}
same() { [ -n "$(field "$1" "$2" 1)" ] && [ "$(field "$1" "$2" 1)" != - ] &&
         [ "$(field "$1" "$2" 1)" = "$(field "$1" "$3" 1)" ] && [ "$(field "$1" "$2" 2)" = "$(field "$1" "$3" 2)" ]; }
report_pkg() {
  local pkg=$1 c rc
  echo; echo "### $pkg ($(basename "$(res_src "$pkg")"))"; echo
  printf '|'; for c in $cols; do printf ' %s |' "$c"; done; echo
  printf '|'; for c in $cols; do printf '%s' '---|'; done; echo
  printf '|'; for c in $cols; do printf ' %s |' "$(cell "$pkg" "$c")"; done; echo; echo
  if has gcc && has kitcc; then
    same "$pkg" kitcc gcc; rc=$?
    verdict "$pkg" "kitcc passes what gcc passes ($(cell "$pkg" kitcc) vs $(cell "$pkg" gcc))" $rc
  fi
  if has clang-asan && has kitcc-asan; then
    [ "$(field "$pkg" kitcc-asan 3) $(field "$pkg" kitcc-asan 4)" = "$(field "$pkg" clang-asan 3) $(field "$pkg" clang-asan 4)" ] &&
      same "$pkg" kitcc-asan clang-asan; rc=$?
    verdict "$pkg" "kitcc -fsanitize=address,undefined: clang-16's passes and reports ($(cell "$pkg" kitcc-asan) vs $(cell "$pkg" clang-asan))" $rc
  fi
  if has qemu && has kit-emu; then
    same "$pkg" kit-emu qemu; rc=$?
    verdict "$pkg" "kit-emu passes what qemu passes ($(cell "$pkg" kit-emu) vs $(cell "$pkg" qemu))" $rc
  fi
  if has qemu && has kit-emu-asan; then
    # a real error (clang-16's ASan reports it too) fails its test under both
    # sanitizers, so then the pass count to match is clang-16's
    local want=0 ref=qemu
    has clang-asan && want=$(field "$pkg" clang-asan 3)
    [ "${want:-0}" != 0 ] && [ "$want" != - ] && ref=clang-asan
    same "$pkg" kit-emu-asan $ref && [ "$(field "$pkg" kit-emu-asan 3)" = "${want:-0}" ]; rc=$?
    verdict "$pkg" "kit-emu --sanitize=address passes what $ref passes, with clang-16's ASan report count (${want:-0}) ($(cell "$pkg" kit-emu-asan) vs $(cell "$pkg" $ref))" $rc
  fi
  for c in $cols; do   # every failing cell with its first error
    local r; r=$(res "$pkg" "$c") || continue
    read -r p t sa su rest <<<"$r"
    if [ "$p" = - ] || [ "$p" != "$t" ] || [ "$sa" != 0 ] || [ "$su" != 0 ]; then
      [ -n "$rest" ] && echo "  - $c: $rest"
    fi
  done
}
res_src() { cat "$out/$1/src" 2>/dev/null; }

# ---------------------------------------------------------------- main
need() { command -v "$1" >/dev/null 2>&1 || { echo "packages.sh: skip: no $1"; exit 77; }; }
for c in $cols; do
  case "$c" in
    clang|clang-asan) need clang-16 ;;
    kitcc|kitcc-asan) [ -x "$kitcc" ] || { echo "packages.sh: no kitcc at $kitcc" >&2; exit 2; } ;;
    qemu) need qemu-riscv64; need riscv64-linux-gnu-gcc ;;
    kit-emu|kit-emu-asan) need riscv64-linux-gnu-gcc; [ -x "$emu" ] || { echo "packages.sh: no kit-emu at $emu" >&2; exit 2; } ;;
  esac
done
need dpkg-buildflags; need file; need bc
fetched=0
{
  echo "## Debian packages' test suites ($(date -u +%Y-%m-%d); kitcc $kitcc, kit-emu $emu)"
  echo; echo "CFLAGS=\"$CFLAGS_DEB\" CPPFLAGS=\"$CPPFLAGS_DEB\" LDFLAGS=\"$LDFLAGS_DEB\"; *-asan: CC=\"CC $SAN\"; qemu/kit-emu: riscv64-linux-gnu-gcc --host=riscv64-linux-gnu --disable-shared"
} | tee "$out/report.md"
for pkg in ${pkgs//,/ }; do
  recipe "$pkg" || { failed=$((failed + 1)); continue; }
  mkdir -p "$out/$pkg"
  if ! src=$(bash "$here/fetch-source.sh" "$pkg" 2>"$out/$pkg/fetch.log"); then
    echo "packages.sh: skip $pkg: its source cannot be fetched ($(tail -1 "$out/$pkg/fetch.log"))" | tee -a "$out/report.md"
    continue
  fi
  echo "$src" >"$out/$pkg/src"
  fetched=$((fetched + 1))
  for c in $cols; do
    [ $norun -eq 1 ] && break   # --no-run: the tables of an earlier run into --out
    echo "packages.sh: $pkg $c ($(date -u +%H:%M:%S))" >&2
    b=$(build "$pkg" "$src" "$(buildof "$c")")
    run "$pkg" "$c" "$b"
  done
  report_pkg "$pkg" >"$out/$pkg/report.md"; cat "$out/$pkg/report.md" | tee -a "$out/report.md"
done
[ $fetched -eq 0 ] && { echo "packages.sh: skip: no source could be fetched"; exit 77; }
echo; echo "$((verdicts - failed)) of $verdicts verdicts hold (report: $out/report.md)" | tee -a "$out/report.md"
[ $failed -eq 0 ] || [ $report_only -eq 1 ]
