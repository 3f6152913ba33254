/* emu/tool_gdb.c — the tool API's calls for debuggers (include/kit/emu_tool.h,
 * "for debuggers"): retranslation of the pages a breakpoint touches, on the
 * translation cache's own invalidation (blocks that may be running wait in
 * its graveyard until the next boundary, as after a guest's munmap). */
#include "internal.h"
#include "tcache.h"

void kit_emu_flush_code(KitEmu *emu, uint64_t va, uint64_t len) {
  if (!emu || !emu->tc) return;
  if (len >= UINT64_MAX - va) kit_tcache_flush(emu->tc);
  else if (len) kit_tcache_invalidate(emu->tc, va, len);
}
