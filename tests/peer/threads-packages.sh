#!/usr/bin/env bash
# tests/peer/threads-packages.sh — real multi-threaded programs from Debian
# sources (issue 17): xz-utils' `xz -T4` and zstd's `zstd -T4`, cross-built
# for riscv64 at test time, compress and decompress a deterministic input under
# qemu-riscv64, kit-emu and kit-emu --sanitize=address; the Debian host tools
# of the same version (apt: xz-utils, zstd) are the native reference.
#   tests/peer/threads-packages.sh [--emu PATH] [--pkgs xz-utils,libzstd]
#       [--threads N] [--size BYTES] [--static] [--no-asan] [--out DIR]
#       [--emu-opts "OPTS"] [--timeout SECONDS] [--bins]
# Checks, per package: the compressed bytes of qemu, kit-emu and kit-emu
# --sanitize=address equal the native tool's; every decompression gives the
# input back (and the native tool decompresses kit-emu's output); no sanitizer
# report (LeakSanitizer on unless ASAN_OPTIONS says otherwise); and, under
# kit-emu --strace, the guest really created threads (clone with CLONE_THREAD).
# Prints a Markdown table per package and one verdict line per check.
# Sources come from tests/peer/fetch-source.sh (apt-get source); builds are
# cached under ${KIT_CACHE:-~/.cache/kit}/threads/PKG/LINK-KEY (the key hashes
# the source version, the compiler's version, the flags and the recipe).
# --static links the guests statically (default: dynamically, run with -L
# /usr/riscv64-linux-gnu). --bins only builds and prints "PKG BINARY" lines
# (bench/run.sh's mt rows use it). --emu-opts adds options to every kit-emu
# run (e.g. "--tier=0", "--no-chain"). Input: bench/workloads/gendata.c's text
# (7/8) then seeded pseudo-random bytes (1/8); default 20 MiB.
# Exit 0 when every verdict holds, 1 when one fails, 77 when the tools are
# missing or no source can be fetched.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
emu=$root/build/bin/kit-emu
pkgs=xz-utils,libzstd
threads=4
size=$((20 << 20))
link=dynamic
asan=1
out=""
tmo=1800
emuopts=""
bins_only=0
usage() { sed -n '7,9p' "$0" | sed 's/^# *//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --emu) emu=$2; shift 2 ;;
    --pkgs) pkgs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --static) link=static; shift ;;
    --no-asan) asan=0; shift ;;
    --out) out=$2; shift 2 ;;
    --timeout) tmo=$2; shift 2 ;;
    --emu-opts) emuopts=$2; shift 2 ;;
    --bins) bins_only=1; shift ;;
    -h|--help) usage ;;
    *) echo "threads-packages.sh: unknown argument $1" >&2; usage ;;
  esac
done
case "$threads$size" in *[!0-9]*) echo "threads-packages.sh: --threads and --size take numbers" >&2; exit 2 ;; esac
[ "$threads" -ge 1 ] && [ "$size" -ge 1 ] || { echo "threads-packages.sh: --threads and --size must be positive" >&2; exit 2; }
need() { command -v "$1" >/dev/null 2>&1 || { echo "threads-packages.sh: skip: no $1"; exit 77; }; }
need riscv64-linux-gnu-gcc
need dpkg-buildflags
if [ $bins_only -eq 0 ]; then
  need qemu-riscv64; need python3; need gcc
  emu=$(cd "$(dirname "$emu")" 2>/dev/null && pwd)/$(basename "$emu")
  [ -x "$emu" ] || { echo "threads-packages.sh: no kit-emu at $emu" >&2; exit 2; }
fi
sysroot=/usr/riscv64-linux-gnu
CC=riscv64-linux-gnu-gcc
cache=${KIT_CACHE:-$HOME/.cache/kit}/threads
mkdir -p "$cache"
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/kit-threads.XXXXXX")
mkdir -p "$out"; out=$(cd "$out" && pwd)
# Debian's flags, as packages.sh uses them (-ffile-prefix-map names the cwd: dropped)
debflags() { dpkg-buildflags --get "$1" | sed 's/-ffile-prefix-map=[^ ]*//; s/  */ /g; s/^ //; s/ $//'; }
CFLAGS_DEB=$(debflags CFLAGS) CPPFLAGS_DEB=$(debflags CPPFLAGS) LDFLAGS_DEB=$(debflags LDFLAGS)

