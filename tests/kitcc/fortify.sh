#!/usr/bin/env bash
# tests/kitcc/fortify.sh KITCC — glibc's _FORTIFY_SOURCE with kitcc, against
# gcc: at -O2 -D_FORTIFY_SOURCE=2 and =3, fortify/ok.c prints what gcc's build
# prints, every fortify/overflow.c case ends as gcc's build does (glibc's
# "*** buffer overflow detected ***" and SIGABRT), and fortify/objsize.c's
# __builtin_object_size answers are gcc's; at -O0 and -O2, fortify/chk.c's
# direct __builtin___X_chk calls behave as gcc's. kitcc also runs with
# __GNUC__ 12, where glibc's wrappers forward variadic arguments with
# __builtin_va_arg_pack.
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%080d\n' 0 >"$work/line" # stdin: a line longer than the buffers
pass=0 fail=0
check() { # NAME WANT GOT
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); printf 'FAIL: %s\nwant: %s\ngot:  %s\n' "$1" "$2" "$3"; fi
}
outcome() { # EXE ARGS...: stdout, stderr and the exit status, on one line
  local out rc=0
  out=$("$@" <"$work/line" 2>&1) || rc=$?
  echo "$out" | tr '\n' '|'
  echo "exit $rc"
}
for opt in -O0 -O2; do
  gcc $opt -w "$here/fortify/chk.c" -o "$work/chk.gcc"
  "$kitcc" $opt "$here/fortify/chk.c" -o "$work/chk.kitcc"
  for c in fits memcpy mempcpy memmove memset strcpy stpcpy strncpy stpncpy strcat strncat sprintf snprintf vsprintf vsnprintf; do
    check "$opt chk.c $c" "$(outcome "$work/chk.gcc" "$c")" "$(outcome "$work/chk.kitcc" "$c")"
  done
done
cases="memcpy memmove memset strcpy stpcpy strncpy stpncpy strcat strncat sprintf snprintf read fgets wmemcpy heap"
for level in 2 3; do
  flags="-O2 -D_FORTIFY_SOURCE=$level"
  for f in ok overflow objsize; do
    # shellcheck disable=SC2086
    gcc $flags -w "$here/fortify/$f.c" -o "$work/$f.gcc"
  done
  for identity in "" "-D__GNUC__=12 -D__GNUC_MINOR__=2"; do
    tag="$flags${identity:+ $identity}"
    for f in ok overflow objsize; do
      # shellcheck disable=SC2086
      "$kitcc" $flags $identity "$here/fortify/$f.c" -o "$work/$f.kitcc" 2>"$work/$f.log" ||
        { cat "$work/$f.log"; fail=$((fail + 1)); echo "FAIL: $tag: $f.c does not compile"; continue 2; }
    done
    check "$tag ok.c" "$(outcome "$work/ok.gcc")" "$(outcome "$work/ok.kitcc")"
    [ "$level" = 2 ] && check "$tag objsize.c" "$(outcome "$work/objsize.gcc")" "$(outcome "$work/objsize.kitcc")"
    for c in $cases; do
      want=$(outcome "$work/overflow.gcc" "$c")
      case $want in *"buffer overflow detected"*"exit 134") ;; *) echo "FAIL: gcc's build does not catch $c: $want"; fail=$((fail + 1)); continue ;; esac
      check "$tag overflow $c" "$want" "$(outcome "$work/overflow.kitcc" "$c")"
    done
  done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
