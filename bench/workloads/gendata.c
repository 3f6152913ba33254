/* bench/workloads/gendata.c — deterministic, compressible input for the bzip2
 * workload: lines of pseudo-words, numbers and punctuation from a fixed LCG, so
 * every machine and every run compresses the same bytes.
 * usage: gendata BYTES > file */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 0x2545f4914f6cdd1dull;

static unsigned next(unsigned n) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(state >> 33) % n;
}

int main(int argc, char **argv) {
  long long want = argc > 1 ? atoll(argv[1]) : 20 << 20;
  static const char *syl[] = {"ka", "lo", "mi", "ne", "ru", "sta", "the", "in", "or", "qu",
                              "ex", "ta", "bri", "on", "al", "ver", "pe", "dy", "gon", "ic"};
  char vocab[512][16];
  for (int w = 0; w < 512; w++) {
    int n = 1 + next(4), len = 0;
    for (int s = 0; s < n; s++) len += snprintf(vocab[w] + len, sizeof vocab[w] - len, "%s", syl[next(20)]);
  }
  char line[256];
  long long out = 0;
  while (out < want) {
    int len = 0, words = 4 + next(10);
    for (int i = 0; i < words; i++) {
      /* a skewed choice of words, as in text: small indices are frequent */
      unsigned w = next(512) & next(512);
      len += snprintf(line + len, sizeof line - len, i ? " %s" : "%s", vocab[w]);
      if (next(9) == 0) len += snprintf(line + len, sizeof line - len, " %u", next(100000));
    }
    len += snprintf(line + len, sizeof line - len, "%s\n", next(4) ? "." : "!");
    if (out + len > want) len = (int)(want - out);
    fwrite(line, 1, (size_t)len, stdout);
    out += len;
  }
  return 0;
}
