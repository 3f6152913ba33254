/* include/kit/emu_tool.h — kit-emu's tool API, version 3: any number of
 * tools, built in or loaded from shared objects, each with a handle to which
 * it adds callbacks. At translation time a tool sees each block (its
 * instructions: pc, bytes, disassembly, symbol) and registers what runs when
 * the block or an instruction executes: a callback with user data chosen
 * then, an inline operation on a counter (no call), a conditional callback,
 * a memory-access callback (with the value, and a verdict that can turn the
 * access into a fault), a register-write callback, a callback on the
 * block's exit edge. Events that need no translation: system calls (with a
 * filter that may skip the call), mappings with their file and offset,
 * signals, threads, exit. docs/tools.md is the guide, with a table of
 * QEMU's plugin API beside this one.
 *
 * Handles (KitEmuTool, KitEmuTb, KitEmuInsn) are opaque; a KitEmuTb and its
 * KitEmuInsns are valid only inside the translation callback that received
 * them. Build a tool with
 *     cc -shared -fPIC $(pkg-config --cflags kit-emu-tool) tool.c -o tool.so
 * and run it with kit-emu --tool=./tool.so[,ARGS] prog. */
#ifndef KIT_EMU_TOOL_H
#define KIT_EMU_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kit/emu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This header's version, and the oldest a tool may have been built for. A
 * loadable tool exports
 *     const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;
 *     int kit_emu_tool_main(KitEmuTool *tool, const char *args);
 * and kit-emu refuses it, in one line naming both versions, when its version
 * is outside [KIT_EMU_TOOL_API_MIN_VERSION, KIT_EMU_TOOL_API_VERSION]. */
#define KIT_EMU_TOOL_API_VERSION 5u
#define KIT_EMU_TOOL_API_MIN_VERSION 3u

typedef struct KitEmuTool KitEmuTool;
typedef struct KitEmuTb KitEmuTb;
typedef struct KitEmuInsn KitEmuInsn;
typedef struct KitEmuScoreboard KitEmuScoreboard;

/* ---- registration ------------------------------------------------------------------------ */

/* A new tool on emu, named for messages ("insncount"), built against
 * `version` (pass KIT_EMU_TOOL_API_VERSION). Tools run in the order they
 * registered: for every event the first registered sees it first. NULL, with
 * one line on err, when the version is not accepted or there are too many
 * tools (KIT_EMU_MAX_TOOLS). Registering while the guest runs retranslates
 * every block (blocks translated before did not ask the new tool). */
#define KIT_EMU_MAX_TOOLS 32
KitEmuTool *kit_emu_tool_register(KitEmu *emu, const char *name, uint32_t version, FILE *err);
/* Remove the tool: its event callbacks stop at once, its execution callbacks
 * with the block running now; the blocks it instrumented
 * (only those) are retranslated before they run again; its scoreboards stay
 * readable until kit_emu_free. Safe inside the tool's own callbacks. */
void kit_emu_tool_detach(KitEmuTool *tool);
KitEmu *kit_emu_tool_emu(const KitEmuTool *tool);
const char *kit_emu_tool_name(const KitEmuTool *tool);
/* the tool named `name`, NULL if none is attached */
KitEmuTool *kit_emu_tool_find(KitEmu *emu, const char *name);

/* ---- translation time -------------------------------------------------------------------- */

/* Called once for every block when it is first translated (again after it is
 * invalidated: self-modifying code, a flush). The block is what the
 * emulator runs as one unit: straight-line instructions from its entry to a
 * branch, a system call or the size limit (direct jumps may be followed:
 * every instruction of a block runs when the block runs, unless one faults). */
typedef void (*KitEmuTbTransCb)(KitEmuTool *tool, KitEmuTb *tb, void *user);
void kit_emu_on_tb_trans(KitEmuTool *tool, KitEmuTbTransCb cb, void *user);

