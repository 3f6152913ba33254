/* emu/tool_gdb.c — the tool API's calls for debuggers (include/kit/emu_tool.h,
 * "for debuggers"): retranslation of the pages a breakpoint touches, on the
 * translation cache's own invalidation (blocks that may be running wait in
 * its graveyard until the next boundary, as after a guest's munmap), and a
 * flush asked for from another thread, on the path a write to translated
 * code takes from the fault handler (the dispatcher flushes at its next
 * boundary when smc_overflow is set; the entry checks see chain_stop); and
 * the Linux tid and register writes of any guest thread. */
#include "internal.h"
#include "tcache.h"

void kit_emu_flush_code(KitEmu *emu, uint64_t va, uint64_t len) {
  if (!emu || !emu->tc || !len) return;
  /* unlinked exit slots keep their pc (tcache.c, unlink_dead): a block
   * still running leaves through them to the right place */
  if (len >= UINT64_MAX - va) kit_tcache_flush(emu->tc, KIT_EMU_INVAL_TOOL);
  else kit_tcache_invalidate(emu->tc, va, len, KIT_EMU_INVAL_TOOL);
}

void kit_emu_request_flush(KitEmu *emu) {
  if (!emu) return;
  emu->smc_overflow = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  kit_emu_stop_all(emu); /* every guest thread to its next boundary */
}

static KitEmuThread *gdb_thread_at(KitEmu *emu, unsigned vcpu) {
  return emu ? kit_emu_thread_at(emu, vcpu) : NULL;
}

int kit_emu_thread_tid(KitEmu *emu, unsigned vcpu) {
  KitEmuThread *t = gdb_thread_at(emu, vcpu);
  if (!t || !atomic_load(&t->live) || t->done) return 0;
  if (!t->tid && vcpu == 0) return kit_emu_thread_id(emu); /* before the run: the embedder's thread */
  return t->tid;
}

void kit_emu_thread_reg_write(KitEmu *emu, unsigned vcpu, const KitArchReg *reg, uint64_t value) {
  KitEmuThread *t = gdb_thread_at(emu, vcpu);
  if (t && reg && atomic_load(&t->live)) emu->arch->set_reg(t->cpu, reg->num, value);
}
