#!/usr/bin/env bash
# scripts/test.sh — the one test command (README.md): installs what is missing,
# builds, and runs the whole suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
