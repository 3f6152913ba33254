/* include/kit/arch.h — what a guest ISA provides to the emulator: a decoder
 * (with the control-flow facts tools need), a disassembler, and a lifter from
 * guest blocks to CG. An arch never knows the emulator's tools: guest memory
 * is reached only through the KitLiftEnv callbacks the emulator passes in. */
#ifndef KIT_ARCH_H
#define KIT_ARCH_H

#include "kit/cg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* decode flags */
enum {
  KIT_DECODE_BRANCH = 1 << 0,     /* conditional branch */
  KIT_DECODE_JUMP = 1 << 1,       /* unconditional direct or indirect jump */
  KIT_DECODE_CALL = 1 << 2,       /* jump that links (jal/jalr with rd=ra/t0) */
  KIT_DECODE_RET = 1 << 3,        /* return (jalr x0, 0(ra)) */
  KIT_DECODE_INDIRECT = 1 << 4,   /* target from a register */
  KIT_DECODE_TERMINATOR = 1 << 5, /* ends a block (branches, jumps, ecall, ebreak, fence.i, illegal) */
  KIT_DECODE_SYSCALL = 1 << 6,    /* ecall */
  KIT_DECODE_TRAP = 1 << 7,       /* ebreak or illegal */
  KIT_DECODE_ILLEGAL = 1 << 8,
  KIT_DECODE_MEM_LOAD = 1 << 9,
  KIT_DECODE_MEM_STORE = 1 << 10,
  KIT_DECODE_ATOMIC = 1 << 11,
  KIT_DECODE_FP = 1 << 12,
  KIT_DECODE_CSR = 1 << 13,
  KIT_DECODE_FENCE_I = 1 << 14,
  /* set by the emulator, not the decoder: a direct jump whose block goes on
   * at the target (a superblock), so the lifter only links rd; on a
   * conditional branch, the block goes on at the fall-through (or, with
   * FOLLOW_TAKEN, at the target) and the other side leaves through
   * KitLiftEnv.exit (a side exit) */
  KIT_DECODE_FOLLOWED = 1 << 15,
  KIT_DECODE_FOLLOW_TAKEN = 1 << 16,
  /* set by the emulator: this instruction starts another block of a region
   * (a sequence lifted on its own, reached by branches inside the function) */
  KIT_DECODE_REGION_MEMBER = 1 << 17,
};

/* One decoded instruction, ISA-neutral on the outside. */
typedef struct KitDecodedInsn {
  uint64_t pc;
  uint32_t raw;        /* the encoding (16-bit ones zero-extended) */
  uint8_t len;         /* bytes: 2 or 4 on rv64 */
  uint16_t op;         /* ISA-specific opcode enum */
  uint8_t rd, rs1, rs2, rs3;
  int64_t imm;
  uint32_t flags;      /* KIT_DECODE_* */
  uint64_t target;     /* direct branch/jump target, 0 if none */
  uint8_t rm;          /* float rounding mode field / aq-rl bits / csr misc */
  uint16_t csr;
  /* set by the emulator, not the decoder: what its tools asked for this
   * instruction (NULL: nothing); copies of the instruction carry it along */
  const struct KitEmuInstr *instr;
} KitDecodedInsn;

/* How a lifted block ends (KitLiftEnv.branch). */
enum {
  KIT_LIFT_END_FALL = 0,  /* no branch: on at the next instruction, or an emulator exit */
  KIT_LIFT_END_JUMP,      /* a direct jump to target */
  KIT_LIFT_END_INDIRECT,  /* a jump to a register's value */
  KIT_LIFT_END_COND,      /* to target when `lhs pred rhs` (i64 values), else to fall */
};
typedef struct KitLiftBranch {
  uint8_t kind;           /* KIT_LIFT_END_* */
  KitCgPred pred;         /* COND: the taken condition, compared again where */
  KitCgVal lhs, rhs;      /* the emulator branches on it (after the block's stores) */
  uint64_t target, fall;
} KitLiftBranch;

/* How the lifter reaches guest memory and the CPU state; the emulator fills
 * this in (its memory seam). `cpu` is the CG value of the CPU-state pointer
 * parameter of the block function. */
typedef struct KitLiftEnv KitLiftEnv;
struct KitLiftEnv {
  void *user;
  /* Emit a guest load of `type` (i8..i64, f32, f64) from guest address `addr`
   * (i64) and return the loaded value (zero-extended by the caller if needed).
   * `size` bytes; `pc` is the guest pc of the instruction. */
  KitCgVal (*load)(KitLiftEnv *env, KitCgBuilder *b, KitCgType type, KitCgVal addr, uint64_t pc);
  void (*store)(KitLiftEnv *env, KitCgBuilder *b, KitCgType type, KitCgVal value, KitCgVal addr, uint64_t pc);
  /* Host address of guest address `addr` after the window check, for atomics
   * (the emulator may also route atomics through helpers); may emit a fault path. */
  KitCgVal (*host_addr)(KitLiftEnv *env, KitCgBuilder *b, KitCgVal addr, uint32_t size, bool is_write, uint64_t pc);
  /* End the current CG block by leaving the guest block for guest pc `next`
   * (a side exit; the CPU state, pc included, is already stored); NULL:
   * `ret next`. */
  void (*exit)(KitLiftEnv *env, KitCgBuilder *b, uint64_t next);
  /* The caller stores the guest pc where its exits need it (or they need
   * none): the lifter leaves out its stores of the next pc at the block's
   * end and before `exit`. */
  bool pc_at_exits;
  /* Filled in by the lifter (each lift call clears it first): how the
   * lifted instructions end, so the emulator can branch on it (chaining
   * exits) without reading the lifter's CG back. */
  KitLiftBranch branch;
};

