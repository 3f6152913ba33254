/* emu/tools/asan/elf.c — the guest ELF files ASan needs to know: each module (the
 * executable, its dynamic linker, every ELF the guest maps from a file at
 * offset 0) is registered with the guest symbolizer, its writable segments
 * become LSan roots, and its definitions of the malloc family and the string
 * functions (.symtab of static binaries, .dynsym of libc.so) are replaced by
 * the runtime's (kit_emu_replace_function). */
#include "asan.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#define MAX_INTERCEPTS 512
#define MAX_RANGES 128

typedef struct {
  uint64_t pc;
  KitGuestFn fn;
} Intercept;

/* the replaced functions found so far (the emulator's own table, which
 * kit_emu_san_replace fills, is what translation reads) */
static Intercept icepts[MAX_INTERCEPTS];
static size_t nicepts;
static KitGuestRange data[MAX_RANGES];
static size_t ndata;
static uint64_t tls_bytes; /* PT_TLS of the modules: the static TLS blocks */
static char seen[32][512];
static size_t nseen;
static uint64_t exe_lo, exe_hi, interp_lo, interp_hi;

bool kit_emu_san_in_interp(uint64_t pc) { return pc >= interp_lo && pc < interp_hi; }

void kit_emu_san_exe_range(uint64_t *lo, uint64_t *hi) {
  *lo = exe_lo;
  *hi = exe_hi;
}

uint64_t kit_emu_san_tls_bytes(void) { return tls_bytes; }

size_t kit_emu_san_data_ranges(KitGuestRange *out, size_t max) {
  size_t n = ndata < max ? ndata : max;
  memcpy(out, data, n * sizeof *out);
  return n;
}

static void add_intercept(uint64_t pc, KitGuestFn fn) {
  for (size_t i = 0; i < nicepts; i++)
    if (icepts[i].pc == pc) {
      /* aliases (memcmp/bcmp): the first in the table names the frame */
      if (fn < icepts[i].fn) {
        icepts[i].fn = fn;
        kit_guest_sym_set_name(pc, kit_guest_fn_frame_name(fn));
        kit_emu_san_replace(pc, fn);
      }
      return;
    }
  if (nicepts == MAX_INTERCEPTS) return;
  icepts[nicepts++] = (Intercept){pc, fn};
  kit_guest_sym_set_name(pc, kit_guest_fn_frame_name(fn));
  kit_emu_san_replace(pc, fn);
}

static KitGuestFn fn_named(const char *name) {
  for (int f = 1; f < KIT_GFN_COUNT; f++)
    if (!strcmp(kit_guest_fn_libc_name((KitGuestFn)f), name)) return (KitGuestFn)f;
  return KIT_GFN_NONE;
}

/* a function of a module: replaced when it is one the runtime has (a static
 * link leaves libc's hidden definitions LOCAL: any binding counts; IFUNCs
 * are not functions: the guest resolves them) */
/* a static libc's copy of what the dynamic linker does for threads: the
 * DTVs and TLS blocks of new threads (kept by glibc's stack cache, which
 * no root reaches) */
static bool is_tls_allocator(const char *name) {
  static const char *const names[] = {"allocate_dtv", "_dl_allocate_tls", "_dl_allocate_tls_init",
                                      "_dl_resize_dtv", "_dl_update_slotinfo", "__tls_get_addr"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(name, names[i])) return true;
  return false;
}

static void found_function(void *user, const char *name, uint64_t addr, uint64_t size) {
  (void)user;
  KitGuestFn fn = fn_named(name);
  if (fn != KIT_GFN_NONE) add_intercept(addr, fn);
  if (size && is_tls_allocator(name)) kit_guest_lsan_ignore_callers(addr, addr + size);
}

void kit_emu_san_add_elf(KitEmu *emu, const char *path, uint64_t bias, bool is_interp) {
  for (size_t i = 0; i < nseen; i++)
    if (!strcmp(seen[i], path)) return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  GElf_Ehdr eh;
  size_t phn;
  if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || eh.e_machine != kit_emu_arch(emu)->elf_machine ||
      elf_getphdrnum(e, &phn) != 0) {
    if (e) elf_end(e);
    close(fd);
    return;
  }
  if (nseen < sizeof seen / sizeof seen[0]) snprintf(seen[nseen++], sizeof seen[0], "%s", path);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < phn; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
    uint64_t b = bias + ph.p_vaddr;
    if (b < lo) lo = b;
    if (b + ph.p_memsz > hi) hi = b + ph.p_memsz;
    if ((ph.p_flags & PF_W) && ndata < MAX_RANGES) data[ndata++] = (KitGuestRange){b, b + ph.p_memsz};
  }
  for (size_t i = 0; i < phn; i++) {
    GElf_Phdr ph;
    if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_TLS && ph.p_memsz < (1u << 30) &&
        ph.p_align <= 4096)
      tls_bytes += (ph.p_memsz + ph.p_align + 15) & ~15ull;
  }
  if (hi && !strcmp(path, kit_emu_exe_path(emu))) {
    exe_lo = lo;
    exe_hi = hi;
  }
  if (hi) {
    kit_guest_sym_add_module(path, bias, lo, hi);
    /* the dynamic linker's own allocations (DTVs, TLS) are not the program's
     * leaks, and its code is left uninstrumented (see san_pass) */
    if (is_interp) {
      kit_guest_lsan_ignore_callers(lo, hi);
      interp_lo = lo;
      interp_hi = hi;
    }
    else kit_emu_module_functions(emu, path, found_function, NULL);
  }
  elf_end(e);
  close(fd);
}
