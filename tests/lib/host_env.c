/* tests/lib/host_env.c — the scratch region and the host helpers tested CG
 * functions call (host_env.h). */
#define _GNU_SOURCE
#include "host_env.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "rng.h"

/* ---- the scratch region ---------------------------------------------------------- */

static unsigned char region_static[REGION] __attribute__((aligned(64)));
unsigned char *region = region_static;
unsigned char region_init[REGION] __attribute__((aligned(64)));
unsigned char *buf = region_static + GUARD;

static bool region_init_fixed(void) {
  void *p = mmap((void *)(uintptr_t)REGION_BASE, REGION, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED && p == (void *)(uintptr_t)REGION_BASE) region = p;
  buf = region + GUARD;
  return region != region_static;
}

void region_randomize(uint64_t seed) {
  Rng r = {seed ^ 0x5bd1e9955bd1e995ull};
  for (size_t i = 0; i < REGION; i += 8) {
    uint64_t v = rng_next(&r);
    memcpy(region_init + i, &v, 8);
  }
  /* some small values and zeros the compares like */
  for (int i = 0; i < 48; i++) region_init[GUARD + rng_below(&r, BUFSZ)] = (unsigned char)rng_below(&r, 3);
}

uint64_t type_mask(KitCgType t) {
  unsigned bits = kit_cg_type_bits(t);
  return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* ---- host helpers -------------------------------------------------------------------- */

LogEnt hlog[LOGMAX];
int nlog;
uint64_t hctr;

static void logc(int id, int n, const uint64_t *a, uintptr_t frame) {
  if (nlog < LOGMAX) {
    LogEnt *e = &hlog[nlog];
    memset(e, 0, sizeof *e);
    e->id = id;
    e->n = n;
    for (int i = 0; i < n; i++) e->a[i] = a[i];
    e->misaligned = (frame & 15) != 0;
  }
  nlog++;
}
#define FRAME ((uintptr_t)__builtin_frame_address(0))

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

static uint64_t kx_h0(void) {
  logc(0, 0, NULL, FRAME);
  return ++hctr * 0x9e3779b97f4a7c15ull;
}
static uint64_t kx_h1(uint64_t a) {
  uint64_t v[1] = {a};
  logc(1, 1, v, FRAME);
  return mix(1 + hctr++, a);
}
static uint32_t kx_h2(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(2, 2, v, FRAME);
  return (uint32_t)mix(mix(2, a), b);
}
static uint64_t kx_h3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t v[3] = {a, b, c};
  logc(3, 3, v, FRAME);
  return mix(mix(mix(3, a), b), c);
}
static uint64_t kx_h4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t v[4] = {a, b, c, d};
  logc(4, 4, v, FRAME);
  return mix(mix(mix(mix(4, a), b), c), d);
}
static uint32_t kx_h5(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
  uint64_t v[5] = {a, b, c, d, e};
  logc(5, 5, v, FRAME);
  return (uint32_t)mix(mix(mix(mix(mix(5, a), b), c), d), e);
}
static uint64_t kx_h6(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f) {
  uint64_t v[6] = {a, b, c, d, e, f};
  logc(6, 6, v, FRAME);
  return mix(mix(mix(mix(mix(mix(6, a), b), c), d), e), f);
}
static void kx_v1(uint64_t a) {
  uint64_t v[1] = {a};
  logc(7, 1, v, FRAME);
  hctr += a & 7;
}
static void kx_v3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t v[3] = {a, b, c};
  logc(8, 3, v, FRAME);
  hctr ^= a + b * 3 + c * 5;
}
static void kx_v6(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e, uint64_t f) {
  uint64_t v[6] = {a, b, c, d, e, f};
  logc(9, 6, v, FRAME);
  hctr += a ^ b ^ c ^ d ^ e ^ f;
}
/* reads 64 bytes at p and writes one: memory effects around calls */
static uint64_t kx_hbuf(void *p, uint64_t a) {
  uint64_t v[2] = {(uint64_t)(uintptr_t)p, a};
  logc(10, 2, v, FRAME);
  unsigned char *q = p;
  uint64_t h = 10;
  for (int i = 0; i < 64; i++) h = h * 31 + q[i];
  q[a & 63] = (unsigned char)(a ^ h);
  return h;
}
/* returns an i32 with garbage in bits 32..63 of rax (the ABI allows it) */
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty32_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty32_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(11, 2, v, FRAME);
  uint64_t r = mix(mix(11, a), b);
  return r | 0x8000000000000000ull;
}
/* i8, i16 and i1 results with garbage above them (for i1: above bit 7; al
 * itself is 0 or 1 as the ABI's _Bool wants) */
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty8_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty8_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(12, 2, v, FRAME);
  return mix(mix(12, a), b) | 0x4000000000000100ull;
}
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty16_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_dirty16_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(13, 2, v, FRAME);
  return mix(mix(13, a), b) | 0x2000000000010000ull;
}
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_bool_impl(uint64_t a, uint64_t b);
__attribute__((visibility("hidden"), noinline, used)) uint64_t kx_bool_impl(uint64_t a, uint64_t b) {
  uint64_t v[2] = {a, b};
  logc(14, 2, v, FRAME);
  return (mix(mix(14, a), b) & 1) | (mix(a, b) & ~0xffull) | 0x100;
}
#define KX_WRAP(name)                                                                                        \
  ".globl " #name "\n.hidden " #name "\n.type " #name ",@function\n" #name ":\n  sub $8, %rsp\n  call " #name \
  "_impl\n  add $8, %rsp\n  ret\n.size " #name ", .-" #name "\n"
