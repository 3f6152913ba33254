/* emu/os.h — the os stage, beside the dispatcher: the guest's Linux
 * system calls (syscall*.c) and signals (signal.c). */
#ifndef KIT_EMU_OS_H
#define KIT_EMU_OS_H

#include "fault.h"

/* syscall*.c */
int64_t kit_emu_syscall(KitEmu *emu, uint64_t nr, const uint64_t a[6], uint64_t pc);
/* the system call instruction (include/kit/arch.h): the arguments from the
 * CPU, the tools' events, the call, its result */
int64_t kit_emu_syscall_insn(void *cpu, int64_t pc, int64_t next);
int64_t kit_emu_sys_fs(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);
int64_t kit_emu_sys_mem(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);
int64_t kit_emu_sys_proc(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);
int64_t kit_emu_sys_net(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);

/* signal.c */
void kit_emu_signals_init(KitEmu *emu);
/* a new guest thread's host thread: its stack for the fault handler */
void kit_emu_thread_signals_init(void);
/* the guest has a second thread now: host dispositions as several masks need them */
void kit_emu_signals_threaded(KitEmu *emu);
int64_t kit_emu_sys_sigsuspend(KitEmu *emu, uint64_t mask_va);
int64_t kit_emu_sys_sigtimedwait(KitEmu *emu, uint64_t set_va, uint64_t info_va, uint64_t ts_va);
/* A wait with a signal mask (ppoll, pselect6, epoll_pwait; mask_va 0: the
 * thread's own): the guest's mask is the one at mask_va while it waits, as
 * Linux sets it. Host signals are blocked from the test for a deliverable
 * signal until wait(), which gets the host mask to wait under (one that
 * keeps out what the guest's mask blocks) and applies it atomically, so
 * none is lost in between. Interrupted by a signal the mask lets in, the
 * handler runs under it and the old mask is back after the handler (the
 * frame saves it, as sigsuspend's); otherwise at once. Returns wait()'s
 * value, -errno on failure. */
int64_t kit_emu_masked_wait(KitEmu *emu, uint64_t mask_va, uint64_t size,
                            long (*wait)(const sigset_t *host_mask, void *ctx), void *ctx);
/* signalfd(2) (signal.c): signalfd4; a read of one; the descriptors
 * lo..hi going away (close, dup3 over one, close_range); a signal made
 * pending (any thread, a host signal handler too) making those that watch
 * it readable; and whether a call a host signal interrupted with nothing to
 * deliver should run again (a watched signal, kept open to the handler) */
int64_t kit_emu_sys_signalfd(KitEmu *emu, int fd, uint64_t mask_va, uint64_t size, int flags);
bool kit_emu_is_signalfd(KitEmu *emu, int fd);
int64_t kit_emu_signalfd_read(KitEmu *emu, int fd, uint64_t buf_va, uint64_t len);
void kit_emu_signalfd_closed(KitEmu *emu, int lo, int hi);
void kit_emu_signalfd_notify(KitEmu *emu, int sig);
bool kit_emu_signal_restart(KitEmu *emu);
/* syscall_exec.c: execve */
int64_t kit_emu_sys_execve(KitEmu *emu, uint64_t path_va, uint64_t argv_va, uint64_t envp_va);
/* syscall_thread.c: clone of a thread, exit, exit_group, futex, tkill/tgkill, tids */
int64_t kit_emu_sys_thread(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);
int64_t kit_emu_sys_sigaction(KitEmu *emu, int sig, uint64_t act, uint64_t oldact);
int64_t kit_emu_sys_sigprocmask(KitEmu *emu, int how, uint64_t set, uint64_t oldset);
int64_t kit_emu_sys_sigaltstack(KitEmu *emu, uint64_t ss, uint64_t old);
uint64_t kit_emu_sys_sigreturn(KitEmu *emu); /* returns the pc to resume */
/* A host call returned EINTR: should the guest's system call be re-executed
 * after the pending handler (its action has SA_RESTART)? */
bool kit_emu_restart_after_signal(KitEmu *emu);
/* At a block boundary: deliver what is pending (builds a frame, or takes the
 * default action, which may end the process). */
void kit_emu_deliver_signals(KitEmu *emu);
/* the default action of a fatal signal: tools' on_exit, then the host signal */
_Noreturn void kit_emu_die_by_signal(KitEmu *emu, int sig);

#endif
