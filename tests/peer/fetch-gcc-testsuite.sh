#!/usr/bin/env bash
# tests/peer/fetch-gcc-testsuite.sh — make the GCC 12 C torture suite available
# from Debian's gcc-12-source package (installed if missing) and print the
# directory holding gcc.c-torture/. The extraction is cached under
# ${KIT_CACHE:-$HOME/.cache/kit}.
set -euo pipefail
cache=${KIT_CACHE:-$HOME/.cache/kit}
dest="$cache/gcc-12-testsuite"
if [ ! -d "$dest/gcc.c-torture/execute" ]; then
  if [ ! -d /usr/src/gcc-12 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcc-12-source >/dev/null
  fi
  tarball=$(ls /usr/src/gcc-12/gcc-12*.tar.* | head -n1)
  tmp=$(mktemp -d)
  tar -xf "$tarball" -C "$tmp" --wildcards '*/gcc/testsuite/gcc.c-torture/execute/*' >&2
  mkdir -p "$dest"
  mv "$tmp"/*/gcc/testsuite/gcc.c-torture "$dest/"
  rm -rf "$tmp"
fi
echo "$dest"