#if defined(__x86_64__)
__asm__(".text\n" KX_WRAP(kx_dirty8) KX_WRAP(kx_dirty16) KX_WRAP(kx_bool));
uint8_t kx_dirty8(uint64_t a, uint64_t b);
uint16_t kx_dirty16(uint64_t a, uint64_t b);
bool kx_bool(uint64_t a, uint64_t b);
#else
static uint8_t kx_dirty8(uint64_t a, uint64_t b) { return (uint8_t)kx_dirty8_impl(a, b); }
static uint16_t kx_dirty16(uint64_t a, uint64_t b) { return (uint16_t)kx_dirty16_impl(a, b); }
static bool kx_bool(uint64_t a, uint64_t b) { return kx_bool_impl(a, b) & 1; }
#endif
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl kx_dirty32\n"
        ".hidden kx_dirty32\n"
        ".type kx_dirty32,@function\n"
        "kx_dirty32:\n"
        "  sub $8, %rsp\n"
        "  call kx_dirty32_impl\n"
        "  add $8, %rsp\n"
        "  ret\n"
        ".size kx_dirty32, .-kx_dirty32\n");
uint32_t kx_dirty32(uint64_t a, uint64_t b);
#else
static uint32_t kx_dirty32(uint64_t a, uint64_t b) { return (uint32_t)kx_dirty32_impl(a, b); }
#endif

