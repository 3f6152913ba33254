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

uint32_t kit_guest_stack_here(uintptr_t pc) { return kit_san_stack_id(pc + 1, 0); }

void kit_guest_check_range(uintptr_t guest_pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, size_t size,
                           bool write, bool fatal) {
  uintptr_t bad = kit_san_region_bad(addr, size);
  if (bad)
    kit_san_report_access(guest_pc + 1, bp, sp, bad, size, write, fatal);
}

void kit_guest_report_segv(uintptr_t pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, bool write) {
  kit_san_printf("AddressSanitizer:DEADLYSIGNAL\n");
  kit_san_report_begin();
  /* the guest's view is a 64-bit address space: what x86-64 would call
   * non-canonical is a high address here too */
  kit_san_report_deadly("SEGV", pc, bp, sp, addr, addr >> 47 != 0, write);
  kit_san_die();
}
