#!/usr/bin/env bash
# tests/kitcc/warn.sh KITCC — kitcc's warnings against gcc's: for every
# tests/kitcc/warn/*.c and several flag sets (-Wall -Wextra -Wshadow, the
# defaults, -Wall -Wno-..., -Werror=..., -w), the set of (line, kind, -Wname)
# kitcc prints must be gcc's. Messages may differ; where and which may not.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kitcc=$(realpath "${1:?usage: warn.sh KITCC}")
cd "$here/warn"
pass=0 fail=0
# file:line kind name, sorted: "unused.c:15 warning unused-variable"
pairs() {
  sed -nE 's/^([^: ]+):([0-9]+):[0-9]+: (warning|error): .*\[-W(error=)?([a-z0-9-]+)=?\]$/\1:\2 \3 \5/p' |
    sed -E 's#^.*/##' | sort -u
}
compare() {
  local what=$1; shift
  local g k
  g=$(gcc "$@" -c -o /dev/null 2>&1 | pairs)
  k=$("$kitcc" "$@" -c -o /dev/null 2>&1 | pairs)
  if [ "$g" = "$k" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL $what: $*"; diff <(printf '%s\n' "$g") <(printf '%s\n' "$k") | sed 's/^</  gcc only:/; s/^>/  kitcc only:/' | grep only
    fail=$((fail + 1))
  fi
}
for c in *.c; do
  compare "$c -Wall -Wextra" -Wall -Wextra -Wshadow "$c"
  compare "$c defaults" "$c"
done
compare "-Wall alone" -Wall conv.c
compare "-Wno-name" -Wall -Wextra -Wno-unused-variable unused.c
compare "-Wno-name" -Wall -Wextra -Wno-parentheses control.c
compare "-Wunused" -Wunused -Wno-unused-label unused.c
compare "-Werror=name" -Wall -Werror=unused-variable unused.c
compare "-Werror" -Wall -Werror control.c
compare "-Werror -Wno-error=name" -Wall -Wextra -Werror -Wno-error=sign-compare conv.c
compare "-Wformat=2" -Wformat=2 format.c
compare "-Wno-format" -Wall -Wno-format format.c
compare "-Wformat-security" -Wformat -Wformat-security format-arrays.c
compare "-Werror=format-security" -Wformat -Werror=format-security format-arrays.c
compare "-Wformat gettext" -Wformat -Wformat-security format-gettext.c
out=$(for c in *.c; do "$kitcc" -w -Wall -Wextra -c -o /dev/null "$c" 2>&1; done)
if [ -z "$out" ]; then pass=$((pass + 1)); else echo "FAIL -w: $out" | head -3; fail=$((fail + 1)); fi
"$kitcc" -Wall -Werror=unused-variable -c -o /dev/null unused.c 2>/dev/null
if [ $? -eq 1 ]; then pass=$((pass + 1)); else echo "FAIL -Werror=: exit status not 1"; fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
