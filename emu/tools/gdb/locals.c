/* emu/tools/gdb/locals.c — the variables kit-emu --dbg can print: from an
 * ELF's DWARF, the parameters and locals in scope at a pc (the function and
 * lexical blocks around it, innermost first), each with its frame-base
 * offset (DW_OP_fbreg, what gcc emits at -O0 against DW_OP_call_frame_cfa)
 * and a summary of its type. Variables in registers or with location lists
 * (optimised code) are listed without a location: gdb is needed there. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "dbg_locals.h"

typedef struct Scan {
  Dwarf_Debug dbg;
  uint64_t pc;
  KitDbgVar *out;
  size_t cap, n;
} Scan;

static bool die_contains(Dwarf_Die die, uint64_t pc) {
  Dwarf_Addr lo, hi;
  Dwarf_Half form;
  enum Dwarf_Form_Class cls;
  if (dwarf_lowpc(die, &lo, NULL) != DW_DLV_OK || dwarf_highpc_b(die, &hi, &form, &cls, NULL) != DW_DLV_OK) return false;
  if (cls == DW_FORM_CLASS_CONSTANT) hi += lo;
  return pc >= lo && pc < hi;
}

static Dwarf_Unsigned udata(Dwarf_Die die, Dwarf_Half at, Dwarf_Unsigned dflt) {
  Dwarf_Attribute a;
  Dwarf_Unsigned v = dflt;
  if (dwarf_attr(die, at, &a, NULL) == DW_DLV_OK) {
    if (dwarf_formudata(a, &v, NULL) != DW_DLV_OK) v = dflt;
    dwarf_dealloc(NULL, a, DW_DLA_ATTR);
  }
  return v;
}

/* the type of die, through typedefs and qualifiers */
static void type_of(Dwarf_Debug dbg, Dwarf_Die die, KitDbgVar *v) {
  v->kind = '?';
  Dwarf_Die t = NULL;
  for (int depth = 0; depth < 16; depth++) {
    Dwarf_Attribute a;
    Dwarf_Off off;
    Dwarf_Die from = t ? t : die;
    if (dwarf_attr(from, DW_AT_type, &a, NULL) != DW_DLV_OK) {
      if (t) break;
      return; /* void */
    }
    int rc = dwarf_global_formref(a, &off, NULL);
    dwarf_dealloc(dbg, a, DW_DLA_ATTR);
    Dwarf_Die next;
    if (rc != DW_DLV_OK || dwarf_offdie_b(dbg, off, 1, &next, NULL) != DW_DLV_OK) break;
    if (t) dwarf_dealloc(dbg, t, DW_DLA_DIE);
    t = next;
    Dwarf_Half tag = 0;
    dwarf_tag(t, &tag, NULL);
    if (tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
        tag == DW_TAG_restrict_type)
      continue;
    if (tag == DW_TAG_pointer_type) {
      v->kind = 'p', v->size = 8;
    } else if (tag == DW_TAG_base_type) {
      Dwarf_Unsigned enc = udata(t, DW_AT_encoding, 0);
      v->size = (unsigned)udata(t, DW_AT_byte_size, 0);
      v->kind = enc == DW_ATE_float ? 'f' : enc == DW_ATE_unsigned || enc == DW_ATE_boolean ? 'u'
              : enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char ? 'c' : 'i';
    } else if (tag == DW_TAG_enumeration_type) {
      v->kind = 'i', v->size = (unsigned)udata(t, DW_AT_byte_size, 4);
    } else {
      v->kind = 'a'; /* array, struct, union: gdb prints those */
    }
    break;
  }
  if (t) dwarf_dealloc(dbg, t, DW_DLA_DIE);
}

static void add_var(Scan *s, Dwarf_Die die, bool param, unsigned depth) {
  if (s->n == s->cap) return;
  KitDbgVar *v = &s->out[s->n];
  memset(v, 0, sizeof *v);
  char *name = NULL;
  if (dwarf_diename(die, &name, NULL) != DW_DLV_OK) return;
  snprintf(v->name, sizeof v->name, "%s", name);
  v->param = param;
  v->depth = depth;
  Dwarf_Attribute a;
  Dwarf_Half form;
  if (dwarf_attr(die, DW_AT_location, &a, NULL) == DW_DLV_OK) {
    Dwarf_Unsigned len;
    Dwarf_Ptr p;
    if (dwarf_whatform(a, &form, NULL) == DW_DLV_OK && form == DW_FORM_exprloc &&
        dwarf_formexprloc(a, &len, &p, NULL) == DW_DLV_OK && len >= 2 && ((unsigned char *)p)[0] == DW_OP_fbreg) {
      /* SLEB128 */
      int64_t off = 0;
      unsigned shift = 0;
      unsigned char *b = (unsigned char *)p + 1, byte;
      size_t i = 1;
      do {
        byte = *b++;
        off |= (int64_t)(byte & 0x7f) << shift;
        shift += 7;
      } while ((byte & 0x80) && ++i < len && shift < 64);
      if (shift < 64 && (byte & 0x40)) off |= -((int64_t)1 << shift);
      v->fb_off = off;
      v->has_loc = true;
    }
    dwarf_dealloc(s->dbg, a, DW_DLA_ATTR);
  }
  type_of(s->dbg, die, v);
  s->n++;
}

/* the DIEs from die on (siblings): into each scope that holds pc */
static void scan(Scan *s, Dwarf_Die die, unsigned depth, bool in_scope) {
  while (die) {
    Dwarf_Half tag = 0;
    dwarf_tag(die, &tag, NULL);
    if (in_scope && (tag == DW_TAG_variable || tag == DW_TAG_formal_parameter))
      add_var(s, die, tag == DW_TAG_formal_parameter, depth);
    bool scope = tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block;
    Dwarf_Die child;
    if (scope && die_contains(die, s->pc) && dwarf_child(die, &child, NULL) == DW_DLV_OK)
      scan(s, child, depth + 1, true);
    else if (tag == DW_TAG_namespace && dwarf_child(die, &child, NULL) == DW_DLV_OK)
      scan(s, child, depth, false);
    Dwarf_Die next;
    int rc = dwarf_siblingof_b(s->dbg, die, 1, &next, NULL);
    dwarf_dealloc(s->dbg, die, DW_DLA_DIE);
    die = rc == DW_DLV_OK ? next : NULL;
  }
}

long kit_dbg_vars(const char *elf, uint64_t pc, KitDbgVar *out, size_t cap) {
  int fd = elf ? open(elf, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) return -1;
  Dwarf_Debug dbg;
  if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL) != DW_DLV_OK) {
    close(fd);
    return -1;
  }
  Scan s = {dbg, pc, out, cap, 0};
  Dwarf_Unsigned hlen, abbr, next, toff;
  Dwarf_Half ver, asz, lsz, xsz, ctype;
  Dwarf_Sig8 sig;
  while (dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &abbr, &asz, &lsz, &xsz, &sig, &toff, &next, &ctype, NULL) ==
         DW_DLV_OK) {
    Dwarf_Die cu, child;
    if (dwarf_siblingof_b(dbg, NULL, 1, &cu, NULL) != DW_DLV_OK) continue;
    if (s.n == 0 && dwarf_child(cu, &child, NULL) == DW_DLV_OK) scan(&s, child, 0, false);
    dwarf_dealloc(dbg, cu, DW_DLA_DIE);
  }
  dwarf_finish(dbg, NULL);
  close(fd);
  return (long)s.n;
}
