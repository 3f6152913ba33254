#!/usr/bin/env bash
# scripts/deps.sh — install what kit needs on Debian 12, only what is missing.
# Idempotent and quiet when everything is already there.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config
      llvm-16-dev clang-16 libclang-rt-16-dev lld-16 libffi-dev libzstd-dev zlib1g-dev libedit-dev libxml2-dev libncurses-dev
      libunwind-dev libelf-dev libdwarf-dev libcmocka-dev
      gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user
      gdb gdb-multiarch llvm-16 valgrind python3 xz-utils autoconf automake libtool
      libxml2-utils librsvg2-bin bc
      kcachegrind graphviz xvfb xdotool imagemagick dbus-daemon)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
