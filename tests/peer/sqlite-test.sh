#!/usr/bin/env bash
# tests/peer/sqlite-test.sh KITCC — SQLite from Debian's sqlite3 source
# package: the amalgamation (sqlite3.c, shell.c; ~250k lines) is generated
# once by the source's own configure && make (needs tclsh), then the sqlite3
# shell is built by kitcc -O2 and by gcc (-O0, the reference); every tests/peer/sql/*.sql
# script must print the same under both. KIT_CFLAGS (e.g. "-fsanitize=address")
# are added to kitcc's compile and link lines; a sanitizer report fails the run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kitcc=${1:?usage: sqlite-test.sh KITCC [WORKDIR]}
work=${2:-$(mktemp -d)}
cache=${KIT_CACHE:-$HOME/.cache/kit}
src=$(bash "$here/fetch-source.sh" sqlite3)
amal="$cache/peer/sqlite3-amalgamation"
if [ ! -f "$amal/sqlite3.c" ] || [ ! -f "$amal/shell.c" ]; then
  command -v tclsh >/dev/null || { echo "sqlite-test.sh: tclsh is needed to generate the amalgamation (apt-get install tcl)" >&2; exit 1; }
  rm -rf "$amal.tmp"; mkdir -p "$amal.tmp"
  (cd "$amal.tmp" && "$src/configure" --disable-tcl >configure.log 2>&1 && make sqlite3.c shell.c >make.log 2>&1) ||
    { echo "sqlite-test.sh: amalgamation failed, see $amal.tmp/*.log" >&2; exit 1; }
  mkdir -p "$amal"
  cp "$amal.tmp/sqlite3.c" "$amal.tmp/sqlite3.h" "$amal.tmp/shell.c" "$amal/"
  rm -rf "$amal.tmp"
fi
mkdir -p "$work"
flags="-O2 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I$amal"
# kitcc builds its two objects while gcc builds the reference shell
$kitcc $flags ${KIT_CFLAGS:-} -c "$amal/sqlite3.c" -o "$work/sqlite3-kit.o" &
k1=$!
$kitcc $flags ${KIT_CFLAGS:-} -c "$amal/shell.c" -o "$work/shell-kit.o"
# the reference at -O0: its output is the same and it builds in a fraction of -O2's time
gcc ${flags/-O2/-O0} "$amal/sqlite3.c" "$amal/shell.c" -o "$work/sqlite3-gcc" -lm
wait $k1
$kitcc ${KIT_CFLAGS:-} "$work/sqlite3-kit.o" "$work/shell-kit.o" -o "$work/sqlite3-kit" -lm
fail=0
for t in "$here"/sql/*.sql; do
  name=$(basename "$t")
  "$work/sqlite3-gcc" :memory: <"$t" >"$work/$name.gcc" 2>&1 || true
  if ! timeout 120 "$work/sqlite3-kit" :memory: <"$t" >"$work/$name.kit" 2>&1; then
    echo "FAIL $name: the kitcc-built sqlite3 exited with an error"; fail=1; continue
  fi
  if diff -u "$work/$name.gcc" "$work/$name.kit" >"$work/$name.diff"; then
    echo "PASS $name ($(wc -l <"$work/$name.gcc") lines)"
  else
    echo "FAIL $name: output differs from the gcc-built sqlite3"; head -20 "$work/$name.diff"; fail=1
  fi
done
exit $fail
