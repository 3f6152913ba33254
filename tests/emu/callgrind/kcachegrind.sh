#!/usr/bin/env bash
# tests/emu/callgrind/kcachegrind.sh KIT_EMU GUESTDIR OUTDIR — KCachegrind
# opens a file of kit-emu --tool=callgrind (guest/calls.c, static) under
# Xvfb: its window names the file and the guest's command (cmd:), the call
# graph it has graphviz's dot lay out holds main, its caller and its callee
# work with the file's inclusive costs on the edges, and the screenshot
# (OUTDIR/kcachegrind.png) has many colours and is far from one of
# KCachegrind with no file (OUTDIR/kcachegrind-empty.png). KCachegrind runs
# with a private HOME whose kcachegrindrc opens the Call Graph tab and no
# tip of the day. 77 without the tools.
set -uo pipefail
emu=${1:?usage: kcachegrind.sh KIT_EMU GUESTDIR OUTDIR} guest=${2:?} out=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
for t in riscv64-linux-gnu-gcc python3 kcachegrind Xvfb xdotool dbus-run-session dot import identify compare; do
  command -v $t >/dev/null || { echo "$t not installed"; exit 77; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-kcachegrind.XXXXXX") || exit 1
xvfb="" kc=""
cleanup() {
  [ -n "$kc" ] && [ -s "$kc" ] && kill "$(cat "$kc")" 2>/dev/null
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  wait 2>/dev/null
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$out" || exit 1
rm -f "$out/kcachegrind.png" "$out/kcachegrind-empty.png"
pass=0 fail=0
ok() { if "${@:2}" >"$work/ok.log" 2>&1; then pass=$((pass + 1)); else echo "FAIL $1"; cat "$work/ok.log"; fail=$((fail + 1)); fi; }
cd "$work" || exit 1

riscv64-linux-gnu-gcc -O2 -g -static -o calls "$guest/calls.c" || exit 1
"$emu" --tool=callgrind,--callgrind-out-file=callgrind.out.calls ./calls >calls.out 2>calls.err || { cat calls.err; exit 1; }

# a display of its own (Xvfb picks a free one), a private HOME and config
exec 3>display
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp >xvfb.log 2>&1 &
xvfb=$!
exec 3>&-
for _ in $(seq 100); do [ -s display ] && break; sleep 0.1; done
[ -s display ] || { echo "Xvfb did not start"; cat xvfb.log; exit 1; }
export DISPLAY=:$(cat display) HOME=$work/home LC_ALL=C.UTF-8
export XDG_CONFIG_HOME=$HOME/config XDG_DATA_HOME=$HOME/data XDG_CACHE_HOME=$HOME/cache XDG_RUNTIME_DIR=$HOME/run TMPDIR=$work/tmp
mkdir -p "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR" "$TMPDIR" && chmod 700 "$XDG_RUNTIME_DIR"
cat >"$XDG_CONFIG_HOME/kcachegrindrc" <<'EOF'
[TipOfDay]
RunOnStart=false

[MainWindow]
1280x800 screen: Width=1280
1280x800 screen: Height=800

[MainView-TabView-1]
ActiveBottom=CallGraphView
EOF
# a dot in front of graphviz's: it keeps the graphs KCachegrind has laid out
mkdir bin
cat >bin/dot <<EOF
#!/bin/sh
tee -a "$work/graph.dot" | "$(command -v dot)" "\$@"
EOF
chmod +x bin/dot
export PATH=$work/bin:$PATH

# KCachegrind in DIR on FILE (none: no file; it would open the newest
# callgrind.out* of its directory) until its window shows; its pid in $kc
start_kc() {
  kc=$work/kc.pid.$1
  (cd "$2" && exec dbus-run-session -- sh -c 'echo $$ >"$0"; exec kcachegrind "$@"' "$kc" ${3:+"$3"}) >"kc.$1.log" 2>&1 &
  win=$(timeout 15 xdotool search --sync --onlyvisible --class kcachegrind | head -1)
  [ -n "$win" ]
}
stop_kc() { # and its window gone, so that the next start_kc finds the next one's
  kill "$(cat "$kc")" 2>/dev/null
  kc=""
  for _ in $(seq 100); do [ -z "$(xdotool search --onlyvisible --class kcachegrind 2>/dev/null)" ] && break; sleep 0.1; done
}
title_names_file() { [[ $title == "callgrind.out.calls [./calls]"*KCachegrind ]]; }
# the graphs dot laid out: nodes main, its caller and work, and edges
# between them labelled with the file's inclusive costs of those calls, once each
graph_has_main() {
  python3 - graph.dot "$(python3 "$here/cgfile.py" incl callgrind.out.calls __libc_start_call_main main)" \
    "$(python3 "$here/cgfile.py" incl callgrind.out.calls main work)" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
node = {m.group(2).rstrip("_"): m.group(1) for m in re.finditer(r'(\w+) \[shape=box,label="\*\* (\S+) \*\*', text)}
for caller, callee, ir in (("__libc_start_call_main", "main", sys.argv[2]), ("main", "work", sys.argv[3])):
    label = "{:,} (1x)".format(int(ir)).replace(",", " ")
    edge = r'%s -> %s \[[^]]*label="%s"' % (node.get(caller, "?"), node.get(callee, "?"), re.escape(label))
    if not re.search(edge, text):
        sys.exit("no edge %s -> %s labelled '%s' in the graph:\n%s" % (caller, callee, label, text))
EOF
}

mkdir empty
if start_kc empty empty; then
  sleep 2
  import -window "$win" "$out/kcachegrind-empty.png"
  stop_kc
else
  echo "FAIL kcachegrind with no file: no window"; cat kc.empty.log; fail=$((fail + 1))
fi

if start_kc file . callgrind.out.calls; then
  # loaded when the window names the file; laid out when dot has answered
  for _ in $(seq 100); do
    title=$(xdotool getwindowname "$win" 2>/dev/null)
    [[ $title == *callgrind.out.calls* ]] && [ -s graph.dot ] && break
    sleep 0.1
  done
  sleep 2
  import -window "$win" "$out/kcachegrind.png"
  ok "the window names the file and the guest's command: '$title'" title_names_file
  ok "the call graph has main, called by __libc_start_call_main, calling work, with the file's costs" graph_has_main
  colours=$(identify -format %k "$out/kcachegrind.png")
  ok "the screenshot has many colours ($colours)" test "$colours" -ge 200
  if [ -s "$out/kcachegrind-empty.png" ]; then
    # the count of pixels apart by more than 5%, maybe as 1.2e+05
    differ=$(compare -metric AE -fuzz 5% "$out/kcachegrind.png" "$out/kcachegrind-empty.png" null: 2>&1 | awk '{print int($1)}')
    ok "the screenshot differs from KCachegrind's with no file in $differ of 1024000 pixels" test "$differ" -ge 100000
  fi
else
  echo "FAIL kcachegrind callgrind.out.calls: no window"; cat kc.file.log; fail=$((fail + 1))
fi

echo "kcachegrind: $pass passed, $fail failed (screenshots in $out: ${colours:-?} colours, ${differ:-?} pixels from the empty one's)"
[ "$fail" = 0 ]
