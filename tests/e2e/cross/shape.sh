#!/usr/bin/env bash
# shape.sh — an AddressSanitizer report on stdin, reduced on stdout to what
# must agree between compiled mode and kit-emu: pids, addresses, directories,
# columns and module paths normalised away; kept are the bug kind line, the
# access kind and size, frame #0 of the error stack, the region description,
# frame #0 and the top source frame of each allocation/free stack and leak,
# the SEGV cause and hint lines, and SUMMARY.
sed -E -e 's/==[0-9]+==/==PID==/g' -e 's/0x[0-9a-f]+/0xADDR/g' \
  -e 's/ \(BuildId: [0-9a-f]+\)//g' -e 's/\([^()]*\+0xADDR\)/(MODULE)/g' \
  -e "s#[^ ('\"]*/([^/ ('\":]+\\.[ch]):#\\1:#g" -e 's#(\.[ch]:[0-9]+):[0-9]+#\1#g' |
  awk '
    function frame(s) { sub(/^ +#[0-9]+ 0xADDR /, "", s); return s }
    /ERROR: (AddressSanitizer|LeakSanitizer)/ { print; sec = "error"; n = 0; next }
    /^(READ|WRITE) of size/ { print; next }
    /^(freed|previously allocated|allocated) by thread/ { print; sec = "stack"; n = 0; top = 0; next }
    /^(Direct|Indirect) leak/ { print; sec = "stack"; n = 0; top = 0; next }
    /^ +#[0-9]+ / {
      if (n == 0) print "  #0 " frame($0)
      else if (sec == "stack" && !top && $0 ~ /\.c:[0-9]+/) { print "  top " frame($0); top = 1 }
      n++; next
    }
    /is located/ { print; next }
    /caused by a|Hint: / { print; next }
    /^SUMMARY:/ { print; next }'