uint64_t kit_emu_tb_pc(const KitEmuTb *tb);
size_t kit_emu_tb_n_insns(const KitEmuTb *tb);
KitEmuInsn *kit_emu_tb_insn(KitEmuTb *tb, size_t i);

/* instruction classes (arch-neutral) */
enum {
  KIT_EMU_INSN_LOAD = 1 << 0,
  KIT_EMU_INSN_STORE = 1 << 1,
  KIT_EMU_INSN_ATOMIC = 1 << 2,
  KIT_EMU_INSN_BRANCH = 1 << 3,   /* conditional */
  KIT_EMU_INSN_JUMP = 1 << 4,     /* unconditional, direct or indirect */
  KIT_EMU_INSN_CALL = 1 << 5,
  KIT_EMU_INSN_RET = 1 << 6,
  KIT_EMU_INSN_INDIRECT = 1 << 7, /* target from a register */
  KIT_EMU_INSN_SYSCALL = 1 << 8,
  KIT_EMU_INSN_TRAP = 1 << 9,     /* breakpoint or illegal */
  KIT_EMU_INSN_FP = 1 << 10,
  KIT_EMU_INSN_CSR = 1 << 11,     /* control/status register access */
  KIT_EMU_INSN_FENCE = 1 << 12,   /* instruction-cache fence */
};
uint64_t kit_emu_insn_pc(const KitEmuInsn *insn);
unsigned kit_emu_insn_size(const KitEmuInsn *insn);
/* copies up to n of its bytes to dst; returns how many */
size_t kit_emu_insn_bytes(const KitEmuInsn *insn, void *dst, size_t n);
/* the encoding as a number (a 16-bit one zero-extended) */
uint32_t kit_emu_insn_raw(const KitEmuInsn *insn);
unsigned kit_emu_insn_class(const KitEmuInsn *insn); /* KIT_EMU_INSN_* */
/* the direct target of a branch or jump, 0 if it has none */
uint64_t kit_emu_insn_target(const KitEmuInsn *insn);
/* objdump-style text ("addi\ta0,a0,1"); valid during the callback */
const char *kit_emu_insn_disas(const KitEmuInsn *insn);
/* "main+0x10" from the guest's symbol tables, NULL when no symbol covers it;
 * valid during the callback */
const char *kit_emu_insn_symbol(const KitEmuInsn *insn);

/* ---- what runs when the code runs ----------------------------------------------------------- */

/* Execution callbacks get the emulator, the guest thread (0 for the first;
 * threads are numbered in order of creation) and the user data of their
 * registration. A block callback runs when the block is entered; an
 * instruction callback runs before that instruction executes. Several tools'
 * callbacks at one point are one call from the generated code. */
typedef void (*KitEmuExecCb)(KitEmu *emu, unsigned vcpu, void *user);
void kit_emu_tb_exec_cb(KitEmuTb *tb, KitEmuExecCb cb, void *user);
void kit_emu_insn_exec_cb(KitEmuInsn *insn, KitEmuExecCb cb, void *user);

/* A scoreboard: one entry of entry_size bytes per guest thread, zeroed, at a
 * fixed address for the emulator's life. KitEmuU64 names a u64 inside it
 * (per thread), or, with score NULL, one shared u64 at `shared`. */
KitEmuScoreboard *kit_emu_scoreboard_new(KitEmuTool *tool, size_t entry_size);
void *kit_emu_scoreboard_entry(KitEmuScoreboard *sb, unsigned vcpu);
unsigned kit_emu_scoreboard_n(const KitEmuScoreboard *sb); /* threads it has entries for */
typedef struct KitEmuU64 {
  KitEmuScoreboard *score;
  size_t offset;     /* within an entry */
  uint64_t *shared;  /* when score is NULL */
} KitEmuU64;
static inline KitEmuU64 kit_emu_u64_per_thread(KitEmuScoreboard *sb, size_t offset) {
  KitEmuU64 u = {sb, offset, NULL};
  return u;
}
static inline KitEmuU64 kit_emu_u64_shared(uint64_t *p) {
  KitEmuU64 u = {NULL, 0, p};
  return u;
}
uint64_t kit_emu_u64_get(KitEmuU64 u, unsigned vcpu);
/* the sum over every thread's entry (the shared value when score is NULL) */
uint64_t kit_emu_u64_sum(KitEmuU64 u);

