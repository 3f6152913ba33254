# bench/lib/mt.sh — the multi-threaded rows (issue 17), sourced by bench/run.sh:
# `xz -T2` and `zstd -T2` compressing the bzip2 workload's input (the 20 MB of
# bench/workloads/gendata.c; --quick: 2 MB) natively (the Debian host tools,
# xz-utils and zstd, of the version the sources are), under qemu-riscv64 and
# kit-emu. The riscv64 programs are tests/peer/threads-packages.sh's builds
# (Debian sources, cross-built, cached): its --bins prints them. Every
# emulator row's compressed bytes must be the native tool's. qemu-riscv64 and
# kit-emu run the guest threads' compiled code in parallel; kit-emu
# --serial-threads (and any tool or sanitizer) runs them one at a time
# (docs/emu.md, "Threads"): the rows show CPU and wall time both.
# Runs only when named (--only mt) or with KIT_BENCH_MT=1;
# KIT_BENCH_MT_THREADS sets the thread count (default 2).

WL_TITLE[mt]="mt: multi-threaded compression, xz-utils' xz and zstd (Debian sources), $((${KIT_BENCH_MT_THREADS:-2})) threads"
WL_BUDGET[mt]=$([ "$QUICK" = 1 ] && echo 120 || echo 420)
declare -gA MT_BIN=() MT_ST=()

# build_mt: the static and dynamic riscv64 builds (MT_BIN[PKG.LINK], or MT_ST says why not)
build_mt() {
  local link pkg bin log
  for link in static dynamic; do
    log="$BENCH_CACHE/mt-build-$link.log"
    local -a opt=(); [ "$link" = static ] && opt=(--static)
    local rc=0   # (run.sh runs under set -e)
    bash "$ROOT/tests/peer/threads-packages.sh" --bins "${opt[@]}" >"$log.out" 2>"$log" || rc=$?
    for pkg in xz-utils libzstd; do
      bin=$(awk -v p="$pkg" '$1 == p { print $2 }' "$log.out")
      if [ -n "$bin" ] && [ -x "$bin" ]; then MT_BIN[$pkg.$link]=$bin MT_ST[$pkg.$link]=ok
      elif [ $rc = 77 ]; then MT_ST[$pkg.$link]="n/a (tests/peer/threads-packages.sh: $(tail -n1 "$log.out" || true))"
      else MT_ST[$pkg.$link]="not built ($(grep -m1 "$pkg" "$log" | cut -c1-100 || true))"; fi
    done
  done
}

# mt_cmd PROG-OPTIONS RUNNER...: sets CMD, compressing the input to c.out
mt_cmd() {
  local opts=$1; shift
  local r; r=$(printf '%q ' "$@")
  CMD=(sh -c "$r $opts -c \"\$1\" >c.out" _ "$(bz_data "$BZ_E")")   # (zstd refuses a symbolic link)
}
digest_mt() { cksum <"$1/work/c.out"; }

rows_mt() {
  local t=${KIT_BENCH_MT_THREADS:-2} input pkg prog opts nref qref qdref st
  case $t in ''|*[!0-9]*|0) t=2 ;; esac
  input=$(mb "$BZ_E")
  for pkg in xz-utils libzstd; do
    case $pkg in
      xz-utils) prog=xz opts="-T$t -1 --block-size=1MiB" ;;
      libzstd) prog=zstd opts="-T$t -B1048576" ;;
    esac
    st=ok; command -v "$prog" >/dev/null || st="n/a ($prog not installed on the host)"
    mt_cmd "$opts" "$prog"
    row_add mt "$prog $opts, native ($("$prog" --version 2>/dev/null | grep -o -m1 'v\?[0-9]\+\.[0-9]\+\.[0-9]\+' | head -n1))" "$input" "" "" "$st" "${CMD[@]}"
    nref=$LAST_ROW
    st=${MT_ST[$pkg.static]:-not built}
    mt_cmd "$opts" qemu-riscv64 "${MT_BIN[$pkg.static]:-}"
    row_add mt "$prog: qemu-riscv64, static" "$input" "" "$nref" "$(both "$(need qemu)" "$st")" "${CMD[@]}"
    qref=$LAST_ROW
    mt_cmd "$opts" "$KITEMU" "${MT_BIN[$pkg.static]:-}"
    row_add mt "$prog: kit-emu, static" "$input" "$qref" "$nref" "$(both "$(need kit-emu)" "$st")" "${CMD[@]}"
    mt_cmd "$opts" "$KITEMU" --serial-threads "${MT_BIN[$pkg.static]:-}"
    row_add mt "$prog: kit-emu --serial-threads, static" "$input" "$qref" "$nref" "$(both "$(need kit-emu)" "$st")" "${CMD[@]}"
    mt_cmd "$opts" "$KITEMU" --sanitize=address "${MT_BIN[$pkg.static]:-}"
    row_add mt "$prog: kit-emu --sanitize=address, static" "$input" "$qref" "$nref" "$(both "$(need emu:--sanitize)" "$st")" "${CMD[@]}"
    st=${MT_ST[$pkg.dynamic]:-not built}
    mt_cmd "$opts" qemu-riscv64 -L "$RV_SYSROOT" "${MT_BIN[$pkg.dynamic]:-}"
    row_add mt "$prog: qemu-riscv64, dynamic" "$input" "" "$nref" "$(both "$(need qemu)" "$st")" "${CMD[@]}"
    qdref=$LAST_ROW
    mt_cmd "$opts" "$KITEMU" -L "$RV_SYSROOT" "${MT_BIN[$pkg.dynamic]:-}"
    row_add mt "$prog: kit-emu, dynamic" "$input" "$qdref" "$nref" "$(both "$(need kit-emu)" "$st")" "${CMD[@]}"
  done
}
