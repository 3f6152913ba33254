/* emu/tools/probe/spec.c — parsing and resolving --probe specifications
 * (spec.h): the grammar is SPEC[:print R1,R2...] with SPEC one of FUNC,
 * FUNC+OFF (decimal or 0x hex), FILE:LINE, FUNC%return. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"
#include "spec.h"

static bool is_ident(const char *s, size_t n) {
  if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (size_t i = 1; i < n; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.') return false;
  return true;
}

static int parse_print(const char *list, KitProbeSpec *out, char *err, size_t errsz) {
  const char *p = list;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (!is_ident(p, n) || n >= sizeof out->print[0] || out->nprint == KIT_PROBE_MAX_PRINT) {
      snprintf(err, errsz, "':print %s': expected register names separated by commas (at most %d)", list,
               KIT_PROBE_MAX_PRINT);
      return -1;
    }
    memcpy(out->print[out->nprint], p, n);
    out->print[out->nprint++][n] = 0;
    p += n + (end != NULL);
    if (end && !*p) {
      snprintf(err, errsz, "':print %s': a register name is missing after the last comma", list);
      return -1;
    }
  }
  if (!out->nprint) {
    snprintf(err, errsz, "':print' names no register");
    return -1;
  }
  return 0;
}

int kit_probe_parse(const char *text, KitProbeSpec *out, char *err, size_t errsz) {
  memset(out, 0, sizeof *out);
  char spec[512];
  if (strlen(text) >= sizeof spec) {
    snprintf(err, errsz, "probe '%.40s...': too long", text);
    return -1;
  }
  strcpy(spec, text);
  char *print = strstr(spec, ":print");
  if (print) {
    *print = 0;
    const char *list = print + 6;
    while (*list == ' ' || *list == '=') list++;
    if (parse_print(list, out, err, errsz) < 0) return -1;
  }
  size_t n = strlen(spec);
  char *colon = strrchr(spec, ':'), *plus = strchr(spec, '+'), *pct = strchr(spec, '%');
  char *end;
  if (pct && !strcmp(pct, "%return") && is_ident(spec, (size_t)(pct - spec))) {
    out->kind = KIT_PROBE_RETURN;
    n = (size_t)(pct - spec);
  } else if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) && colon > spec) {
    out->kind = KIT_PROBE_LINE;
    unsigned long line = strtoul(colon + 1, NULL, 10);
    if (line == 0 || line > 10000000 || (size_t)(colon - spec) >= sizeof out->file) {
      snprintf(err, errsz, "probe '%s': the line must be a number from 1", text);
      return -1;
    }
    memcpy(out->file, spec, (size_t)(colon - spec));
    out->line = (uint32_t)line;
    return 0;
  } else if (plus && is_ident(spec, (size_t)(plus - spec))) {
    out->kind = KIT_PROBE_OFFSET;
    out->offset = strtoull(plus + 1, &end, 0);
    if (plus[1] == 0 || *end || plus[1] == '-') {
      snprintf(err, errsz, "probe '%s': FUNC+OFF wants a decimal or 0x offset", text);
      return -1;
    }
    n = (size_t)(plus - spec);
  } else if (is_ident(spec, n)) {
    out->kind = KIT_PROBE_FUNC;
  } else {
    snprintf(err, errsz, "probe '%s': expected FUNC, FUNC+0xOFF, FILE:LINE or FUNC%%return, then optionally :print REG,...",
             text);
    return -1;
  }
  if (n >= sizeof out->func) {
    snprintf(err, errsz, "probe '%s': function name too long", text);
    return -1;
  }
  memcpy(out->func, spec, n);
  out->func[n] = 0;
  return 0;
}

long kit_probe_resolve(const KitProbeSpec *p, const char *elf, uint64_t *out, size_t cap, char *err, size_t errsz) {
  uint64_t addr, size;
  long n;
  uint32_t found;
  switch (p->kind) {
  case KIT_PROBE_FUNC:
    n = kit_debuginfo_function_addrs(elf, p->func, out, cap);
    if (n <= 0) snprintf(err, errsz, "probe %s: no function '%s' in %s", p->func, p->func, elf);
    return n > 0 ? n : -1;
  case KIT_PROBE_OFFSET:
  case KIT_PROBE_RETURN:
    if (kit_debuginfo_symbol(elf, p->func, &addr, &size) < 0) {
      snprintf(err, errsz, "probe %s: no function '%s' in %s", p->func, p->func, elf);
      return -1;
    }
    if (p->kind == KIT_PROBE_OFFSET && size && p->offset >= size) {
      snprintf(err, errsz, "probe %s+0x%llx: past the end of %s (0x%llx bytes)", p->func, (unsigned long long)p->offset,
               p->func, (unsigned long long)size);
      return -1;
    }
    if (cap) out[0] = addr + (p->kind == KIT_PROBE_OFFSET ? p->offset : 0);
    return cap ? 1 : 0;
  case KIT_PROBE_LINE:
    n = kit_debuginfo_line_addrs(elf, p->file, p->line, out, cap, &found);
    if (n < 0) snprintf(err, errsz, "probe %s:%u: %s has no DWARF line table", p->file, p->line, elf);
    else if (n == 0) snprintf(err, errsz, "probe %s:%u: no code at or after that line in %s", p->file, p->line, elf);
    return n > 0 ? n : -1;
  }
  return -1;
}