/* Guest events the emulator must handle are lifted as calls to external
 * functions that the emulator defines (resolved by name when the block is
 * executed or jitted); each returns the guest pc to continue at, and the
 * lifter ends the block there:
 *   i64 kit_emu_syscall_insn(ptr cpu, i64 pc, i64 next)  system call at pc
 *   i64 kit_emu_breakpoint(ptr cpu, i64 pc, i64 next)    breakpoint trap (SIGTRAP)
 *   i64 kit_emu_illegal(ptr cpu, i64 pc, i64 next)       undecodable instruction (SIGILL)
 *   i64 kit_emu_icache_flush(ptr cpu, i64 pc, i64 next)  instruction-cache flush
 * (`next` is the pc after the instruction: where a system call or a flush
 * goes on). The lifter stores pc into the CPU state before the call.
 * Helpers the arch implements itself (float rounding/flags, CSRs) are host C
 * functions named kit_<isa>_* in arch/<isa>/ and are resolved the same way.
 * The CPU state's first field is the guest pc (i64, offset 0). */

/* A register as tools, the debugger and reports see it: the number is the
 * one get_reg/set_reg take. */
enum { KIT_ARCH_REG_INT, KIT_ARCH_REG_FLOAT, KIT_ARCH_REG_PC, KIT_ARCH_REG_CSR };
typedef struct KitArchReg {
  const char *name;   /* the ABI name ("sp", "fa0", "fcsr") */
  uint16_t num;       /* get_reg/set_reg number */
  uint8_t bits;       /* 64, or 32 for a 32-bit control register */
  uint8_t group;      /* KIT_ARCH_REG_* */
} KitArchReg;

/* The calling convention's registers (get_reg numbers): what ASan's frames,
 * replaced libc functions, the debugger and tools need. */
#define KIT_ARCH_MAX_ARGS 8
typedef struct KitArchCallConv {
  uint16_t ra;        /* return address (link register) */
  uint16_t sp, fp, tp; /* stack, frame and thread pointer */
  uint16_t ret;       /* integer return value */
  uint16_t args[KIT_ARCH_MAX_ARGS]; /* integer arguments, in order */
} KitArchCallConv;

/* A signal as the emulator delivers it; the arch lays out the frame. */
typedef struct KitArchSignal {
  int32_t signo, code;
  bool has_addr;        /* a fault: si_addr = addr; else si_pid/si_uid */
  uint64_t addr;
  uint32_t pid, uid;
  uint64_t ss_sp, ss_size; /* the alternate stack (uc_stack) */
  int32_t ss_flags;
  uint64_t mask;        /* the signal mask to restore at sigreturn (uc_sigmask) */
  uint64_t handler;     /* where the handler starts */
  uint64_t restorer;    /* where it returns to: the sigreturn trampoline */
} KitArchSignal;

/* Syscalls numbered outside Linux's generic table that the emulator acts
 * on (KitArch.extra_syscalls): a number, a name, and what it means. */
enum { KIT_ARCH_SYS_ENOSYS, KIT_ARCH_SYS_ICACHE_FLUSH };
typedef struct KitArchSyscall {
  uint32_t nr;
  const char *name;
  uint8_t action;     /* KIT_ARCH_SYS_* */
} KitArchSyscall;

/* The operations one guest ISA provides (arch/rv64 exports kit_arch_rv64;
 * arch/arches.c lists every arch by ELF machine). */
