/* tests/cpp/test_cpp_api.c — cmocka tests of the preprocessor's interface
 * (token.h): token kinds, flags and positions, expansion positions, the
 * pragma callback, diagnostics, source lines and the dependency list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "token.h"

static CPP *open_text(const char *text, FILE *err) {
  CPPOptions o = {.std_version = 201710L, .gnu = true, .no_std_inc = true, .err = err};
  CPP *pp = cpp_new(&o);
  assert_non_null(pp);
  assert_int_equal(cpp_open_buffer(pp, "t.c", text, strlen(text)), 0);
  return pp;
}

static void expect(CPP *pp, CTokKind kind, const char *text, uint32_t line, uint32_t col) {
  const CTok *t = cpp_next(pp);
  assert_int_equal(t->kind, kind);
  assert_string_equal(t->text, text);
  assert_int_equal(t->len, strlen(text));
  assert_int_equal(t->pos.line, line);
  assert_int_equal(t->pos.col, col);
}

static void test_kinds_and_positions(void **state) {
  (void)state;
  CPP *pp = open_text("int x=1.5e+3;\n  y 'c' L\"s\" \"a\" \"b\" <: @\n", NULL);
  const CTok *t = cpp_next(pp);
  assert_int_equal(t->kind, CT_IDENT);
  assert_string_equal(t->text, "int");
  assert_true(t->bol);
  t = cpp_next(pp);
  assert_string_equal(t->text, "x");
  assert_true(t->space);
  assert_false(t->bol);
  t = cpp_next(pp);
  assert_int_equal(t->kind, CT_PUNCT);
  assert_false(t->space);
  expect(pp, CT_NUMBER, "1.5e+3", 1, 7);
  expect(pp, CT_PUNCT, ";", 1, 13);
  t = cpp_next(pp);
  assert_true(t->bol);
  assert_int_equal(t->pos.line, 2);
  assert_int_equal(t->pos.col, 3);
  expect(pp, CT_CHAR, "'c'", 2, 5);
  expect(pp, CT_STRING, "L\"s\"", 2, 9);
  expect(pp, CT_STRING, "\"a\"", 2, 14); /* adjacent literals stay apart */
  expect(pp, CT_STRING, "\"b\"", 2, 18);
  expect(pp, CT_PUNCT, "[", 2, 22);      /* digraphs arrive canonical */
  expect(pp, CT_OTHER, "@", 2, 25);
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  assert_int_equal(cpp_errors(pp), 0);
  cpp_free(pp);
}

static void test_expansion_positions(void **state) {
  (void)state;
  CPP *pp = open_text("#define M(x) a + x\n\n   M(b)\n", NULL);
  const CTok *t = cpp_next(pp);
  assert_string_equal(t->text, "a");
  assert_int_equal(t->pos.line, 1);   /* written in the definition */
  assert_int_equal(t->exp.line, 3);   /* used on line 3 */
  assert_int_equal(t->exp.col, 4);
  assert_true(t->bol);
  t = cpp_next(pp);
  assert_string_equal(t->text, "+");
  t = cpp_next(pp);
  assert_string_equal(t->text, "b");
  assert_int_equal(t->pos.line, 3);
  assert_int_equal(t->pos.col, 6);
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  cpp_free(pp);
}

typedef struct Seen {
  int calls;
  char text[256];
} Seen;

static void on_pragma(void *user, const CTok *toks, size_t n) {
  Seen *s = user;
  s->calls++;
  for (size_t i = 0; i < n; i++) {
    strncat(s->text, toks[i].text, sizeof s->text - strlen(s->text) - 2);
    strcat(s->text, " ");
  }
  strcat(s->text, "|");
}

static void test_pragma_callback(void **state) {
  (void)state;
  Seen seen = {0};
  CPP *pp = open_text("#pragma weak foo\nx _Pragma(\"GCC visibility push(default)\") y\n"
                      "#pragma once\n", NULL);
  cpp_on_pragma(pp, on_pragma, &seen);
  assert_string_equal(cpp_next(pp)->text, "x");
  assert_string_equal(cpp_next(pp)->text, "y");
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  assert_int_equal(seen.calls, 2); /* `once` is the preprocessor's own */
  assert_string_equal(seen.text, "weak foo |GCC visibility push ( default ) |");
  cpp_free(pp);
}