# ---------------------------------------------------------------- recipes
# recipe PKG sets: prog (the program's name, also the native tool's), comp and
# decomp (its options; the input or file is appended), sfx (the compressed
# file's suffix). xz: preset 1 with 1 MiB blocks, so that every size has
# several blocks for the threads (xz's default block is 3 x the dictionary);
# xz 5.4 decompresses multi-block files with threads too. zstd: level 3 with
# 1 MiB jobs (-B); its decompression has no -T (one worker and an I/O thread).
recipe() {
  case "$1" in
    xz-utils) prog=xz comp="-T$threads -1 --block-size=1MiB -c" decomp="-d -T$threads -c" sfx=xz ;;
    libzstd) prog=zstd comp="-T$threads -B1048576 -c" decomp="-d -c" sfx=zst ;;
    *) echo "threads-packages.sh: no recipe for $1 (xz-utils, libzstd)" >&2; return 1 ;;
  esac
}

# build PKG SRC: the riscv64 program, cached; prints its path (or fails, the
# log's first error on stderr)
build() {
  local pkg=$1 src=$2 key b
  key=$(printf '%s\n' "$src" "$(head -1 "$src/debian/changelog")" "$($CC --version | head -1)" \
          "$CFLAGS_DEB" "$CPPFLAGS_DEB" "$LDFLAGS_DEB" "$link" "$(declare -f build_xz build_zstd)" | sha1sum | cut -c1-12)
  b=$cache/$pkg/$link-$key
  mkdir -p "$cache/$pkg"
  exec 9>"$b.lock"; flock 9
  if [ ! -f "$b/status" ]; then
    rm -rf "$b"; mkdir -p "$b"
    echo "threads-packages.sh: building $pkg for riscv64 ($link) in $b" >&2
    local st=ok
    case "$pkg" in
      xz-utils) (build_xz "$src" "$b") >"$b/build.log" 2>&1 || st=failed ;;
      libzstd) (build_zstd "$src" "$b") >"$b/build.log" 2>&1 || st=failed ;;
    esac
    echo "$st" >"$b/status"
  fi
  exec 9>&-
  if [ "$(cat "$b/status")" != ok ] || [ ! -x "$b/bin" ]; then
    echo "threads-packages.sh: $pkg did not build: $(grep -m1 -E 'error|Error' "$b/build.log" || tail -1 "$b/build.log")" >&2
    return 1
  fi
  echo "$b/bin"
}
# xz: configure as Debian's static-liblzma xz, then only liblzma and src/xz
build_xz() {
  set -e
  local src=$1 b=$2 ld=$LDFLAGS_DEB
  mkdir -p "$b/tree"; cd "$b/tree"
  CC=$CC CFLAGS="$CFLAGS_DEB" CPPFLAGS="$CPPFLAGS_DEB" LDFLAGS="$LDFLAGS_DEB" \
    "$src/configure" --host=riscv64-linux-gnu --disable-shared --enable-threads=posix
  make -j2 -C src/liblzma
  [ "$link" = static ] && ld="$ld -all-static"   # libtool's word for gcc -static
  make -j2 -C src/xz xz LDFLAGS="$ld"
  cp src/xz/xz "$b/bin"
}
# zstd: programs/Makefile's zstd target with threads on (its HAVE_PTHREAD probe
# is forced), without the zlib/lzma/lz4 formats (no riscv64 libraries for them)
build_zstd() {
  set -e
  local src=$1 b=$2
  cp -a "$src" "$b/tree"; cd "$b/tree"
  local ld=$LDFLAGS_DEB; [ "$link" = static ] && ld="$ld -static"
  CFLAGS="$CFLAGS_DEB" CPPFLAGS="$CPPFLAGS_DEB" LDFLAGS="$ld" \
    make -j2 -C programs zstd CC=$CC HAVE_THREAD=1 HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0
  cp programs/zstd "$b/bin"
}

