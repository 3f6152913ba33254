/* report.c — reports for guest code: a failed inline check or range check in
 * lifted code (the pc is the guest instruction's, frames come from the guest
 * shadow call stack), and the SEGV report for a guest fault, laid out as the
 * native deadly-signal report. */
#include "guest.h"

void kit_guest_report_access(uintptr_t guest_pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, size_t size,
                             bool write, bool fatal) {
  /* the core prints frame #0 as pc - 1 (a return address): hand it pc + 1 */
  kit_san_report_access(guest_pc + 1, bp, sp, addr, size, write, fatal);
}

void kit_guest_check_range(uintptr_t guest_pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, size_t size,
                           bool write, bool fatal) {
  uintptr_t bad = kit_san_region_bad(addr, size);
  if (bad)
    kit_san_report_access(guest_pc + 1, bp, sp, bad, size, write, fatal);
}

void kit_guest_report_segv(uintptr_t pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, bool write) {
  int pid = kit_san_pid();
  /* the guest's view is a 64-bit address space: what x86-64 would call
   * non-canonical is a high address here too */
  bool high = addr >> 47 != 0;
  kit_san_printf("AddressSanitizer:DEADLYSIGNAL\n");
  kit_san_report_begin();
  if (high)
    kit_san_printf("==%d==ERROR: AddressSanitizer: SEGV on unknown address (pc 0x%012lx bp 0x%012lx sp "
                   "0x%012lx T%d)\n", pid, (unsigned long)pc, (unsigned long)bp, (unsigned long)sp,
                   kit_san_tid());
  else
    kit_san_printf("==%d==ERROR: AddressSanitizer: SEGV on unknown address 0x%012lx (pc 0x%012lx bp "
                   "0x%012lx sp 0x%012lx T%d)\n", pid, (unsigned long)addr, (unsigned long)pc,
                   (unsigned long)bp, (unsigned long)sp, kit_san_tid());
  kit_san_printf("==%d==The signal is caused by a %s memory access.\n", pid, write ? "WRITE" : "READ");
  if (high)
    kit_san_printf("==%d==Hint: this fault was caused by a dereference of a high value address (see "
                   "register values below).  Disassemble the provided pc to learn which register was "
                   "used.\n", pid);
  else if (addr < 4096)
    kit_san_printf("==%d==Hint: address points to the zero page.\n", pid);
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  kit_san_print_stack(frames, n);
  kit_san_printf("AddressSanitizer can not provide additional info.\n");
  kit_san_describe_thread(kit_san_tid());
  kit_san_print_summary("SEGV", frames[0]);
  kit_san_report_end(true);
  kit_san_die();
}
