#!/usr/bin/env python3
"""tests/emu/layering.py — the emulator core is a one-way pipeline
(docs/emu.md, "Stages"): each file of emu/ belongs to a stage, and a stage
may include the headers of, and call the functions defined in, only its own
stage and the stages before it. Reads every #include "..." of emu/ and the
defined and undefined symbols of each object of libkitemu.a (nm), and also
checks the "may use" rules: tools use the public API (and the tool libraries
in emu/tools/) only, the core reaches
the guest arch through KitArch only.

usage: layering.py SOURCE_DIR LIBKITEMU.a
"""
import os
import re
import subprocess
import sys

# The stages in pipeline order: a file may use its own stage and the ones
# above it in this list, never one below.
STAGES = [
    ("aspace", ["aspace.h", "aspace.c"]),
    ("base", ["internal.h", "base.c", "thread.c", "rlimits.h", "rlimits.c"]),
    ("load", ["loader.h", "loader.c"]),
    ("instrument", ["instrument.h", "instrument.c", "modules.h", "modules.c"]),
    ("cache", ["tcache.h", "tcache.c"]),
    ("blocks", ["blocks.h", "blocks.c"]),
    ("translate", ["seam.h", "seam.c", "chain.h", "chain.c", "translate.h", "translate.c"]),
    ("tiers", ["tier.h", "tier.c", "tier_impl.h", "tier_interp.c", "tier_baseline.c", "tier_llvm.c", "jitload.h",
               "jitload.c"]),
    ("fault", ["fault.h", "fault.c"]),
    ("os", ["os.h", "syscall.h", "syscall.c", "syscall_fs.c", "syscall_mem.c", "syscall_net.c", "syscall_proc.c", "syscall_thread.c", "syscall_exec.c", "signal.c"]),
    ("dispatch", ["dispatch.h", "dispatch.c", "helpers.h", "helpers.c", "stats.h", "stats.c"]),
    ("api", ["emu.c", "main.c", "tool_gdb.c"]),
]
# files that are no stage of the core: the JIT plugin (a separate module)
OUTSIDE = {"jit_plugin.c"}
# headers of the guest arches: the core sees an arch only as a KitArch
ARCH_HEADERS = {"rv64.h", "cpu.h", "lift.h"}

RANK = {f: i for i, (_, files) in enumerate(STAGES) for f in files}
NAME = {i: name for i, (name, _) in enumerate(STAGES)}


def stage(f):
    return "%s (%s)" % (NAME[RANK[f]], f)


def check_includes(emu_dir, errors):
    # headers of the tools and of the tool libraries (emu/tools/*/): what a tool may include
    tool_headers = {f for _, _, fs in os.walk(os.path.join(emu_dir, "tools")) for f in fs if f.endswith(".h")}
    for root, _, files in os.walk(emu_dir):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(root, f), emu_dir)
            tool = rel.startswith("tools" + os.sep)
            text = open(os.path.join(root, f), encoding="utf-8").read()
            for n, line in enumerate(text.splitlines(), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m:
                    continue
                inc = m.group(1)
                where = "emu/%s:%d" % (rel, n)
                base = os.path.basename(inc)
                if base in ARCH_HEADERS:
                    errors.append("%s includes %s: the core reaches an arch through KitArch only" % (where, inc))
                if tool:  # tools stand on the public API, never on the core's own headers
                    core = os.path.exists(os.path.join(emu_dir, base)) and base not in tool_headers
                    if core and not inc.startswith("kit/"):
                        errors.append("%s: a tool includes %s, a header of the emulator core (tools use "
                                      "include/kit/, emu/tools/ and libraries' headers)" % (where, inc))
                    continue
                if inc.startswith("kit/") or base not in RANK or f in OUTSIDE:
                    continue
                if f not in RANK:
                    errors.append("%s: %s is in no stage of tests/emu/layering.py" % (where, f))
                    continue
                if RANK[base] > RANK[f]:
                    errors.append("%s: %s includes %s, a later stage" % (where, stage(f), stage(base)))


def public_api(src):
    names = set()
    for h in ("emu.h", "emu_tool.h"):  # the embedder API and the tool API
        text = open(os.path.join(src, "include", "kit", h), encoding="utf-8").read()
        names |= set(re.findall(r"\b(kit_emu_\w+)\s*\(", text))
    return names


def check_symbols(lib, api, tools, errors):
    out = subprocess.run(["nm", "-P", "-A", lib], check=True, capture_output=True, text=True).stdout
    defined, undefined = {}, {}
    for line in out.splitlines():
        m = re.match(r".*\[([^\]]+)\.o\]: (\S+) (\S)", line)
        if not m:
            continue
        obj, sym, kind = m.groups()
        if kind == "U":
            undefined.setdefault(obj, set()).add(sym)
        elif kind.isupper():
            defined[sym] = obj
    for obj, syms in sorted(undefined.items()):
        for sym in sorted(syms):
            if sym.startswith("kit_rv64_") or sym.startswith("kit_arch_rv64"):
                errors.append("%s.o uses %s: the core reaches an arch through KitArch only" % (obj, sym))
            owner = defined.get(sym)
            if not owner or owner == obj:
                continue
            if obj in tools:
                if sym not in api and owner not in tools:
                    errors.append("%s.o (a tool) uses %s of %s.o, not the public API" % (obj, sym, owner))
                continue
            if obj not in RANK or owner not in RANK:
                if owner not in tools:
                    errors.append("%s.o or %s.o is in no stage of tests/emu/layering.py" % (obj, owner))
                continue
            if RANK[owner] > RANK[obj]:
                errors.append("%s uses %s of %s, a later stage" % (stage(obj), sym, stage(owner)))
    return len(undefined)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, lib = sys.argv[1], sys.argv[2]
    errors = []
    check_includes(os.path.join(src, "emu"), errors)
    # the tools' objects: every source under emu/tools/ (built into libkitemu or not)
    tools = {f for _, _, fs in os.walk(os.path.join(src, "emu", "tools")) for f in fs if f.endswith(".c")}
    nobj = check_symbols(lib, public_api(src), tools, errors)
    if errors:
        print("FAIL: arrows against the pipeline (emu/ stages: %s)" % " > ".join(n for n, _ in STAGES))
        for e in errors:
            print("  " + e)
        sys.exit(1)
    print("ok: %d stages, %d objects, every include and call points back up the pipeline" % (len(STAGES), nobj))


if __name__ == "__main__":
    main()
