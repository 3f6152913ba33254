#!/usr/bin/env bash
# scripts/build.sh — install dependencies, configure and build kit into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
WERROR=${KIT_WERROR:-ON}
cmake -S . -B build -G Ninja -DKIT_WERROR="$WERROR" >/dev/null
cmake --build build -j"$(nproc)"
