#!/usr/bin/env bash
# tests/peer/emu-programs.sh KIT_EMU — real programs under kit-emu, compared
# with qemu-riscv64. Sources are Debian source packages fetched at test time
# (fetch-source.sh; never committed), cross-built with riscv64-linux-gnu-gcc
# -O2 (dynamically linked against /usr/riscv64-linux-gnu):
#   - Lua 5.4 (lua5.4) running tests/peer/lua/*.lua and tests/emupeer/lua/*.lua;
#   - zlib's test/example, and minigzip compressing and decompressing text,
#     binary, empty, repetitive and random files (each compressed stream must
#     be byte-identical to qemu's, and the round trip must give the input);
#   - sqlite3's shell (sqlite3 package; the amalgamation is generated on the
#     host with its configure && make sqlite3.c shell.c) running
#     tests/emupeer/sqlite.sql on a fresh database file.
# Every run must give qemu's stdout and exit status. Each program is linked
# twice from the same objects, dynamically and with -static (NAME-static); the
# binaries are cached under ${KIT_CACHE:-~/.cache/kit}/emupeer (keyed by the
# compiler version), so a warm run only executes.
#   tests/peer/emu-programs.sh KIT_EMU [--only lua|zlib|sqlite] [--emu-opts "..."]
#                              [--static] [--asan] [--quick]
# --static runs the static builds. --asan runs kit-emu with --sanitize=address
# (LeakSanitizer on): a run also fails when kit-emu's stderr holds a sanitizer
# report, and a Lua allocation beyond the runtime's limit must give the
# allocation-size-too-big report, frames symbolized from the guest ELF (the
# guest heap is the runtime's). --quick
# runs a short part of each workload (the ctest entry).
# Exit 77 (skipped) without riscv64-linux-gnu-gcc or qemu-riscv64.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
peer=$here/../emupeer
emu=${1:?usage: emu-programs.sh KIT_EMU [--only lua|zlib|sqlite] [--emu-opts OPTS] [--static] [--asan] [--quick]}
shift
only="lua zlib sqlite"
emuopts=""
sfx=""
asan=0
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="$2"; shift 2 ;;
    --emu-opts) emuopts="$2"; shift 2 ;;
    --static) sfx=-static; shift ;;
    --asan) asan=1; shift ;;
    --quick) quick=1; shift ;;
    *) echo "emu-programs.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
emu=$(cd "$(dirname "$emu")" && pwd)/$(basename "$emu")
CC=riscv64-linux-gnu-gcc
sysroot=/usr/riscv64-linux-gnu
cache=${KIT_CACHE:-$HOME/.cache/kit}/emupeer/$($CC -dumpfullversion)
mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-programs.XXXXXX")
trap 'rm -rf "$work"' EXIT
read -r -a eo <<<"$emuopts"
[ $asan -eq 1 ] && eo+=(--sanitize=address)
export KIT_EMUPEER_VAR=emupeer
status=0
npass=0

# par: run up to 2 jobs at once
par() { "$@" & while [ "$(jobs -r | wc -l)" -ge 2 ]; do wait -n; done; }

# compare NAME DIR STDIN-FILE PROGRAM ARGS... — run under both, same cwd
# contents (DIR is copied for each), compare stdout and exit status
compare() {
  local name=$1 dir=$2 in=$3; shift 3
  local q=$work/run.q k=$work/run.k
  rm -rf "$q" "$k"; cp -r "$dir" "$q"; cp -r "$dir" "$k"
  (cd "$q" && timeout 300 qemu-riscv64 -L "$sysroot" "$@" <"$in" >"$work/q.out" 2>"$work/q.err"); local qrc=$?
  (cd "$k" && timeout 300 "$emu" "${eo[@]}" "$@" <"$in" >"$work/k.out" 2>"$work/k.err"); local krc=$?
  if [ $asan -eq 1 ] && grep -q 'Sanitizer' "$work/k.err"; then
    echo "FAIL $name: sanitizer report"; grep -m1 -A12 'ERROR: ' "$work/k.err"; status=1
  elif [ $qrc -ne $krc ]; then
    echo "FAIL $name: exit status qemu $qrc, kit-emu $krc"; head -5 "$work/k.err"; status=1
  elif ! cmp -s "$work/q.out" "$work/k.out"; then
    echo "FAIL $name: stdout differs from qemu's"; diff "$work/q.out" "$work/k.out" | head -20; status=1
  else
    echo "PASS $name ($(wc -c <"$work/k.out") bytes of output, exit $krc)"; npass=$((npass + 1))
    return 0
  fi
  return 1
}