/* Inline operations: emitted into the generated code, no call. An
 * instruction's ADD counts the instruction when it retires: a block adds its
 * instructions' immediates once, on entry, and a load or store that faults
 * takes back those of itself and the instructions after it. STORE writes
 * imm to u. PUSH (version 4) appends imm to a buffer: u holds a byte
 * offset from the start of u's own scoreboard entry (for a shared u64, from
 * the u64's address), the op stores imm as a u64 there and adds 8 to u.
 * Pushes at one point to one u are one load and one store of u. Put the
 * buffer before u in the entry (a new thread's zeroed u then starts it), and
 * drain it with a conditional callback (`u GE limit`) after the pushes: a
 * record stream written by the generated code with no call per record. */
typedef enum KitEmuInlineOp { KIT_EMU_INLINE_ADD, KIT_EMU_INLINE_STORE, KIT_EMU_INLINE_PUSH } KitEmuInlineOp;
void kit_emu_tb_inline(KitEmuTb *tb, KitEmuInlineOp op, KitEmuU64 u, uint64_t imm);
void kit_emu_insn_inline(KitEmuInsn *insn, KitEmuInlineOp op, KitEmuU64 u, uint64_t imm);

/* Conditional callbacks: cb runs when `u cond imm` holds (unsigned), tested
 * where the registration is (after that point's inline operations). */
typedef enum KitEmuCond {
  KIT_EMU_COND_EQ, KIT_EMU_COND_NE, KIT_EMU_COND_LT, KIT_EMU_COND_LE, KIT_EMU_COND_GT, KIT_EMU_COND_GE
} KitEmuCond;
void kit_emu_tb_cond_cb(KitEmuTb *tb, KitEmuExecCb cb, KitEmuCond cond, KitEmuU64 u, uint64_t imm, void *user);
void kit_emu_insn_cond_cb(KitEmuInsn *insn, KitEmuExecCb cb, KitEmuCond cond, KitEmuU64 u, uint64_t imm,
                          void *user);

/* Memory callbacks: before each load or store of the instruction that rw
 * selects. value is what a store writes, or what a load reads (the memory's
 * contents before it); an atomic read-modify-write is one access, a store,
 * whose value is the memory's contents before it; has_value is false for an
 * access wider than 8 bytes or from memory that cannot be read. DENY makes the access a guest SIGSEGV at the instruction (its
 * address as si_addr): nothing is written, nothing after it runs. Several
 * tools: the first DENY wins, later tools do not see the access. */
enum { KIT_EMU_MEM_R = 1, KIT_EMU_MEM_W = 2, KIT_EMU_MEM_RW = 3 };
typedef enum KitEmuVerdict { KIT_EMU_ALLOW = 0, KIT_EMU_DENY = 1 } KitEmuVerdict;
typedef struct KitEmuMemAccess {
  uint64_t pc, addr, value;
  uint32_t size;
  bool is_store, has_value;
} KitEmuMemAccess;
typedef KitEmuVerdict (*KitEmuMemCb)(KitEmu *emu, unsigned vcpu, const KitEmuMemAccess *a, void *user);
void kit_emu_insn_mem_cb(KitEmuInsn *insn, KitEmuMemCb cb, unsigned rw, void *user);

/* Register writes: after the instruction, every register it wrote (the
 * arch's numbering: kit_emu_regs) with its new value. */
