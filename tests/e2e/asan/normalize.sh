#!/usr/bin/env bash
# normalize.sh — an ASan report on stdin, normalised on stdout: pids, addresses,
# directories of source paths and columns are removed so reports of different
# runs and compilers can be compared line by line.
exec sed -E -e 's/==[0-9]+==/==PID==/g' -e 's/0x[0-9a-f]+/0xADDR/g' \
  -e "s#[^ ('\"]*/([^/ ('\":]+\\.[ch]):#\\1:#g" -e 's#(\.[ch]:[0-9]+):[0-9]+#\1#g' \
  -e 's/ \(BuildId: [0-9a-f]+\)//g'
