# bench/lib/build.sh — builds each workload (lua, sqlite, bzip2, hello) with
# each compiler configuration into $BENCH_BUILD/CONFIG/WORKLOAD, sourced by
# bench/run.sh. A build is redone only when its stamp (compiler identity, flags,
# the sources' contents, this recipe) changes; its outcome is in the directory's
# `status` file: "ok", or "failed: REASON" with the first error line.
# build_workload builds a workload's configurations $BENCH_JOBS at a time.

# configuration -> "compiler flags..." (the compiler word is resolved at build time)
declare -gA CFG_CC=(
  [gcc]="gcc -O2" [clang]="clang-16 -O2" [kitcc]="KITCC -O2"
  [gcc-asan]="gcc -O2 -fsanitize=address" [clang-asan]="clang-16 -O2 -fsanitize=address"
  [kitcc-asan]="KITCC -O2 -fsanitize=address"
  [clang-ubsan]="clang-16 -O2 -fsanitize=undefined" [kitcc-ubsan]="KITCC -O2 -fsanitize=undefined"
  [clang-msan]="clang-16 -O2 -fsanitize=memory" [kitcc-msan]="KITCC -O2 -fsanitize=memory"
  [rv]="riscv64-linux-gnu-gcc -O2"
)
BUILD_RECIPE_VERSION=4

# the identity of a compiler: its version line and resolved binary (size, mtime);
# kitcc changes under our feet, so for it the contents of the binary and of the
# libraries it links (the sanitizer runtimes in $KIT_BUILD/lib)
compiler_identity() {
  local cc=$1 path
  path=$(readlink -f "$(command -v "$cc")")
  "$cc" --version 2>/dev/null | head -n1 || true
  if [ "$cc" = "$KITCC" ]; then
    sha1sum <"$path"
    [ ! -d "$KIT_BUILD/lib" ] || find "$KIT_BUILD/lib" -maxdepth 1 -type f -name '*.a' -exec sha1sum {} + | sed 's| .*/| |' | sort
  else
    stat -c '%n %s %Y' "$path"
  fi
}

# compile_objs DIR CC FLAGS... -- SOURCES...: one object per source, two at a
# time; on failure prints the first error line and returns 1
compile_objs() {
  local dir=$1; shift
  local -a cc=() srcs=()
  while [ "$1" != "--" ]; do cc+=("$1"); shift; done; shift
  srcs=("$@")
  mkdir -p "$dir/obj"
  printf '%s\n' "${srcs[@]}" | xargs -P "$BENCH_JOBS" -I{} bash -c '
    src=$1; dir=$2; shift 2
    obj="$dir/obj/$(basename "${src%.c}").o"
    timeout "$BUILD_TIMEOUT" "$@" -c "$src" -o "$obj" 2>"$obj.log" || { st=$?; echo "$src $st" >>"$dir/obj/failed"; }
    exit 0' _ {} "$dir" "${cc[@]}"
  if [ -s "$dir/obj/failed" ]; then
    local src st log line
    read -r src st <"$dir/obj/failed"
    log="$dir/obj/$(basename "${src%.c}").o.log"
    line=$(grep -m1 -E 'error|Error|fatal|Assertion|Segmentation' "$log" || head -n1 "$log")
    [ "$st" = 124 ] && line="timed out after $BUILD_TIMEOUT s"
    [ "$st" -gt 128 ] && line="${line:+$line; }crashed with signal $((st - 128))"
    echo "compiling $(basename "$src"): ${line:-exit status $st}" | cut -c1-200
    return 1
  fi
}

