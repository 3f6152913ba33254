#!/usr/bin/env bash
# scripts/demo.sh — the main demo (README.md): builds kit, then runs one CG
# program both ways: through the CG interpreter and compiled by LLVM.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
demo=examples/demo.cg
echo "== $demo through the CG interpreter"
build/bin/kit-cg run "$demo"; echo "(exit $?)"
echo "== $demo through the LLVM JIT"
build/bin/kit-cg jit "$demo"; echo "(exit $?)"
echo "== $demo compiled to an object by LLVM, linked by gcc"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
build/bin/kit-cg emit -O2 -o "$tmp/demo.o" "$demo"
gcc "$tmp/demo.o" -o "$tmp/demo" && "$tmp/demo"; echo "(exit $?)"