typedef void (*KitEmuRegWriteCb)(KitEmu *emu, unsigned vcpu, uint64_t pc, unsigned reg, uint64_t value,
                                 void *user);
void kit_emu_insn_regw_cb(KitEmuInsn *insn, KitEmuRegWriteCb cb, void *user);

/* The block's exit: after its last instruction, when that is a branch, jump,
 * call or return, with the pc control goes to (a conditional branch not
 * taken too: to is then the fall-through). */
typedef enum KitEmuEdge { KIT_EMU_EDGE_CALL, KIT_EMU_EDGE_RET, KIT_EMU_EDGE_JUMP, KIT_EMU_EDGE_COND } KitEmuEdge;
typedef void (*KitEmuEdgeCb)(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge kind, void *user);
void kit_emu_tb_edge_cb(KitEmuTb *tb, KitEmuEdgeCb cb, void *user);
/* The same, called only when to - lo >= len (unsigned: to outside [lo,
 * lo + len)). The generated code compares, so the exits that stay inside
 * cost no call: a profiler's jumps that stay in a function (version 5). */
void kit_emu_tb_edge_cb_outside(KitEmuTb *tb, KitEmuEdgeCb cb, uint64_t lo, uint64_t len, void *user);

/* Replace the guest function at pc: a call to it runs fn instead, which
 * reads its arguments and writes its result through the registers
 * (kit_emu_reg_role) and returns the pc to go on at (the return address for
 * a plain replacement). Register before the guest runs that code. */
typedef uint64_t (*KitEmuReplaceFn)(KitEmu *emu, unsigned vcpu, uint64_t pc, void *user);
int kit_emu_replace_function(KitEmuTool *tool, uint64_t pc, KitEmuReplaceFn fn, void *user);

/* ---- events --------------------------------------------------------------------------------- */

/* System calls. The entry callback may change the arguments, or answer the
 * call itself: return true with *ret set (>= 0, or -errno) and the kernel
 * never sees it (later tools neither; every tool's exit callback does). */
typedef struct KitEmuSyscall {
  uint64_t nr;      /* the guest's Linux number (kit_emu_syscall_name) */
  uint64_t args[6];
  uint64_t pc;      /* of the system call instruction */
} KitEmuSyscall;
typedef bool (*KitEmuSyscallCb)(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user);
typedef void (*KitEmuSyscallRetCb)(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user);
void kit_emu_on_syscall(KitEmuTool *tool, KitEmuSyscallCb cb, void *user);
void kit_emu_on_syscall_ret(KitEmuTool *tool, KitEmuSyscallRetCb cb, void *user);

/* Guest mappings. A file mapping names its path and offset; the
 * executable, its interpreter and the stack are mappings too. A tool that
 * asks for map events gets the mappings that exist already, at once. */
enum { KIT_EMU_MAPPING_ANON, KIT_EMU_MAPPING_FILE, KIT_EMU_MAPPING_HEAP, KIT_EMU_MAPPING_STACK };
typedef struct KitEmuMapping {
  uint64_t va, len;
  uint8_t prot;       /* KIT_EMU_PROT_* */
  uint8_t kind;       /* KIT_EMU_MAPPING_* */
  const char *path;   /* FILE: the host path; NULL otherwise */
  uint64_t offset;    /* FILE: the file offset of va */
} KitEmuMapping;
typedef void (*KitEmuMapCb)(KitEmu *emu, const KitEmuMapping *m, void *user);
typedef void (*KitEmuUnmapCb)(KitEmu *emu, uint64_t va, uint64_t len, void *user);
typedef void (*KitEmuProtectCb)(KitEmu *emu, uint64_t va, uint64_t len, uint8_t prot, void *user);
void kit_emu_on_map(KitEmuTool *tool, KitEmuMapCb cb, void *user);
void kit_emu_on_unmap(KitEmuTool *tool, KitEmuUnmapCb cb, void *user);
void kit_emu_on_protect(KitEmuTool *tool, KitEmuProtectCb cb, void *user);