# link DIR OUT CC FLAGS... : links every object in DIR/obj
link_objs() {
  local dir=$1 out=$2; shift 2
  local log="$dir/link.log"
  if ! "$@" "$dir"/obj/*.o -o "$out" -lm >"$log" 2>&1; then
    echo "linking: $(grep -m1 -E 'error|undefined|cannot' "$log" || head -n1 "$log")" | cut -c1-200
    return 1
  fi
}

# workload sources and flags
wl_sources() {
  case $1 in
    lua) ls "$LUA_SRC"/src/*.c | grep -v -e '/luac\.c$' ;;
    sqlite) echo "$SQLITE_AMAL/sqlite3.c"; echo "$SQLITE_AMAL/speedtest1.c" ;;
    bzip2) for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do echo "$BZIP2_SRC/$f.c"; done ;;
    hello) echo "$BENCH_DIR/workloads/hello.c" ;;
  esac
}
wl_flags() { # WORKLOAD DIR
  case $1 in
    lua) echo "-DLUA_USE_POSIX -I$2/inc" ;;
    sqlite) echo "-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$SQLITE_AMAL" ;;
    bzip2) echo "-D_FILE_OFFSET_BITS=64" ;;
  esac
}

# sanitizer builds must really be instrumented: an accepted but ignored
# -fsanitize= would otherwise be timed as if it were ASan
check_instrumented() { # DIR CONFIG
  local want
  case $2 in
    *-asan) want='__asan_' ;;
    *-msan) want='__msan_' ;;
    *-ubsan) want='_ubsan_' ;;   # __ubsan_handle_* (clang, gcc) or __kit_ubsan_* (kitcc)
    *) return 0 ;;
  esac
  for o in "$1"/obj/*.o; do
    # grep reads all of nm's output: with pipefail, grep -q's early exit would fail nm
    [ "$(nm "$o" 2>/dev/null | grep -c " U _*\(kit\)\?$want")" -gt 0 ] && return 0
  done
  echo "-fsanitize accepted, but no object calls the runtime (${want}*): not instrumented"
  return 1
}

# build_one CONFIG WORKLOAD: sets the directory's status file
build_one() {
  local cfg=$1 wl=$2 dir="$BENCH_BUILD/$1/$2"
  local -a cc
  read -r -a cc <<<"${CFG_CC[$cfg]}"
  if [ "${cc[0]}" = KITCC ]; then
    if [ ! -x "$KITCC" ]; then mkdir -p "$dir"; echo "not built (kitcc)" >"$dir/status"; return; fi
    cc[0]=$KITCC
  fi
  if ! command -v "${cc[0]}" >/dev/null; then
    mkdir -p "$dir"; echo "n/a (${cc[0]} not installed)" >"$dir/status"; return
  fi
  local -a flags
  read -r -a flags <<<"$(wl_flags "$wl" "$dir")"
  local stamp
  stamp=$( { echo "recipe $BUILD_RECIPE_VERSION ${cc[*]} ${flags[*]}"; compiler_identity "${cc[0]}";
             wl_sources "$wl" | xargs sha1sum; } | sha1sum | cut -c1-16)
  if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ] && [ -f "$dir/status" ]; then return; fi
  rm -rf "$dir"; mkdir -p "$dir/inc"
  local triple=x86_64-linux-gnu
  [ "$cfg" = rv ] && triple=riscv64-linux-gnu
  echo "#define DEB_HOST_MULTIARCH \"$triple\"" >"$dir/inc/lua5.4-deb-multiarch.h"
  log "building $wl with ${cc[*]##*/}"
  local why
  mapfile -t srcs < <(wl_sources "$wl")
  if ! why=$(compile_objs "$dir" "${cc[@]}" "${flags[@]}" -- "${srcs[@]}"); then
    echo "failed: $why" >"$dir/status"
  elif ! why=$(check_instrumented "$dir" "$cfg"); then
    echo "failed: $why" >"$dir/status"
  elif [ "$cfg" = rv ]; then
    if why=$(link_objs "$dir" "$dir/bin-static" "${cc[@]}" -static) &&
       why=$(link_objs "$dir" "$dir/bin-dynamic" "${cc[@]}"); then echo ok >"$dir/status"
    else echo "failed: $why" >"$dir/status"; fi
  elif [ "$wl" = hello ]; then
    if why=$(link_objs "$dir" "$dir/bin" "${cc[@]}" -static); then echo ok >"$dir/status"
    else echo "failed: $why" >"$dir/status"; fi
  else
    if why=$(link_objs "$dir" "$dir/bin" "${cc[@]}"); then echo ok >"$dir/status"
    else echo "failed: $why" >"$dir/status"; fi
  fi
  rm -f "$dir"/obj/*.o.log
  echo "$stamp" >"$dir/stamp"
}

# build_status CONFIG WORKLOAD: "ok" or the reason there is no binary
build_status() { cat "$BENCH_BUILD/$1/$2/status" 2>/dev/null || echo "not built"; }

# the configurations a workload is built with: all of them, or --quick's subset
# (the ones its goals need, and the riscv64 build for the emulators)
wl_configs() { # WORKLOAD
  if [ "$1" = compile ]; then return; fi
  # KIT_BENCH_MSAN=1: MemorySanitizer's rows too (lua, sqlite)
  if [ "${KIT_BENCH_MSAN:-0}" = 1 ] && { [ "$1" = lua ] || [ "$1" = sqlite ]; }; then
    printf "%s " clang-msan kitcc-msan
  fi
  if [ "$1" = hello ]; then echo gcc clang kitcc rv
  elif [ "$QUICK" = 1 ] && [ "$1" = lua ]; then echo gcc clang kitcc clang-asan kitcc-asan clang-ubsan kitcc-ubsan rv
  elif [ "$QUICK" = 1 ]; then echo gcc clang kitcc clang-asan kitcc-asan rv
  else echo gcc clang kitcc gcc-asan clang-asan kitcc-asan clang-ubsan kitcc-ubsan rv; fi
}

# status of CONFIG for WORKLOAD in this run: its build's, or why it is not built
cfg_status() { # CONFIG WORKLOAD
  if [[ " $(wl_configs "$2") " == *" $1 "* ]]; then build_status "$1" "$2"; else echo "skipped (--quick)"; fi
}

# build_workload WORKLOAD: its configurations, $BENCH_JOBS builds at a time (each
# compiles its files $BENCH_JOBS at a time too: sqlite3.c is one big file)
build_workload() {
  local cfg running=0
  for cfg in $(wl_configs "$1"); do
    if [ "$running" -ge "$BENCH_JOBS" ]; then wait -n || true; running=$((running - 1)); fi
    ( build_one "$cfg" "$1" ) &
    running=$((running + 1))
  done
  wait || true
}
