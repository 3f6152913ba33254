/* emu/loader.c — ELF loading with libelf: the executable (static, static-pie
 * or dynamic), its PT_INTERP from the sysroot, the sigreturn trampoline page,
 * and the initial stack (argv, envp, auxv) as Linux lays it out; what is the
 * guest arch's (trampoline code, hwcap, sysroot) comes from KitArch. */
#include "loader.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>


#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

typedef struct Image {
  uint64_t bias, entry, phdr, phnum, hi;
  bool exec_stack; /* PT_GNU_STACK with PF_X: Linux maps the stack executable */
  char interp[4096];
} Image;

static uint8_t prot_of(uint32_t pf) {
  return (uint8_t)(((pf & PF_R) ? KIT_EMU_PROT_READ : 0) | ((pf & PF_W) ? KIT_EMU_PROT_WRITE : 0) |
                   ((pf & PF_X) ? KIT_EMU_PROT_EXEC : 0));
}

static int fail(FILE *err, const char *path, const char *what) {
  fprintf(err, "kit-emu: %s: %s\n", path, what);
  return -1;
}

/* the ELF header: a 64-bit little-endian executable or shared object of
 * the guest arch, with a sane program header table (count in *nph) */
static int check_header(KitEmu *emu, Elf *e, const char *path, GElf_Ehdr *eh, size_t *nph, FILE *err) {
  char msg[96];
  if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, eh)) return fail(err, path, "not an ELF file");
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
    snprintf(msg, sizeof msg, "not a 64-bit little-endian ELF (%s expected)", emu->arch->name);
    return fail(err, path, msg);
  }
  if (eh->e_machine != emu->arch->elf_machine) {
    snprintf(msg, sizeof msg, "ELF machine %u is not %s", eh->e_machine, emu->arch->name);
    return fail(err, path, msg);
  }
  if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) return fail(err, path, "not an executable or shared object");
  if (elf_getphdrnum(e, nph) != 0 || *nph == 0 || *nph > 256) return fail(err, path, "bad program header table");
  return 0;
}

/* the program headers: the PT_LOAD extent [*lo, *hi), PT_INTERP, PT_PHDR,
 * PT_GNU_STACK */