static void test_diagnostics(void **state) {
  (void)state;
  char *buf = NULL;
  size_t len = 0;
  FILE *err = open_memstream(&buf, &len);
  CPP *pp = open_text("ok\n#error stop\n#if\n#endif\n#warning w\n", err);
  assert_string_equal(cpp_next(pp)->text, "ok");
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  assert_int_equal(cpp_errors(pp), 2);
  fflush(err);
  assert_non_null(strstr(buf, "t.c:2:2: error: #error stop\n    2 | #error stop\n      |  ^\n"));
  assert_non_null(strstr(buf, "t.c:3:2: error: #if with no expression"));
  assert_non_null(strstr(buf, "t.c:5:2: warning: #warning w"));
  size_t n;
  const char *line = cpp_source_line(pp, 0, 2, &n);
  assert_non_null(line);
  assert_int_equal(n, 11);
  assert_memory_equal(line, "#error stop", 11);
  assert_null(cpp_source_line(pp, 0, 99, &n));
  cpp_free(pp);
  fclose(err);
  free(buf);
}

static void test_files_and_deps(void **state) {
  (void)state;
  char dir[] = "/tmp/kitcpp-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256], hdr[256];
  snprintf(hdr, sizeof hdr, "%s/h.h", dir);
  snprintf(path, sizeof path, "%s/m.c", dir);
  FILE *f = fopen(hdr, "w");
  fputs("#pragma once\nint h;\n", f);
  fclose(f);
  f = fopen(path, "w");
  fputs("#include \"h.h\"\n#include \"h.h\"\n__FILE__\n", f);
  fclose(f);
  CPPOptions o = {.std_version = 201710L, .no_std_inc = true};
  CPP *pp = cpp_new(&o);
  assert_int_equal(cpp_open_file(pp, path), 0);
  const CTok *t = cpp_next(pp);
  assert_string_equal(t->text, "int");
  assert_string_equal(cpp_file_name(pp, t->pos.file), hdr);
  assert_string_equal(cpp_next(pp)->text, "h");
  assert_string_equal(cpp_next(pp)->text, ";");
  t = cpp_next(pp); /* h.h only once */
  assert_int_equal(t->kind, CT_STRING);
  char want[300];
  snprintf(want, sizeof want, "\"%s\"", path);
  assert_string_equal(t->text, want);
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  const char **deps;
  size_t nd = cpp_deps(pp, &deps);
  assert_int_equal(nd, 2);
  assert_string_equal(deps[0], path);
  assert_string_equal(deps[1], hdr);
  cpp_free(pp);
  assert_int_equal(cpp_open_file(pp = cpp_new(&(CPPOptions){.err = fopen("/dev/null", "w")}),
                                 "/nonexistent/kit.c"), -1);
  cpp_free(pp);
  remove(hdr);
  remove(path);
  rmdir(dir);
}

static void test_defines_option(void **state) {
  (void)state;
  /* in command-line order: C is defined, undefined, defined again; D the reverse */
  const char *macros[] = {"A", "B=2+x", "F(x)=[x]", "-__STDC_HOSTED__", "C=1", "-C", "C=3", "D", "-D"};
  CPPOptions o = {.std_version = 201112L, .no_std_inc = true, .macros = macros, .nmacros = 9};
  CPP *pp = cpp_new(&o);
  const char *src = "A B F(1) __STDC_VERSION__ __STDC_HOSTED__ linux C D";
  assert_int_equal(cpp_open_buffer(pp, "d.c", src, strlen(src)), 0);
  const char *want[] = {"1", "2", "+", "x", "[", "1", "]", "201112L", "__STDC_HOSTED__", "linux", "3", "D"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) assert_string_equal(cpp_next(pp)->text, want[i]);
  assert_int_equal(cpp_next(pp)->kind, CT_EOF);
  cpp_free(pp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_kinds_and_positions), cmocka_unit_test(test_expansion_positions),
    cmocka_unit_test(test_pragma_callback),     cmocka_unit_test(test_diagnostics),
    cmocka_unit_test(test_files_and_deps),      cmocka_unit_test(test_defines_option),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
