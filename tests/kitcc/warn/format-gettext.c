/* -Wformat through gettext: the format a translation function returns is
 * checked as its argument, as gcc does for format_arg functions (xz-utils'
 * printf(_("...")) with NLS failed -Werror=format-security) */
#include <libintl.h>
#include <stdio.h>

#define _(s) gettext(s)

void f(int n, const char *s) {
  printf(_("\nWith no FILE, or when FILE is -, read standard input.\n"));
  printf(_("%d files\n"), n);
  printf(_("%d files\n"), s);
  printf(dgettext("xz", "%s\n"), s);
  printf(ngettext("%d file\n", "%d files\n", n), n);
  printf(gettext(s));
}
