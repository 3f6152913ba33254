#!/usr/bin/env bash
# bench/fetch.sh — the benchmark's inputs: installs the peer tools that are
# missing (Debian packages), extracts the workloads' Debian source packages
# (lua5.4, sqlite3, bzip2) and generates the sqlite3 amalgamation.
# Source layout is the one tests/peer/fetch-source.sh uses, so both share the
# cache: ${KIT_CACHE:-$HOME/.cache/kit}/src/PKG/.done holds the tree's path.
# Idempotent: a second run installs, downloads and builds nothing.
#
# usage: bench/fetch.sh [PKG...|none]   source packages to fetch (lua5.4, bzip2,
#   sqlite3; default all three; "none": only the tools). Writes $CACHE/bench/sources.env with the trees
#   of those and of any fetched before (others are "").
set -euo pipefail
CACHE=${KIT_CACHE:-$HOME/.cache/kit}
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
log() { echo "bench/fetch: $*" >&2; }

PKGS=(build-essential dpkg-dev clang-16 libclang-rt-16-dev gcc-riscv64-linux-gnu
      libc6-dev-riscv64-cross qemu-user valgrind tcl)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# a deb-src entry (a copy of the Debian one) unless one exists; lists fetched once
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  log "adding a deb-src entry (kit-bench-src.sources)"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: *deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources
  else
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\n' "$codename"
  fi | $SUDO tee /etc/apt/sources.list.d/kit-bench-src.sources >/dev/null
fi

fetch_source() { # PKG: prints the extracted tree
  local pkg=$1 dest="$CACHE/src/$1"
  if [ -f "$dest/.done" ] && [ -d "$(cat "$dest/.done")" ]; then cat "$dest/.done"; return; fi
  if [ -z "$(apt-cache showsrc "$pkg" 2>/dev/null)" ]; then
    log "apt-get update (deb-src lists)"; $SUDO apt-get update -qq
  fi
  log "apt-get source $pkg"
  mkdir -p "$dest"
  (cd "$dest" && apt-get source -qq "$pkg" >/dev/null 2>&1) || { log "apt-get source $pkg failed"; return 1; }
  local dir
  dir=$(dirname "$(find "$dest" -mindepth 2 -maxdepth 2 -type d -name debian | head -n1)")
  [ -d "$dir" ] || { log "apt-get source $pkg produced no tree"; return 1; }
  echo "$dir" >"$dest/.done"
  echo "$dir"
}

# PKG: its tree when requested (fetched if need be) or fetched before, else ""
source_tree() {
  if [[ " $WANT " == *" $1 "* ]]; then fetch_source "$1"
  elif [ -f "$CACHE/src/$1/.done" ] && [ -d "$(cat "$CACHE/src/$1/.done")" ]; then cat "$CACHE/src/$1/.done"
  fi
}
WANT=${*:-lua5.4 bzip2 sqlite3}
out="$CACHE/bench/sources.env"
mkdir -p "$CACHE/bench"
lua=$(source_tree lua5.4)
bzip2=$(source_tree bzip2)
sqlite=$(source_tree sqlite3)

# the amalgamation (sqlite3.c) and speedtest1.c, generated once by the source's own make
amal="$CACHE/bench/sqlite3-amalgamation"
if [[ " $WANT " == *" sqlite3 "* ]] && { [ ! -f "$amal/sqlite3.c" ] || [ ! -f "$amal/speedtest1.c" ]; }; then
  log "generating the sqlite3 amalgamation (configure && make sqlite3.c)"
  rm -rf "$amal.tmp"; mkdir -p "$amal.tmp"
  (cd "$amal.tmp" && "$sqlite/configure" --disable-tcl >configure.log 2>&1 && make sqlite3.c >make.log 2>&1) ||
    { log "amalgamation failed: see $amal.tmp/*.log"; exit 1; }
  mkdir -p "$amal"
  cp "$amal.tmp/sqlite3.c" "$amal.tmp/sqlite3.h" "$sqlite/test/speedtest1.c" "$amal/"
  rm -rf "$amal.tmp"
fi
printf 'LUA_SRC=%q\nBZIP2_SRC=%q\nSQLITE_SRC=%q\nSQLITE_AMAL=%q\n' "$lua" "$bzip2" "$sqlite" "$amal" >"$out"
