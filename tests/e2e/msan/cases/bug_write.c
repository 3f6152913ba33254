/* write(2) of bytes never set */
#include <unistd.h>
int main(void) {
  char buf[8];
  buf[0] = 'a';
  write(1, buf, 8);
  return 0;
}