# ---------------------------------------------------------------- input
# make_input SIZE FILE: gendata's text, then seeded random bytes (made once)
make_input() {
  local n=$1 f=$2 gd=$cache/tools/gendata
  [ -s "$f" ] && return 0
  mkdir -p "$cache/tools"
  [ "$gd" -nt "$root/bench/workloads/gendata.c" ] || gcc -O2 -o "$gd" "$root/bench/workloads/gendata.c" || return 1
  local r=$((n / 8)); local t=$((n - r))
  { "$gd" "$t"; python3 -c 'import random, sys; random.seed(2026); sys.stdout.buffer.write(random.randbytes(int(sys.argv[1])))' "$r"; } >"$f.tmp" &&
    [ "$(stat -c %s "$f.tmp")" = "$n" ] && mv "$f.tmp" "$f"
}

# ---------------------------------------------------------------- running
# timed NAME OUTFILE CMD...: runs CMD (stdin: none), stdout to OUTFILE,
# stderr to $d/NAME.err; writes "RC WALL CPU" to $d/NAME.time. Sanitizer
# reports also go to $d/san/NAME.PID (log_path): xz closes its stderr before
# it exits (tuklib_exit), so a report at exit (LeakSanitizer's) would be lost
timed() {
  local name=$1 o=$2; shift 2
  local tf=$d/$name.tf rc
  mkdir -p "$d/san"
  { TIMEFORMAT='%R %U %S'; time ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$d/san/$name" \
      timeout -k 10 "$tmo" "$@" </dev/null >"$o" 2>"$d/$name.err"; } 2>"$tf"
  rc=$?
  awk -v rc=$rc 'NF == 3 { printf "%d %.2f %.2f\n", rc, $1, $2 + $3 }' "$tf" | tail -1 >"$d/$name.time"
  rm -f "$tf"
}
tval() { awk -v n="$2" '{ print $n }' "$d/$1.time" 2>/dev/null; }   # NAME FIELD(1 rc, 2 wall, 3 cpu)
reports() { # RUN-NAME...: the sanitizer reports of those runs (stderr and log files)
  local f; for f; do cat "$d/$f.err" "$d/san/$f".* 2>/dev/null; done | grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:'; }

verdicts=0 failed=0
verdict() { # PKG TEXT STATUS(0 = holds)
  verdicts=$((verdicts + 1))
  if [ "$3" = 0 ]; then echo "- PASS $1: $2"; else echo "- FAIL $1: $2"; failed=$((failed + 1)); fi
}

run_pkg() { # PKG SRC BIN
  local pkg=$1 src=$2 bin=$3 c
  d=$out/$pkg; rm -rf "$d"; mkdir -p "$d"
  local -a co de
  read -r -a co <<<"$comp"; read -r -a de <<<"$decomp"
  local -A runner=(
    [native]="$prog"
    [qemu]="qemu-riscv64 -L $sysroot $bin"
    [kit-emu]="$emu $emuopts -L $sysroot $bin"
    [kit-emu-asan]="$emu $emuopts -L $sysroot --sanitize=address $bin"
  )
  local cols="native qemu kit-emu"; [ $asan -eq 1 ] && cols="$cols kit-emu-asan"
  local -a r
  for c in $cols; do
    read -r -a r <<<"${runner[$c]}"
    echo "threads-packages.sh: $pkg $c ($(date -u +%H:%M:%S))" >&2
    timed "$c.c" "$d/$c.$sfx" "${r[@]}" "${co[@]}" "$input"
    timed "$c.d" "$d/$c.back" "${r[@]}" "${de[@]}" "$d/$c.$sfx"
  done
  # threads: kit-emu --strace of the compression (its stderr), counting the
  # clone calls with CLONE_THREAD (0x10000) that succeeded
  echo "threads-packages.sh: $pkg kit-emu --strace ($(date -u +%H:%M:%S))" >&2
  local -a eo; read -r -a eo <<<"$emuopts"
  timed strace /dev/null "$emu" "${eo[@]}" -L "$sysroot" --strace "$bin" "${co[@]}" "$input"
  local nthr=0 fl
  while read -r fl; do
    [ $((fl & 0x10000)) -ne 0 ] && nthr=$((nthr + 1))
  done < <(sed -nE 's/^(\[pid +[0-9]+\] )?clone\((0x[0-9a-f]+),.*\) = [0-9]+$/\2/p' "$d/strace.err")

  # a corrupt stream (4 bytes in the middle of the native output changed):
  # the error exit, while other threads may still decode, must be qemu's
  local bad=$d/bad.$sfx n2
  cp "$d/native.$sfx" "$bad"
  n2=$(( $(stat -c %s "$bad") / 2 ))
  printf 'XXXX' | dd of="$bad" bs=1 seek="$n2" conv=notrunc status=none
  for c in $cols; do
    [ "$c" = native ] && continue
    read -r -a r <<<"${runner[$c]}"
    timed "$c.bad" /dev/null "${r[@]}" "${de[@]}" "$bad"
  done

  local nver; nver=$("$prog" --version 2>&1 | head -1)
  echo
  echo "### $pkg ($(basename "$src")): \`$prog $comp\` and \`$prog $decomp\`, $link riscv64 build"
  echo
  echo "Input: $(stat -c %s "$input") bytes (sha1 $(sha1sum <"$input" | cut -c1-12)); native: \`$nver\`."
  echo
  echo "| run | compressed bytes | sha1 | compress wall s | cpu s | decompress wall s | cpu s | round trip | sanitizer reports |"
  echo "|---|--:|---|--:|--:|--:|--:|---|--:|"
  local -A sha rt
  for c in $cols; do
    local rcc rcd
    rcc=$(tval "$c.c" 1); rcd=$(tval "$c.d" 1)
    if [ "$rcc" = 0 ]; then sha[$c]=$(sha1sum <"$d/$c.$sfx" | cut -c1-12); else sha[$c]="exit $rcc"; fi
    if [ "$rcd" = 0 ] && cmp -s "$d/$c.back" "$input"; then rt[$c]=ok
    elif [ "$rcd" = 0 ]; then rt[$c]="differs"
    else rt[$c]="exit $rcd"; fi
    local nrep=-; [ "$c" = kit-emu-asan ] && nrep=$(reports "$c.c" "$c.d")
    echo "| $c | $(stat -c %s "$d/$c.$sfx") | ${sha[$c]} | $(tval "$c.c" 2) | $(tval "$c.c" 3) | $(tval "$c.d" 2) | $(tval "$c.d" 3) | ${rt[$c]} | $nrep |"
  done
  echo
  local ratio
  ratio=$(awk -v k="$(tval kit-emu.c 2) $(tval kit-emu.c 3)" -v q="$(tval qemu.c 2) $(tval qemu.c 3)" \
          'BEGIN { split(k, a); split(q, b); if (b[1] > 0 && b[2] > 0) printf "wall %.2f, cpu %.2f", a[1] / b[1], a[2] / b[2] }')
  echo "kit-emu / qemu-riscv64 (compression): ${ratio:-n/a}; kit-emu --strace: $nthr guest threads created."
  echo
  [ "${sha[qemu]}" = "${sha[native]}" ] && [ "$(tval native.c 1)" = 0 ]
  verdict "$pkg" "qemu-riscv64's compressed bytes equal the native $prog's (${sha[qemu]} vs ${sha[native]})" $?
  [ "${sha[kit-emu]}" = "${sha[qemu]}" ] && [ "$(tval kit-emu.c 1)" = 0 ]
  verdict "$pkg" "kit-emu's compressed bytes equal qemu's and the native tool's (${sha[kit-emu]})" $?
  if [ $asan -eq 1 ]; then
    local n; n=$(reports kit-emu-asan.c kit-emu-asan.d kit-emu-asan.bad)
    [ "${sha[kit-emu-asan]}" = "${sha[qemu]}" ] && [ "$(tval kit-emu-asan.c 1)" = 0 ] && [ "$n" = 0 ] && [ "${rt[kit-emu-asan]}" = ok ]
    verdict "$pkg" "kit-emu --sanitize=address: the same bytes (${sha[kit-emu-asan]}), the round trip, no sanitizer report ($n)" $?
  fi
  local bad=""
  for c in $cols; do [ "${rt[$c]}" = ok ] || bad="$bad $c:${rt[$c]}"; done
  [ -z "$bad" ]
  verdict "$pkg" "every decompression gives the input back (${bad:-$cols})" $?
  "$prog" $decomp "$d/kit-emu.$sfx" 2>/dev/null | cmp -s - "$input"
  verdict "$pkg" "the native $prog decompresses kit-emu's output to the input" $?
  [ "$(tval strace 1)" = 0 ] && [ "$nthr" -ge 2 ]
  verdict "$pkg" "the guest ran threads under kit-emu ($nthr created by clone with CLONE_THREAD)" $?
  local bc ok=0 got=""
  [ "$(tval qemu.bad 1)" != 0 ] || ok=1
  for c in $cols; do
    case $c in native|qemu) continue ;; esac
    bc=$(tval "$c.bad" 1)
    got="$got, $c exit $bc"
    [ "$bc" = "$(tval qemu.bad 1)" ] && cmp -s "$d/$c.bad.err" "$d/qemu.bad.err" || ok=1
  done
  verdict "$pkg" "a corrupt stream: qemu's error exit and message (qemu exit $(tval qemu.bad 1)$got; \"$(head -n1 "$d/qemu.bad.err" | sed 's/.*: //; s/ *$//')\")" $ok
  # the first lines of any failed run's stderr
  for c in $cols; do
    for s in c d; do
      [ "$(tval "$c.$s" 1)" = 0 ] && { [ "$c" != kit-emu-asan ] || [ "$(reports "$c.$s")" = 0 ]; } && continue
      echo "  - $c ($([ $s = c ] && echo compress || echo decompress)): $(cat "$d/$c.$s.err" "$d/san/$c.$s".* 2>/dev/null | grep -m1 -E 'ERROR|rror|Sanitizer' || head -1 "$d/$c.$s.err")" | cut -c1-240
    done
  done
}

# ---------------------------------------------------------------- main
# one function, read whole before it runs: editing this file during a run
# cannot derail the run
main() {
fetched=0
declare -a plist=()
for pkg in ${pkgs//,/ }; do
  recipe "$pkg" || exit 2
  if ! src=$(bash "$here/fetch-source.sh" "$pkg" 2>"$out/$pkg.fetch.log"); then
    echo "threads-packages.sh: skip $pkg: its source cannot be fetched ($(tail -1 "$out/$pkg.fetch.log"))"
    continue
  fi
  fetched=$((fetched + 1))
  plist+=("$pkg:$src")
done
[ $fetched -eq 0 ] && { echo "threads-packages.sh: skip: no source could be fetched"; exit 77; }
if [ $bins_only -eq 1 ]; then
  st=0
  for ps in "${plist[@]}"; do
    pkg=${ps%%:*} src=${ps#*:}; recipe "$pkg"
    if bin=$(build "$pkg" "$src"); then echo "$pkg $bin"; else st=1; fi
  done
  exit $st
fi
input=$cache/input-$size.bin
make_input "$size" "$input" || { echo "threads-packages.sh: cannot make the input" >&2; exit 2; }
{
  echo "## Multi-threaded Debian programs under kit-emu ($(date -u +%Y-%m-%d); $threads threads; kit-emu $emu${emuopts:+ $emuopts})"
  echo
  echo "CFLAGS=\"$CFLAGS_DEB\" CPPFLAGS=\"$CPPFLAGS_DEB\" LDFLAGS=\"$LDFLAGS_DEB\"; riscv64-linux-gnu-gcc ($($CC -dumpfullversion)), $link; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/report.md"
for ps in "${plist[@]}"; do
  pkg=${ps%%:*} src=${ps#*:}; recipe "$pkg"
  if ! bin=$(build "$pkg" "$src"); then
    { echo; verdict "$pkg" "the riscv64 build (see $cache/$pkg)" 1; } | tee -a "$out/report.md"
    continue
  fi
  run_pkg "$pkg" "$src" "$bin" | tee -a "$out/report.md"
  # (verdict counts were kept in the subshell of the pipe: recount from the output)
done
verdicts=$(grep -c '^- \(PASS\|FAIL\) ' "$out/report.md")
failed=$(grep -c '^- FAIL ' "$out/report.md")
echo; echo "$((verdicts - failed)) of $verdicts verdicts hold (report: $out/report.md)" | tee -a "$out/report.md"
[ "$failed" -eq 0 ]
}
main; exit   # on one line: bash has read it whole before main runs