Helper helpers[NHELPERS] = {
    {"kx_h0", 0, KIT_CG_I64, false, NULL, 0},  {"kx_h1", 1, KIT_CG_I64, false, NULL, 0},   {"kx_h2", 2, KIT_CG_I32, false, NULL, 0},
    {"kx_h3", 3, KIT_CG_I64, false, NULL, 0},  {"kx_h4", 4, KIT_CG_I64, false, NULL, 0},   {"kx_h5", 5, KIT_CG_I32, false, NULL, 0},
    {"kx_h6", 6, KIT_CG_I64, false, NULL, 0},  {"kx_v1", 1, KIT_CG_VOID, false, NULL, 0},  {"kx_v3", 3, KIT_CG_VOID, false, NULL, 0},
    {"kx_v6", 6, KIT_CG_VOID, false, NULL, 0}, {"kx_hbuf", 2, KIT_CG_I64, true, NULL, 0},  {"kx_dirty32", 2, KIT_CG_I32, false, NULL, 0},
    {"kx_dirty8", 2, KIT_CG_I8, false, NULL, 0}, {"kx_dirty16", 2, KIT_CG_I16, false, NULL, 0}, {"kx_bool", 2, KIT_CG_I1, false, NULL, 0},
};
static bool helpers_init(void) {
  helpers[0].addr = (void *)kx_h0;
  helpers[1].addr = (void *)kx_h1;
  helpers[2].addr = (void *)kx_h2;
  helpers[3].addr = (void *)kx_h3;
  helpers[4].addr = (void *)kx_h4;
  helpers[5].addr = (void *)kx_h5;
  helpers[6].addr = (void *)kx_h6;
  helpers[7].addr = (void *)kx_v1;
  helpers[8].addr = (void *)kx_v3;
  helpers[9].addr = (void *)kx_v6;
  helpers[10].addr = (void *)kx_hbuf;
  helpers[11].addr = (void *)kx_dirty32;
  helpers[12].addr = (void *)kx_dirty8;
  helpers[13].addr = (void *)kx_dirty16;
  helpers[14].addr = (void *)kx_bool;
  /* movabs rax, addr; jmp rax at STUB_BASE + 16 * i */
  unsigned char *p = mmap((void *)(uintptr_t)STUB_BASE, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  for (int i = 0; i < NHELPERS; i++) {
    if (p == MAP_FAILED) {
      helpers[i].stub = (uint64_t)(uintptr_t)helpers[i].addr;
      continue;
    }
    unsigned char *q = p + 16 * i;
    uint64_t a = (uint64_t)(uintptr_t)helpers[i].addr;
    q[0] = 0x48, q[1] = 0xb8;
    memcpy(q + 2, &a, 8);
    q[10] = 0xff, q[11] = 0xe0;
    helpers[i].stub = (uint64_t)(uintptr_t)q;
  }
  return p != MAP_FAILED && p == (void *)(uintptr_t)STUB_BASE;
}

bool host_env_init(void) {
  bool fixed = region_init_fixed();
  return helpers_init() && fixed;
}

void host_env_reset(void) {
  memcpy(region, region_init, REGION);
  memset(hlog, 0, sizeof hlog);
  nlog = 0;
  hctr = 0;
}

void *host_resolve(void *user, const char *name) {
  (void)user;
  for (int i = 0; i < NHELPERS; i++)
    if (!strcmp(helpers[i].name, name)) return helpers[i].addr;
  return NULL;
}

KitCgSym helper_sym(KitCgModule *m, int h) {
  KitCgType ps[6];
  for (int i = 0; i < helpers[h].nargs; i++) ps[i] = (i == 0 && helpers[h].bufarg) ? KIT_CG_PTR : KIT_CG_I64;
  return kit_cg_func_declare(m, helpers[h].name, helpers[h].ret, ps, (uint32_t)helpers[h].nargs, false)->sym;
}

uint64_t helper_call_c(int h, const uint64_t *x) {
  switch (h) {
  case 0: return kx_h0();
  case 1: return kx_h1(x[0]);
  case 2: return kx_h2(x[0], x[1]);
  case 3: return kx_h3(x[0], x[1], x[2]);
  case 4: return kx_h4(x[0], x[1], x[2], x[3]);
  case 5: return kx_h5(x[0], x[1], x[2], x[3], x[4]);
  case 6: return kx_h6(x[0], x[1], x[2], x[3], x[4], x[5]);
  case 7: kx_v1(x[0]); return 0;
  case 8: kx_v3(x[0], x[1], x[2]); return 0;
  case 9: kx_v6(x[0], x[1], x[2], x[3], x[4], x[5]); return 0;
  case 10: return kx_hbuf((void *)(uintptr_t)x[0], x[1]);
  case 11: return kx_dirty32(x[0], x[1]);
  case 12: return kx_dirty8(x[0], x[1]);
  case 13: return kx_dirty16(x[0], x[1]);
  default: return kx_bool(x[0], x[1]);
  }
}