# ---------------------------------------------------------------- Lua 5.4
if [[ " $only " == *" lua "* ]]; then
  lua=$cache/lua$sfx
  if [ ! -x "$cache/lua" ] || [ ! -x "$cache/lua-static" ]; then
    src=$(bash "$here/fetch-source.sh" lua5.4)/src || exit 1
    b=$work/lua-build; mkdir -p "$b"
    echo '#define DEB_HOST_MULTIARCH "riscv64-linux-gnu"' >"$b/lua5.4-deb-multiarch.h"
    for f in "$src"/*.c; do
      n=$(basename "$f" .c); [ "$n" = luac ] && continue
      par $CC -O2 -I"$b" -DLUA_USE_LINUX -c "$f" -o "$b/$n.o"
    done
    wait
    $CC -o "$b/lua" "$b"/*.o -lm -ldl && $CC -static -o "$b/lua-static" "$b"/*.o -lm -ldl ||
      { echo "FAIL lua: cannot build"; exit 1; }
    mv "$b/lua" "$b/lua-static" "$cache"/
  fi
  d=$work/lua-scripts; mkdir -p "$d"
  cp "$here"/lua/*.lua "$peer"/lua/*.lua "$d"/
  scripts=("$d"/*.lua)
  [ $quick -eq 1 ] && scripts=("$d"/strings.lua "$d"/tables.lua "$d"/errors.lua "$d"/io_coro.lua)
  for t in "${scripts[@]}"; do
    compare "lua $(basename "$t")" "$d" /dev/null "$lua" "$(basename "$t")"
  done
  echo 'print(("x"):rep(3)); os.exit(7)' >"$d/exit7.lua"
  compare "lua os.exit(7)" "$d" /dev/null "$lua" exit7.lua
  printf 'local t = {}\nfor l in io.lines() do t[#t+1] = l:upper() end\nprint(#t, t[1], t[#t])\n' >"$d/stdin.lua"
  cat "$d"/*.lua >"$work/lua-stdin.txt"
  compare "lua reading stdin" "$d" "$work/lua-stdin.txt" "$lua" stdin.lua
  compare "lua error exit" "$d" /dev/null "$lua" -e 'error("kit")'
  if [ $asan -eq 1 ]; then
    # the positive control: io.read(2^41) asks realloc for 2^41 bytes, over the
    # runtime allocator's limit (glibc's malloc just fails: "not enough memory")
    (cd "$d" && timeout 60 "$emu" "${eo[@]}" "$lua" -e 'io.read(1 << 41)' </dev/null >/dev/null 2>"$work/k.err")
    if grep -Eq '^SUMMARY: AddressSanitizer: allocation-size-too-big .* in __interceptor_realloc$' "$work/k.err" &&
       grep -Eq '^    #1 0x[0-9a-f]+ in resizebox ' "$work/k.err"; then
      echo "PASS lua allocation-size-too-big report (the guest heap is the runtime's)"; npass=$((npass + 1))
    else
      echo "FAIL lua: no allocation-size-too-big report from realloc for io.read(2^41)"; head -5 "$work/k.err"; status=1
    fi
  fi
fi

# ---------------------------------------------------------------- zlib
if [[ " $only " == *" zlib "* ]]; then
  if [ ! -x "$cache/minigzip-static" ] || [ ! -x "$cache/zlib-example-static" ] ||
     [ ! -x "$cache/minigzip" ] || [ ! -x "$cache/zlib-example" ]; then
    src=$(bash "$here/fetch-source.sh" zlib) || exit 1
    b=$work/zlib-build; mkdir -p "$b"
    flags="-O2 -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -I$src"
    objs=""
    for n in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees \
             trees uncompr zutil; do
      par $CC $flags -c "$src/$n.c" -o "$b/$n.o"; objs="$objs $b/$n.o"
    done
    wait
    # shellcheck disable=SC2086
    for l in "" -static; do
      # shellcheck disable=SC2086
      $CC $flags $l "$src/test/example.c" $objs -o "$b/zlib-example$l" &&
        $CC $flags $l "$src/test/minigzip.c" $objs -o "$b/minigzip$l" || { echo "FAIL zlib: cannot build"; exit 1; }
      mv "$b/zlib-example$l" "$b/minigzip$l" "$cache"/
    done
  fi
  d=$work/zlib-data; mkdir -p "$d"
  cat "$(bash "$here/fetch-source.sh" zlib)"/*.c >"$d/text"
  head -c 300000 "$cache/minigzip" >"$d/binary"
  zfiles="text binary empty repeat random"
  [ $quick -eq 1 ] && zfiles="text empty"
  : >"$d/empty"
  awk 'BEGIN { for (i = 0; i < 50000; i++) print "kit kit kit" }' >"$d/repeat"
  python3 -c "import random,sys; r=random.Random(7); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(200000)))" >"$d/random"
  compare "zlib example" "$d" /dev/null "$cache/zlib-example$sfx" example.gz
  for f in $zfiles; do
    for level in 1 9; do
      # compression: the stream must be qemu's, byte for byte
      compare "minigzip -$level $f" "$d" "$d/$f" "$cache/minigzip$sfx" -$level && cp "$work/k.out" "$d/$f.$level.gz"
      [ -f "$d/$f.$level.gz" ] || continue
      # decompression: qemu's output (checked equal) must be the input
      if compare "minigzip -d $f.$level.gz" "$d" "$d/$f.$level.gz" "$cache/minigzip$sfx" -d; then
        cmp -s "$work/k.out" "$d/$f" || { echo "FAIL minigzip round trip $f -$level: not the input"; status=1; }
      fi
    done
  done
fi

# ---------------------------------------------------------------- sqlite3
if [[ " $only " == *" sqlite "* ]]; then
  sq=$cache/sqlite3$sfx
  if [ ! -x "$cache/sqlite3" ] || [ ! -x "$cache/sqlite3-static" ]; then
    src=$(bash "$here/fetch-source.sh" sqlite3) || exit 1
    b=$work/sqlite-build; mkdir -p "$b"
    # the amalgamation and shell.c are generated (tclsh, lemon) on the host
    (cd "$b" && "$src/configure" --disable-tcl >configure.log 2>&1 && make -j2 sqlite3.c shell.c >make.log 2>&1) ||
      { echo "FAIL sqlite: cannot generate the amalgamation"; tail "$b"/*.log; exit 1; }
    sqf="-O2 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_ENABLE_MATH_FUNCTIONS -I$b"
    # shellcheck disable=SC2086
    par $CC $sqf -c "$b/sqlite3.c" -o "$b/sqlite3.o"
    # shellcheck disable=SC2086
    par $CC $sqf -c "$b/shell.c" -o "$b/shell.o"
    wait
    $CC -o "$b/sqlite3" "$b/shell.o" "$b/sqlite3.o" -lm &&
      $CC -static -o "$b/sqlite3-static" "$b/shell.o" "$b/sqlite3.o" -lm || { echo "FAIL sqlite: cannot build"; exit 1; }
    mv "$b/sqlite3" "$b/sqlite3-static" "$cache"/
  fi
  d=$work/sqlite-data; mkdir -p "$d"
  cp "$peer/sqlite.sql" "$d/"
  compare "sqlite3 sqlite.sql" "$d" "$d/sqlite.sql" "$sq" -bail test.db
  compare "sqlite3 -json query" "$d" /dev/null "$sq" -json :memory: \
    "select 1 as a, 'x' as b union all select 2, null; select json_object('k', 3.5);"
  compare "sqlite3 error exit" "$d" /dev/null "$sq" -bail :memory: "select * from no_such_table;"
fi

echo "$npass passed; $([ $status -eq 0 ] && echo "no differences from qemu" || echo "differences above")"
exit $status