static int scan_phdrs(Elf *e, int fd, size_t nph, bool is_interp, Image *img, uint64_t *lo, uint64_t *hi,
                      const char *path, FILE *err) {
  *lo = UINT64_MAX, *hi = 0;
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph)) return fail(err, path, "truncated program header");
    if (ph.p_type == PT_LOAD) {
      if (ph.p_memsz < ph.p_filesz || ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
        return fail(err, path, "malformed PT_LOAD segment");
      if (ph.p_vaddr < *lo) *lo = ph.p_vaddr;
      if (ph.p_vaddr + ph.p_memsz > *hi) *hi = ph.p_vaddr + ph.p_memsz;
    } else if (ph.p_type == PT_INTERP && !is_interp) {
      if (ph.p_filesz == 0 || ph.p_filesz >= sizeof img->interp ||
          pread(fd, img->interp, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
        return fail(err, path, "bad PT_INTERP");
      img->interp[ph.p_filesz] = 0;
    } else if (ph.p_type == PT_PHDR) {
      img->phdr = ph.p_vaddr;
    } else if (ph.p_type == PT_GNU_STACK) {
      img->exec_stack = (ph.p_flags & PF_X) != 0;
    }
  }
  if (*lo == UINT64_MAX) return fail(err, path, "no PT_LOAD segment");
  return 0;
}

/* where the image goes: a shared object where Linux would put it */
static int place(KitEmu *emu, const GElf_Ehdr *eh, bool is_interp, uint64_t lo, uint64_t hi, Image *img,
                 const char *path, FILE *err) {
  if (hi - lo > emu->as.size / 2) return fail(err, path, "segments too large for the guest address space");
  if (eh->e_type == ET_DYN) {
    /* Linux's ELF_ET_DYN_BASE: 2/3 of the address space (0x2aaaaaa000 in a 39-bit one) */
    uint64_t want = is_interp ? 0 : emu->as.size / 3 * 2 & ~(KIT_EMU_PAGE - 1);
    uint64_t at = kit_aspace_find_free(&emu->as, hi - lo + KIT_EMU_PAGE, want);
    if (!at) return fail(err, path, "no room to load");
    img->bias = at - lo;
  } else if (hi > emu->as.size) {
    return fail(err, path, "segment address outside the guest address space");
  }
  return 0;
}

/* anonymous RW first, then file bytes, then the final permissions: works
 * for any offset/address alignment a linker produced */
static int map_segments(KitEmu *emu, Elf *e, int fd, const GElf_Ehdr *eh, size_t nph, Image *img, const char *path,
                        FILE *err) {
  char real[4096];
  const char *file = realpath(path, real) ? real : path;
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr ph;
    gelf_getphdr(e, (int)i, &ph);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    uint64_t va = ph.p_vaddr + img->bias, start = va & ~(KIT_EMU_PAGE - 1);
    uint64_t end = (va + ph.p_memsz + KIT_EMU_PAGE - 1) & ~(KIT_EMU_PAGE - 1);
    /* the file and offset the mapping shows tools (it is filled by pread) */
    emu->map_src.path = file;
    emu->map_src.off = ph.p_offset >= va - start ? ph.p_offset - (va - start) : 0;
    int64_t r = kit_aspace_map(&emu->as, start, end - start, KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE,
                               KIT_EMU_MAP_FIXED, -1, 0);
    emu->map_src.path = NULL;
    emu->map_src.off = 0;
    if (r < 0) return fail(err, path, "cannot map a segment");
    if (ph.p_filesz && pread(fd, kit_aspace_host(&emu->as, va), ph.p_filesz, (off_t)ph.p_offset) !=
                           (ssize_t)ph.p_filesz)
      return fail(err, path, "segment extends past the end of the file");
    if (!img->phdr && ph.p_offset <= eh->e_phoff && eh->e_phoff < ph.p_offset + ph.p_filesz)
      img->phdr = ph.p_vaddr + (eh->e_phoff - ph.p_offset);
  }
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr ph;
    gelf_getphdr(e, (int)i, &ph);
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    uint64_t va = ph.p_vaddr + img->bias, start = va & ~(KIT_EMU_PAGE - 1);
    kit_aspace_protect(&emu->as, start, va + ph.p_memsz - start, prot_of(ph.p_flags));
  }
  return 0;
}

static int load_image(KitEmu *emu, const char *path, bool is_interp, Image *img, FILE *err) {
  memset(img, 0, sizeof *img);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fprintf(err, "kit-emu: %s: %s\n", path, strerror(errno));
    return -1;
  }
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  GElf_Ehdr eh;
  size_t nph = 0;
  uint64_t lo, hi;
  int rc = -1;
  if (check_header(emu, e, path, &eh, &nph, err) == 0 && scan_phdrs(e, fd, nph, is_interp, img, &lo, &hi, path, err) == 0 &&
      place(emu, &eh, is_interp, lo & ~(KIT_EMU_PAGE - 1), hi, img, path, err) == 0 &&
      map_segments(emu, e, fd, &eh, nph, img, path, err) == 0) {
    if (img->phdr) img->phdr += img->bias;
    img->phnum = nph;
    img->entry = eh.e_entry + img->bias;
    img->hi = hi + img->bias;
    rc = 0;
  }
  if (e) elf_end(e);
  close(fd);
  return rc;
}

uint16_t kit_emu_elf_machine(const char *path, FILE *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fprintf(err, "kit-emu: %s: %s\n", path, strerror(errno));
    return 0;
  }
  unsigned char h[20];
  ssize_t n = pread(fd, h, sizeof h, 0);
  close(fd);
  if (n != (ssize_t)sizeof h || memcmp(h, ELFMAG, SELFMAG) != 0) {
    fail(err, path, "not an ELF file");
    return 0;
  }
  /* e_machine, in the file's byte order */
  return h[EI_DATA] == ELFDATA2MSB ? (uint16_t)(h[18] << 8 | h[19]) : (uint16_t)(h[19] << 8 | h[18]);
}

