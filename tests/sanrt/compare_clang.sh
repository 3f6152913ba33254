#!/usr/bin/env bash
# compare_clang.sh KIT_BIN SRC CASE... — builds SRC with clang-16 -fsanitize=address
# (-DREF_BUILD) as the reference, runs every CASE with both binaries and diffs the
# normalised report shape: kind line, access line, frame #0 function and
# file:line, region description, alloc/free/thread-creation headers, SUMMARY
# (pids, addresses, columns, BuildIds and module offsets normalised away).
set -u
kit=$1 src=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang-16 -DREF_BUILD -g -O0 -fsanitize=address "$src" -o "$tmp/ref" 2>"$tmp/cc.log" || {
  echo "FAIL: clang-16 -fsanitize=address could not build the reference"; cat "$tmp/cc.log"; exit 1; }

shape() { # report on stdin -> normalised shape lines on stdout
  sed -E -e 's/==[0-9]+==/==PID==/g' -e 's/0x[0-9a-f]+/0xADDR/g' \
    -e 's/ \(BuildId: [0-9a-f]+\)//g' -e 's/\(([^()]*)\+0xADDR\)/(\1+OFF)/g' \
    -e 's/(\.[ch]:[0-9]+):[0-9]+/\1/g' -e 's/\([^()]*\+OFF\)/(MODULE+OFF)/g' |
  awk '
    /ERROR: (AddressSanitizer|LeakSanitizer)/ { print "KIND  " $0; next }
    /^(READ|WRITE) of size/ { print "ACCESS " $0; next }
    /^    #0 / && !seen0 { sub(/^    #0 0xADDR /, ""); print "FRAME0 " $0; seen0 = 1; next }
    /is located/ { print "REGION " $0; next }
    /^SUMMARY:/ { print "SUMMARY " $0; next }
    /^(Direct|Indirect) leak/ { print "LEAK  " $0; next }
    /caused by a|Hint: address/ { print "SIGNAL " $0; next }
    /^(freed|previously allocated|allocated) by thread T[0-9]+ here:$/ { print "BY    " $0; next }
    /^Thread T[0-9]+ created by T[0-9]+ here:$/ { print "THREAD " $0; next }'
}

fail=0
for c in "$@"; do
  "$kit" "$c" 2>"$tmp/kit.err" >/dev/null
  "$tmp/ref" "$c" 2>"$tmp/ref.err" >/dev/null
  shape <"$tmp/kit.err" >"$tmp/kit.shape"
  shape <"$tmp/ref.err" >"$tmp/ref.shape"
  # The reference may describe extra neighbouring globals; every line kit prints
  # must be in the reference, and the reference's non-REGION lines must be in kit's.
  if [[ ! -s $tmp/kit.shape ]]; then echo "FAIL [$c]: kit printed no report"; fail=1; continue; fi
  missing=$(grep -vxF -f "$tmp/ref.shape" "$tmp/kit.shape")
  lost=$(grep -v '^REGION' "$tmp/ref.shape" | grep -vxF -f "$tmp/kit.shape")
  if [[ -n $missing || -n $lost ]]; then
    echo "FAIL [$c]"
    [[ -n $missing ]] && { echo "  kit lines not in reference:"; sed 's/^/    /' <<<"$missing"; }
    [[ -n $lost ]] && { echo "  reference lines kit lacks:"; sed 's/^/    /' <<<"$lost"; }
    fail=1
  else
    echo "ok   [$c] $(wc -l <"$tmp/kit.shape") lines match"
  fi
done
exit $fail
