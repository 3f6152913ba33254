/* emu/helpers.c — the emulator's entry points that lifted code calls by
 * name (include/kit/arch.h), and the resolver that finds them (and the tool
 * shims, the seam's, the chain's, the syscall layer's) for every tier. It
 * sits above the stages whose helpers it names. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "instrument.h"
#include "fault.h"
#include "os.h"
#include "translate.h"

/* each is entered from jitted code, which may run without the execution
 * lock (dispatch.c): it takes it first */
int64_t kit_emu_breakpoint(void *cpu, int64_t pc, int64_t next) {
  (void)next;
  kit_emu_gil_ensure(kit_emu_current);
  kit_emu_raise(kit_emu_current, SIGTRAP, 1 /* TRAP_BRKPT */, (uint64_t)pc);
  kit_emu_current->arch->set_pc(cpu, (uint64_t)pc);
  return pc;
}

int64_t kit_emu_illegal(void *cpu, int64_t pc, int64_t next) {
  (void)next;
  kit_emu_gil_ensure(kit_emu_current);
  kit_emu_raise(kit_emu_current, SIGILL, 1 /* ILL_ILLOPC */, (uint64_t)pc);
  kit_emu_current->arch->set_pc(cpu, (uint64_t)pc);
  return pc;
}

int64_t kit_emu_icache_flush(void *cpu, int64_t pc, int64_t next) {
  (void)pc;
  KitEmu *emu = kit_emu_current;
  kit_emu_gil_ensure(emu);
  kit_tcache_sync_shared(emu->tc);
  emu->arch->set_pc(cpu, (uint64_t)next);
  return next;
}

void *kit_emu_resolve(void *user, const char *name) {
  (void)user;
  static const struct {
    const char *name;
    void *fn;
  } tab[] = {
      {"kit_emu_syscall_insn", (void *)kit_emu_syscall_insn},
      {"kit_emu_breakpoint", (void *)kit_emu_breakpoint},
      {"kit_emu_illegal", (void *)kit_emu_illegal},
      {"kit_emu_icache_flush", (void *)kit_emu_icache_flush},
      {"kit_emu_mem_fault", (void *)kit_emu_mem_fault},
      {"kit_emu_tool_exec", (void *)kit_emu_tool_exec},
      {"kit_emu_tool_cond", (void *)kit_emu_tool_cond},
      {"kit_emu_tool_regw", (void *)kit_emu_tool_regw},
      {"kit_emu_tool_edge", (void *)kit_emu_tool_edge},
      {"kit_emu_tool_mem", (void *)kit_emu_tool_mem},
      {"kit_emu_tool_replaced", (void *)kit_emu_tool_replaced},
      {"kit_emu_chain_lookup", (void *)kit_emu_chain_lookup},
      {"kit_emu_chain_miss", (void *)kit_emu_chain_miss},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(tab[i].name, name)) return tab[i].fn;
  size_t np = strlen(KIT_EMU_DIRECT_CALL_PREFIX);
  if (!strncmp(name, KIT_EMU_DIRECT_CALL_PREFIX, np)) /* a tool's callback called directly (translate.c) */
    return (void *)(uintptr_t)strtoull(name + np, NULL, 16);
  void *p = kit_emu_instr_resolve(kit_emu_current, name); /* a tool's, for its pass's calls */
  if (p) return p;
  return dlsym(RTLD_DEFAULT, name);
}
