/* tests/kitcc/gdb/peer.c — the other half of gdb.sh's program, compiled by
 * gcc -g in one run: kitcc's and gcc's debug info in one gdb session. */
struct inner { short a; char tag[4]; };

int peer_sum(const struct inner *in, int n) {
  int total = in->a * n;
  for (int k = 0; in->tag[k]; k++) total += in->tag[k];
  return total; /* BREAK peer */
}
