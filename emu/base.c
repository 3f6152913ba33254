/* emu/base.c — what every stage of the emulator shares: the running
 * emulator, warnings on its log, and raising a synchronous guest signal
 * (delivered at the next block boundary by the os stage). */
#include <stdarg.h>

#include "internal.h"

KitEmu *kit_emu_current;

void kit_emu_warn(KitEmu *emu, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("kit-emu: ", emu->log);
  vfprintf(emu->log, fmt, ap);
  fputc('\n', emu->log);
  va_end(ap);
}

bool kit_emu_sync_only(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

void kit_emu_raise(KitEmu *emu, int sig, int code, uint64_t addr) {
  if (sig <= 0 || sig >= KIT_EMU_NSIG) return;
  kit_thr(emu)->sync_pending |= (1ull << (sig - 1));
  kit_thr(emu)->chain_stop = 1;
  if (kit_emu_sync_only(sig) && code > 0) {
    kit_thr(emu)->fault_addr = addr;
    kit_thr(emu)->fault_code = code;
  }
}
