#!/usr/bin/env bash
# tests/peer/fetch-source.sh PACKAGE — fetch a Debian source package with
# `apt-get source` (never committed to the repo; the newest listed version
# the mirror serves), extract it under
# ${KIT_CACHE:-$HOME/.cache/kit}/src/PACKAGE and print the extracted directory.
# Needs a deb-src entry: when none is configured, one is added as a copy of
# the Debian `deb` entry (kit-peer-src.sources) and `apt-get update` runs once.
set -euo pipefail
pkg=${1:?usage: fetch-source.sh PACKAGE}
cache=${KIT_CACHE:-$HOME/.cache/kit}
dest="$cache/src/$pkg"
if [ -f "$dest/.done" ]; then
  cat "$dest/.done"
  exit 0
fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  tmp=$(mktemp)
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$tmp"
  $SUDO cp "$tmp" /etc/apt/sources.list.d/kit-peer-src.sources
  rm -f "$tmp"
  $SUDO apt-get update -qq >&2
fi
# apt-get source fails until the deb-src lists were downloaded once
if ! apt-cache showsrc "$pkg" >/dev/null 2>&1 || [ -z "$(apt-cache showsrc "$pkg" 2>/dev/null)" ]; then
  $SUDO apt-get update -qq >&2
fi
# The newest version the lists name can be missing from the mirror (a security
# update whose files are gone: 404); then take the other listed versions in turn.
fetch() {
  rm -rf "$dest" && mkdir -p "$dest"
  (cd "$dest" && apt-get source -qq "$1" >&2)
}
if ! fetch "$pkg"; then
  ok=""
  for ver in $(apt-cache showsrc "$pkg" | sed -n 's/^Version: //p' | sort -u -r -V); do
    echo "fetch-source.sh: retrying $pkg=$ver" >&2
    if fetch "$pkg=$ver"; then ok=1; break; fi
  done
  [ -n "$ok" ] || { echo "fetch-source.sh: apt-get source $pkg failed for every listed version" >&2; exit 1; }
fi
# the unpacked source tree is the directory holding debian/
dir=$(dirname "$(find "$dest" -mindepth 2 -maxdepth 2 -type d -name debian | head -n1)")
[ -n "$dir" ] || { echo "fetch-source.sh: apt-get source $pkg produced no directory" >&2; exit 1; }
echo "$dir" >"$dest/.done"
echo "$dir"