/* Translations dropped: the blocks made from guest bytes in [lo, hi) are
 * retranslated before they run again (hi - lo = UINT64_MAX - 0: all of
 * them), and why. Only when something was dropped. */
enum {
  KIT_EMU_INVAL_WRITE = 1,   /* a write to translated code (the guest's store, a system call's write) */
  KIT_EMU_INVAL_UNMAP = 2,   /* munmap, mremap or a mapping over it */
  KIT_EMU_INVAL_PROTECT = 3, /* mprotect took away execute */
  KIT_EMU_INVAL_TOOL = 4,    /* a tool registered, detached or asked for it */
  KIT_EMU_INVAL_FLUSH = 5,   /* the guest flushed its instruction cache (code in shared mappings) */
};
typedef void (*KitEmuInvalidateCb)(KitEmu *emu, uint64_t lo, uint64_t hi, unsigned reason, void *user);
void kit_emu_on_invalidate(KitEmuTool *tool, KitEmuInvalidateCb cb, void *user);

/* Code installed for a block (version 4): the block at pc now runs as
 * machine code of `tier`, compiled from ninsns guest instructions (a trace
 * or region covers the blocks after it too). Until its first such event a
 * block runs in the interpreter. On the guest thread, between blocks. */
enum {
  KIT_EMU_CODE_BASELINE = 1, /* the baseline compiler (cg/baseline) */
  KIT_EMU_CODE_LLVM = 2,     /* LLVM: --tier=1, or the worker's first compile */
  KIT_EMU_CODE_TIER2 = 3,    /* LLVM again, a hot block's trace or region (tier 2) */
};
typedef void (*KitEmuCodeCb)(KitEmu *emu, unsigned vcpu, uint64_t pc, unsigned tier, size_t ninsns, void *user);
void kit_emu_on_code(KitEmuTool *tool, KitEmuCodeCb cb, void *user);

/* A signal about to be delivered to a guest handler, or to end the guest
 * by its default action: number, si_code, si_addr (faults) and the pc it
 * interrupts. */
typedef struct KitEmuSignal {
  int signo, code;
  uint64_t addr, pc;
  bool fatal;         /* no handler: the default action ends the guest */
  uint64_t handler;   /* where the guest's handler starts (0 when fatal) */
} KitEmuSignal;
typedef void (*KitEmuSignalCb)(KitEmu *emu, unsigned vcpu, const KitEmuSignal *s, void *user);
void kit_emu_on_signal(KitEmuTool *tool, KitEmuSignalCb cb, void *user);

/* Guest threads: start (the first thread when the guest starts running) and
 * exit. */
typedef void (*KitEmuThreadCb)(KitEmu *emu, unsigned vcpu, void *user);
void kit_emu_on_thread_start(KitEmuTool *tool, KitEmuThreadCb cb, void *user);
void kit_emu_on_thread_exit(KitEmuTool *tool, KitEmuThreadCb cb, void *user);
/* The running thread changed: `to` runs guest code now, `from` ran last
 * (threads take turns: docs/emu.md, "Threads"). On `to`'s host thread,
 * before it runs guest code again; a tool that keeps the running thread's
 * state in one place (a register shadow) swaps it here. */
typedef void (*KitEmuSwitchCb)(KitEmu *emu, unsigned from, unsigned to, void *user);
void kit_emu_on_thread_switch(KitEmuTool *tool, KitEmuSwitchCb cb, void *user);

/* The guest process is ending: status as a shell would see it (exit code, or
 * 128+sig before a fatal signal's default action). Tools write their results
 * here, in registration order. Also in a fork child when it ends. */
typedef void (*KitEmuExitCb)(KitEmu *emu, int status, void *user);
void kit_emu_on_exit(KitEmuTool *tool, KitEmuExitCb cb, void *user);