/* -L, else $KIT_EMU_SYSROOT, else the arch's default when it exists (*dflt) */
static const char *pick_sysroot(KitEmu *emu, bool *dflt) {
  *dflt = false;
  if (emu->opt.sysroot) return emu->opt.sysroot;
  const char *env = getenv("KIT_EMU_SYSROOT");
  if (env && *env) return env;
  const char *def = emu->arch->default_sysroot;
  *dflt = true;
  if (def && access(def, F_OK) == 0) return def;
  return "";
}

/* the page the kernel's vdso would provide: rt_sigreturn for handler returns */
static int map_trampoline(KitEmu *emu) {
  const KitArch *ar = emu->arch;
  if (ar->sigreturn_code_len > KIT_EMU_PAGE) return -1;
  int64_t at = kit_aspace_map(&emu->as, 0, KIT_EMU_PAGE, KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE, 0, -1, 0);
  if (at < 0) return -1;
  memcpy(kit_aspace_host(&emu->as, (uint64_t)at), ar->sigreturn_code, ar->sigreturn_code_len);
  kit_aspace_protect(&emu->as, (uint64_t)at, KIT_EMU_PAGE, KIT_EMU_PROT_READ | KIT_EMU_PROT_EXEC);
  emu->sigreturn_tramp = (uint64_t)at;
  return 0;
}

static uint64_t push_bytes(KitEmu *emu, uint64_t *sp, const void *p, size_t n) {
  *sp -= n;
  memcpy(kit_aspace_host(&emu->as, *sp), p, n);
  return *sp;
}

static int build_stack(KitEmu *emu, const Image *exe, int argc, char **argv, char **envp, FILE *err) {
  uint64_t top = emu->as.size - 16 * KIT_EMU_PAGE;
  int64_t st = kit_aspace_map(&emu->as, top - emu->stack_size, emu->stack_size,
                              KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE | (exe->exec_stack ? KIT_EMU_PROT_EXEC : 0),
                              KIT_EMU_MAP_FIXED | KIT_EMU_MAP_STACK, -1, 0);
  if (st < 0) return fail(err, emu->exe_path, "cannot map the stack");
  int envc = 0;
  while (envp && envp[envc]) envc++;
  size_t strbytes = strlen(emu->exe_path) + 1 + 64;
  for (int i = 0; i < argc; i++) strbytes += strlen(argv[i]) + 1;
  for (int i = 0; i < envc; i++) strbytes += strlen(envp[i]) + 1;
  if (strbytes + (size_t)(argc + envc + 64) * 8 > emu->stack_size / 2)
    return fail(err, emu->exe_path, "arguments and environment too large");
  uint64_t sp = top;
  uint64_t execfn = push_bytes(emu, &sp, emu->exe_path, strlen(emu->exe_path) + 1);
  uint64_t *av = calloc((size_t)argc + 1, 8), *ev = calloc((size_t)envc + 1, 8);
  for (int i = argc - 1; i >= 0; i--) av[i] = push_bytes(emu, &sp, argv[i], strlen(argv[i]) + 1);
  emu->arg_start = argc ? av[0] : sp, emu->arg_end = argc ? av[argc - 1] + strlen(argv[argc - 1]) + 1 : sp;
  for (int i = envc - 1; i >= 0; i--) ev[i] = push_bytes(emu, &sp, envp[i], strlen(envp[i]) + 1);
  emu->env_start = envc ? ev[0] : sp, emu->env_end = envc ? ev[envc - 1] + strlen(envp[envc - 1]) + 1 : sp;
  uint8_t rnd[16];
  if (getrandom(rnd, sizeof rnd, 0) != sizeof rnd) memset(rnd, 0x5a, sizeof rnd);
  sp &= ~15ull;
  uint64_t at_random = push_bytes(emu, &sp, rnd, sizeof rnd);
  uint64_t aux[][2] = {
      {AT_HWCAP, emu->arch->hwcap},
      {AT_PAGESZ, KIT_EMU_PAGE},
      {AT_CLKTCK, 100},
      {AT_PHDR, exe->phdr},
      {AT_PHENT, 56},
      {AT_PHNUM, exe->phnum},
      {AT_BASE, emu->interp_base},
      {AT_FLAGS, 0},
      {AT_ENTRY, exe->entry},
      {AT_UID, getuid()},
      {AT_EUID, geteuid()},
      {AT_GID, getgid()},
      {AT_EGID, getegid()},
      {AT_SECURE, 0},
      {AT_RANDOM, at_random},
      {AT_EXECFN, execfn},
      {AT_MINSIGSTKSZ, emu->arch->minsigstksz},
      {AT_NULL, 0},
  };
  size_t words = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * (sizeof aux / sizeof aux[0]);
  sp = (sp - words * 8) & ~15ull;
  uint64_t *w = kit_aspace_host(&emu->as, sp);
  size_t k = 0;
  w[k++] = (uint64_t)argc;
  for (int i = 0; i < argc; i++) w[k++] = av[i];
  w[k++] = 0;
  for (int i = 0; i < envc; i++) w[k++] = ev[i];
  w[k++] = 0;
  for (size_t i = 0; i < sizeof aux / sizeof aux[0]; i++) w[k++] = aux[i][0], w[k++] = aux[i][1];
  _Static_assert(sizeof aux <= sizeof emu->auxv, "KitEmu.auxv holds the auxv");
  memcpy(emu->auxv, aux, sizeof aux);
  emu->auxv_words = (unsigned)(sizeof aux / 8);
  free(av);
  free(ev);
  emu->arch->set_reg(kit_emu_cpu(emu), KIT_EMU_REG(emu, sp), sp);
  return 0;
}

