/* emu/tools/trace_tool/trace_tool.h — kit-emu's --trace and --probe: the
 * built-in tools that stream events to kit's trace format (trace_tool.c)
 * and count hits at probe points (emu/tools/probe/probe_tool.c). */
#ifndef KIT_EMU_TRACE_TOOL_H
#define KIT_EMU_TRACE_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kit/emu_tool.h"

/* --trace=EVENTS --trace-out=DEST [--trace-drop] [--trace-ring=BYTES]:
 * events a comma list (docs/trace-format.md); %p in DEST is the process id.
 * exec_child: this program was started by a traced program's execve, so it
 * writes the first free one of NAME, NAME.2, NAME.3... (NAME: DEST with %p
 * expanded, or DEST.PID when DEST has no %p) and never over a stream.
 * 0, or -1 with one line on err */
int kit_emu_tool_trace_main(KitEmuTool *tool, const char *events, const char *dest, bool drop, size_t ring_bytes,
                            bool exec_child, FILE *err);

/* Is --trace writing a stream? A probe hit as a PROBE record in it (the
 * probe's number, its spec). */
bool kit_emu_trace_on(void);
void kit_emu_trace_probe_hit(KitEmu *emu, unsigned vcpu, uint64_t pc, unsigned index, const char *spec);

/* --probe=SPEC (specs of them): resolved against the executable before the
 * guest starts; 0, or -1 with one line on err naming the spec and why */
int kit_emu_tool_probe_main(KitEmuTool *tool, const char *const *specs, unsigned nspecs, FILE *err);

/* --probe-list FUNC: the function's instructions with their offsets,
 * disassembly and file:line, and the inlined calls in it with their address
 * ranges, on out; 0, or -1 with one line on err */
int kit_emu_tool_probe_list(KitEmu *emu, const char *func, FILE *out, FILE *err);

#endif