/* The guest program is about to be replaced (version 5): its execve of
 * `path` (as the guest named it) passed every check, and kit-emu execs now: a
 * guest program goes on under a new kit-emu with the same tools (Valgrind's
 * --trace-children=yes), a host program natively. Tools write out what they
 * hold, as at exit; the process's other threads end with the exec. Should the
 * exec fail after all, the guest goes on and its system call returns the
 * error. On the thread that execs (vcpu). */
typedef void (*KitEmuExecveCb)(KitEmu *emu, unsigned vcpu, const char *path, void *user);
void kit_emu_on_execve(KitEmuTool *tool, KitEmuExecveCb cb, void *user);

/* ---- services, valid in any callback ---------------------------------------------------------- */

/* The guest's registers, arch-neutral: name, number, bits, group
 * (KIT_ARCH_REG_INT, FLOAT, PC, CSR). */
const KitArchReg *kit_emu_regs(KitEmu *emu, size_t *n);
/* the register named `name` ("sp", "a0", "pc"), NULL if none */
const KitArchReg *kit_emu_reg_find(KitEmu *emu, const char *name);
/* The calling convention's registers by role. */
typedef enum KitEmuRegRole {
  KIT_EMU_ROLE_RA, KIT_EMU_ROLE_SP, KIT_EMU_ROLE_FP, KIT_EMU_ROLE_TP, KIT_EMU_ROLE_RET,
  KIT_EMU_ROLE_ARG0 /* + i for argument i (i < KIT_ARCH_MAX_ARGS) */
} KitEmuRegRole;
const KitArchReg *kit_emu_reg_role(KitEmu *emu, unsigned role);
uint64_t kit_emu_reg_read(KitEmu *emu, const KitArchReg *reg);
void kit_emu_reg_write(KitEmu *emu, const KitArchReg *reg, uint64_t value);

/* the guest thread running now (what execution callbacks get as vcpu) and
 * its Linux thread id */
unsigned kit_emu_vcpu(KitEmu *emu);
int kit_emu_thread_id(KitEmu *emu);
/* Every guest thread: how many were made (vcpus 0 .. n-1), whether thread
 * vcpu is still there (not exited), and its registers (0 for a thread that
 * is gone). Another thread's registers are as it left guest code: at a
 * block boundary or in a system call (docs/emu.md, "Threads"). */
unsigned kit_emu_n_threads(KitEmu *emu);
bool kit_emu_thread_alive(KitEmu *emu, unsigned vcpu);
uint64_t kit_emu_thread_reg_read(KitEmu *emu, unsigned vcpu, const KitArchReg *reg);

/* The guest symbol at pc: the function (ELF symbol) with the offset into
 * it, the module (path of the mapped file), and from DWARF line tables the
 * source file and line when the module has them. 0, or -1 when pc is in no
 * mapped file. */
typedef struct KitEmuSymbol {
  const char *function; /* NULL when no symbol covers pc */
  uint64_t offset;      /* pc - the function's start */
  const char *module;
  uint64_t module_base; /* the load bias of the module */
  const char *file;     /* NULL without line information */
  unsigned line;
} KitEmuSymbol;
int kit_emu_symbolize(KitEmu *emu, uint64_t pc, KitEmuSymbol *out);
/* the address of function `name` in the module loaded from a path ending in
 * `module` (NULL: any module, the executable first); 0 if none */
uint64_t kit_emu_symbol_lookup(KitEmu *emu, const char *module, const char *name);

/* Every function symbol (.symtab, else .dynsym) of the module loaded from
 * path `module` (as kit_emu_exe_path or a file mapping names it): its name,
 * loaded address and size. Returns how many, -1 when no module was loaded
 * from there. */
long kit_emu_module_functions(KitEmu *emu, const char *module,
                              void (*cb)(void *user, const char *name, uint64_t addr, uint64_t size), void *user);

/* ---- for tools that transform generated code ------------------------------------------------ */

