/* emu/instrument.h — the instrument stage: the tools of include/kit/emu_tool.h
 * (registry, handles), what each asked for each block at translation time
 * (a record per block, built once on the guest thread when the block is
 * decoded and read by every tier after), the helpers generated code calls
 * to run those callbacks, and the fan-out of events (system calls,
 * mappings, signals, threads, exit) to the tools in registration order. */
#ifndef KIT_EMU_INSTRUMENT_H
#define KIT_EMU_INSTRUMENT_H

#include "internal.h"
#include "kit/emu_tool.h"

/* One callback registration. */
typedef struct KitEmuCb {
  KitEmuTool *tool;
  union {
    KitEmuExecCb exec;
    KitEmuMemCb mem;
    KitEmuRegWriteCb regw;
    KitEmuEdgeCb edge;
  } fn;
  void *user;
  /* inline ops and conditions: the counter, the operation, the immediate */
  uint64_t *addr;  /* a shared counter's address; NULL: per thread, at area_off */
  size_t area_off; /* of a per-thread counter in each thread's tool area */
  size_t base_off; /* PUSH: the start of the counter's scoreboard entry in the area */
  uint64_t imm;
  uint64_t lo, len; /* edge callbacks: called only when to - lo >= len (len 0: always) */
  uint8_t op;      /* KitEmuInlineOp, or KitEmuCond for a conditional callback */
  uint8_t rw;      /* memory callbacks: KIT_EMU_MEM_* */
} KitEmuCb;

/* A list of registrations at one point; generated code passes its address. */
typedef struct KitEmuCbList {
  uint32_t n;
  uint64_t pc;     /* the instruction (or block) it belongs to */
  uint8_t kind;    /* KitEmuEdge, for an edge list */
  uint16_t regs[8]; /* register-write lists: the registers the instruction writes */
  uint8_t nregs;
  KitEmuCb *cb;
} KitEmuCbList;

/* What the tools asked for one instruction, or (index 0) for its block too.
 * Records are immutable once built; KitDecodedInsn.instr points here, so
 * traces and regions, which copy instructions, carry them along. */
typedef struct KitEmuInstr {
  struct KitEmuTbRec *tb;
  uint32_t index;  /* in its block */
  KitEmuCbList exec, inl, cond, mem, regw; /* inl: ADDs and STOREs in registration order */
  bool has_add;    /* inl holds ADDs (summed at the block's entry, per counter) */
} KitEmuInstr;

typedef struct KitEmuTbRec {
  uint32_t ninsns;
  uint64_t tools;  /* bit per tool id that registered something here */
  KitEmuCbList exec, inl, cond, edge;
  KitEmuInstr *insn; /* ninsns entries */
} KitEmuTbRec;

/* the registry (emu->tools) */
void kit_emu_tools_free(KitEmu *emu);
/* is any tool's translation-time callback registered? */
bool kit_emu_tools_translate(const KitEmu *emu);
/* has a tool asked for a block's exit edge (then calls end blocks)? */
bool kit_emu_tools_edges(const KitEmu *emu);

/* Ask the tools about a freshly decoded block; sets insns[i].instr and
 * returns the record (owned by the block: kit_emu_instr_free), or NULL when
 * nothing was registered for it. Guest thread only. */
KitEmuTbRec *kit_emu_instr_block(KitEmu *emu, KitDecodedInsn *insns, unsigned n);
void kit_emu_instr_free(KitEmuTbRec *r);
/* a load or store of the instruction at index k of the code insns[0..n)
 * faulted: take back the coalesced ADDs of it and the rest of its block */
void kit_emu_instr_fault(KitEmu *emu, const KitDecodedInsn *insns, unsigned n, unsigned k);
/* the running thread's copy of a registration's counter */
uint64_t *kit_emu_instr_counter(KitEmu *emu, const KitEmuCb *c);
/* the tools whose instrumentation insns[0..n) carry (bit per tool id) */
uint64_t kit_emu_instr_tools(const KitDecodedInsn *insns, unsigned n);
/* the replacement of the function at pc (kit_emu_replace_function), NULL if
 * none: generated code hands it to kit_emu_tool_replaced */
const void *kit_emu_instr_replaced(const KitEmu *emu, uint64_t pc);
/* a pass over every lifted block (kit_emu_add_pass; a tool's: kit_emu_tool_add_pass),
 * applied from the dispatcher's next boundary on */
int kit_emu_instr_add_pass(KitEmu *emu, KitEmuBlockPass pass, void *user);
/* blocks must start at pc (a tool's block starts, a replaced function) */
bool kit_emu_instr_block_start(const KitEmu *emu, uint64_t pc);
/* a tool's resolver has a function of this name */
void *kit_emu_instr_resolve(const KitEmu *emu, const char *name);
/* What the translation cache must drop since the last call (the dispatcher
 * does it between blocks, when emu->tools_pending): everything (flush), the
 * blocks of the tools in detached (kit_emu_instr_tools), the blocks at pcs
 * (at most KIT_EMU_MAX_DROP). False when nothing. */
#define KIT_EMU_MAX_DROP 1024
bool kit_emu_tools_take(KitEmu *emu, bool *flush, uint64_t *detached, uint64_t *pcs, unsigned *npcs);

/* helpers generated code calls by name */
void kit_emu_tool_exec(const KitEmuCbList *l);
void kit_emu_tool_cond(const KitEmuCb *c);
void kit_emu_tool_regw(const KitEmuCbList *l);
void kit_emu_tool_edge(const KitEmuCbList *l, int64_t to);
void *kit_emu_tool_mem(void *cpu, const KitEmuCbList *l, int64_t addr, int32_t size_store, int64_t value);
int64_t kit_emu_tool_replaced(void *cpu, int64_t pc, const void *entry);

/* events, in registration order */
bool kit_emu_ev_syscall(KitEmu *emu, KitEmuSyscall *sc, int64_t *ret);
void kit_emu_ev_syscall_ret(KitEmu *emu, const KitEmuSyscall *sc, int64_t ret);
void kit_emu_ev_map(KitEmu *emu, const KitEmuMapping *m);
void kit_emu_ev_unmap(KitEmu *emu, uint64_t va, uint64_t len);
void kit_emu_ev_protect(KitEmu *emu, uint64_t va, uint64_t len, uint8_t prot);
void kit_emu_ev_invalidate(KitEmu *emu, uint64_t lo, uint64_t hi, unsigned reason);
/* code of tier (KIT_EMU_CODE_*) installed for the block at pc, from ninsns guest instructions */
void kit_emu_ev_code(KitEmu *emu, uint64_t pc, unsigned tier, size_t ninsns);
void kit_emu_ev_signal(KitEmu *emu, const KitEmuSignal *s);
void kit_emu_ev_thread(KitEmu *emu, unsigned vcpu, bool start);
void kit_emu_ev_exit(KitEmu *emu, int status);
void kit_emu_ev_execve(KitEmu *emu, const char *path); /* before an execve that passed its checks */
/* the map callback alone (kit_emu_on_map, in emu.c, also replays the
 * mappings there are) */
void kit_emu_tool_set_map(KitEmuTool *t, KitEmuMapCb cb, void *user);

#endif