typedef struct KitArch {
  const char *name;            /* "riscv64": also what uname's machine says */
  uint16_t elf_machine;        /* EM_RISCV */
  uint32_t cpu_state_size;     /* bytes of the CPU state struct (KitRv64Cpu) */
  uint32_t max_insn_len;
  /* Decode the instruction at pc from bytes (avail bytes readable). Returns
   * its length, or 0 if it is illegal/truncated (insn->flags has ILLEGAL). */
  unsigned (*decode)(const uint8_t *bytes, size_t avail, uint64_t pc, KitDecodedInsn *insn);
  /* objdump-like text ("addi\ta0,a0,1"), returns length written. */
  int (*disasm)(const KitDecodedInsn *insn, char *buf, size_t size);
  /* Lift n decoded instructions (a block ending in a terminator or at the
   * block limit) into the current block of b. The block function has the CG
   * signature `i64 (ptr cpu)`: it returns the next guest pc and has already
   * stored it into the CPU state's pc field (unless env->pc_at_exits). On exit the lifter leaves the
   * builder positioned at a block that has no terminator yet, with the next pc
   * value in *next_pc, so the emulator can append its epilogue (tool shims,
   * chaining) and the RET. Returns 0, or -1 if something cannot be lifted. */
  int (*lift)(KitLiftEnv *env, KitCgBuilder *b, KitCgVal cpu, const KitDecodedInsn *insns, unsigned n,
              KitCgVal *next_pc);
  /* CPU state accessors for tools and the syscall layer */
  uint64_t (*get_reg)(const void *cpu, unsigned reg);
  void (*set_reg)(void *cpu, unsigned reg, uint64_t v);
  uint64_t (*get_pc)(const void *cpu);
  void (*set_pc)(void *cpu, uint64_t pc);
  /* Count n more retired instructions (instret). The lifted code keeps the
   * count at its block-entry value until the block ends; when a load or
   * store faults midway, the emulator adds the instructions before it. */
  void (*retire)(void *cpu, uint64_t n);
  /* The guest address the load, store or atomic `insn` accesses, from the
   * CPU state before it executes (its registers as the lifter flushed them
   * before the access); false if insn does not access memory. A host fault
   * in the guard after the window asks it: the memory seam clamps
   * out-of-window addresses to the guard, so the host address no longer
   * says which one the guest used (docs/emu.md, "The guest window"). */
  bool (*mem_addr)(const void *cpu, const KitDecodedInsn *insn, uint64_t *addr);
  /* The registers (get_reg numbers) insn writes, at most max into regs;
   * returns how many (tools' register-write events). */
  unsigned (*insn_writes)(const KitDecodedInsn *insn, uint16_t *regs, unsigned max);

  /* Registers for tools and gdb, and the calling convention. */
  const KitArchReg *regs;
  unsigned nregs;
  KitArchCallConv cc;

  /* The guest's Linux ABI. The system call's number and six arguments
   * (read when the lifted code calls kit_emu_syscall_insn) and where its
   * result goes. */
  void (*syscall_args)(const void *cpu, uint64_t *nr, uint64_t args[6]);
  void (*syscall_result)(void *cpu, int64_t ret);
  const KitArchSyscall *extra_syscalls;
  unsigned nextra_syscalls;
  /* The signal frame (rt_sigframe): its size and alignment on the stack;
   * build it at guest address `at` (host bytes `frame`, zeroed, size bytes)
   * and enter the handler (registers, pc); restore the CPU from it at
   * rt_sigreturn, returning the pc to resume and the saved mask in *mask. */
  uint32_t sigframe_size, sigframe_align;
  void (*sigframe_build)(void *cpu, void *frame, uint64_t at, const KitArchSignal *sig);
  uint64_t (*sigframe_restore)(void *cpu, const void *frame, uint64_t *mask);
  /* The page the kernel's vdso would hold: code that calls rt_sigreturn
   * (a handler returns to it). */
  const uint8_t *sigreturn_code;
  uint32_t sigreturn_code_len;
  /* auxv: AT_HWCAP and AT_MINSIGSTKSZ */
  uint64_t hwcap;
  uint64_t minsigstksz;
  /* where the cross toolchain's dynamic linker and libraries live when no
   * sysroot is given ("/usr/<triple>") */
  const char *default_sysroot;
  /* How gdb sees the guest (the remote protocol's target description; the
   * gdb stub, docs/gdb.md): NULL when the arch has none. */
  const struct KitArchGdb *gdb;
} KitArch;

/* One register in gdb's numbering: its name for gdb, width, gdb type
 * ("int", "code_ptr", "data_ptr", "ieee_double"), group ("general",
 * "float"), target.xml feature, and the arch register (KitArchReg name)
 * that holds it (several gdb registers may read bits of one: fflags, frm
 * of fcsr). */
typedef struct KitArchGdbReg {
  const char *name;
  unsigned bits;
  const char *type, *group, *feature, *reg;
  uint8_t shift, width; /* the bits of reg it is (width 0: all of it) */
  bool fixed;           /* writes are ignored (a zero register) */
} KitArchGdbReg;
typedef struct KitArchGdb {
  const char *arch; /* gdb's architecture name ("riscv:rv64") */
  const KitArchGdbReg *regs;
  unsigned nregs;
  /* a write watchpoint stops before the access (gdb steps over it and
   * compares the values: "non-steppable" watchpoints) */
  bool watch_before;
} KitArchGdb;

extern const KitArch kit_arch_rv64;

/* arch/arches.c: the arch whose ELF e_machine is `machine`, NULL if none is
 * built; and the list of them (NULL-terminated), for messages. */
const KitArch *kit_arch_for_elf_machine(uint16_t machine);
extern const KitArch *const kit_arches[];

#ifdef __cplusplus
}
#endif
#endif