/* A pass over each lifted block's CG (see kit_emu_add_pass), owned by the
 * tool (gone when it detaches), and a resolver for the functions its code
 * calls by name (asked before the emulator's own symbols). */
int kit_emu_tool_add_pass(KitEmuTool *tool, KitEmuBlockPass pass, void *user);
void kit_emu_tool_set_resolver(KitEmuTool *tool, void *(*resolve)(void *user, const char *name), void *user);
/* pcs where a block must start (superblocks do not run through them) */
void kit_emu_tool_set_block_starts(KitEmuTool *tool, bool (*is_start)(void *user, uint64_t pc), void *user);
/* Guest memory seen from the host: guest address a is at host base + a for
 * a < size (plus a guard after it that always faults). */
void kit_emu_guest_window(KitEmu *emu, uint8_t **base, uint64_t *size, uint64_t *guard);
/* Map anonymous guest memory for the tool's own use (a runtime's heap):
 * returns its guest address, or 0. */
uint64_t kit_emu_guest_map(KitEmu *emu, uint64_t len, unsigned prot);
void kit_emu_guest_unmap(KitEmu *emu, uint64_t va, uint64_t len);
/* is every byte of guest [va, va+n) mapped with all of prot (KIT_EMU_PROT_*)? */
bool kit_emu_guest_accessible(KitEmu *emu, uint64_t va, uint64_t n, unsigned prot);
/* the guest program's path (the executable loaded), its dynamic linker's
 * path and load bias (NULL and 0 for a static program), the executable's
 * load bias */
const char *kit_emu_exe_path(KitEmu *emu);
const char *kit_emu_interp_path(KitEmu *emu, uint64_t *bias);
uint64_t kit_emu_exe_bias(KitEmu *emu);
/* The guest memory map now: calls cb for every mapping in address order. */
void kit_emu_mappings(KitEmu *emu, KitEmuMapCb cb, void *user);
/* where the guest's heap (brk) lies now */
void kit_emu_brk_range(KitEmu *emu, uint64_t *start, uint64_t *cur);

/* ---- for debuggers (the gdb stub, emu/tools/gdb; implemented in emu/tool_gdb.c) ---------------- */

/* Retranslate the blocks made from guest bytes in [va, va + len) (len
 * UINT64_MAX - va or more: every block) before they run again: a debugger
 * inserting or removing a breakpoint there changes what its translation
 * callback asks for, and only those pages need new code. The block running
 * now finishes as it was translated. Call it on the guest thread (in a
 * callback, or before kit_emu_run), never from another thread. */
void kit_emu_flush_code(KitEmu *emu, uint64_t va, uint64_t len);
/* Retranslate every block at the guest's next block boundary (within a
 * block or two, or when a blocking system call returns): callable from any
 * thread and from a signal handler. A debugger's Ctrl-C uses it so that the
 * guest comes to an instrumented instruction without any instrumentation
 * while it runs freely. */
void kit_emu_request_flush(KitEmu *emu);
/* Threads for a debugger, beside kit_emu_thread_alive and
 * kit_emu_thread_reg_read: the Linux thread id of thread vcpu (0 when it
 * is gone or not started), and a write of one of its registers. Another
 * thread's registers are its state where it left guest code (a block
 * boundary, or a system call, whose result, written when the call returns,
 * replaces what was written to the result register). Call them while the
 * caller holds the execution lock (in a callback): the thread written to
 * does not run then. */
int kit_emu_thread_tid(KitEmu *emu, unsigned vcpu);
/* the Linux thread id of the thread that created thread vcpu (0 for the first thread; version 4) */
int kit_emu_thread_parent_tid(KitEmu *emu, unsigned vcpu);
void kit_emu_thread_reg_write(KitEmu *emu, unsigned vcpu, const KitArchReg *reg, uint64_t value);

#ifdef __cplusplus
}
#endif
#endif