int kit_emu_load(KitEmu *emu, int argc, char **argv, char **envp, FILE *err) {
  if (elf_version(EV_CURRENT) == EV_NONE) return fail(err, argv[0], "libelf initialization failed");
  if (!realpath(argv[0], emu->exe_path)) snprintf(emu->exe_path, sizeof emu->exe_path, "%s", argv[0]);
  bool dflt;
  snprintf(emu->sysroot, sizeof emu->sysroot, "%s", pick_sysroot(emu, &dflt));
  Image exe, interp;
  if (load_image(emu, argv[0], false, &exe, err) < 0) return -1;
  /* the default sysroot is for a dynamic program's loader and libraries; a
   * static one sees the host's paths, as under qemu without -L
   * (busybox du -s /bin must measure the host's /bin) */
  if (dflt && !exe.interp[0]) emu->sysroot[0] = 0;
  kit_aspace_set_brk(&emu->as, (exe.hi + KIT_EMU_PAGE - 1) & ~(KIT_EMU_PAGE - 1));
  emu->entry = exe.entry;
  emu->load_bias = exe.bias;
  if (exe.interp[0]) {
    char path[8192];
    snprintf(path, sizeof path, "%s%s", emu->sysroot, exe.interp);
    if (access(path, R_OK) != 0) snprintf(path, sizeof path, "%s", exe.interp);
    if (access(path, R_OK) != 0) {
      fprintf(err, "kit-emu: %s: interpreter %s not found (give the sysroot with -L DIR or KIT_EMU_SYSROOT)\n",
              argv[0], exe.interp);
      return -1;
    }
    if (load_image(emu, path, true, &interp, err) < 0) return -1;
    if (!realpath(path, emu->interp_path)) snprintf(emu->interp_path, sizeof emu->interp_path, "%s", path);
    emu->interp_base = interp.bias;
    emu->entry = interp.entry;
  }
  emu->phdr = exe.phdr;
  emu->phnum = exe.phnum;
  if (map_trampoline(emu) < 0) return fail(err, argv[0], "cannot map the signal trampoline");
  /* -0: the guest sees another argv[0]; the program loaded and /proc/self/exe stay argv[0] */
  char *path = argv[0];
  if (emu->opt.argv0) argv[0] = (char *)emu->opt.argv0;
  int rc = build_stack(emu, &exe, argc, argv, envp, err);
  argv[0] = path;
  if (rc < 0) return -1;
  emu->arch->set_pc(kit_emu_cpu(emu), emu->entry);
  return 0;
}
