/* emu/tools/gdb/rsp.c — GDB remote protocol packets: `$data#xx` framing with
 * its checksum, '+'/'-' acknowledgements until QStartNoAckMode, '}' escapes,
 * and the out-of-band 0x03 that asks a running program to stop. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rsp.h"

void kit_rsp_init(KitRsp *r, int fd, int out_fd) {
  memset(r, 0, sizeof *r);
  r->fd = fd;
  r->out_fd = out_fd;
}

void kit_rsp_free(KitRsp *r) {
  free(r->buf);
  r->buf = NULL;
}

/* fill the input buffer; wait only when `block` */
static int fill(KitRsp *r, bool block) {
  if (r->in_pos < r->in_len) return 1;
  if (!block) {
    struct pollfd p = {.fd = r->fd, .events = POLLIN};
    if (poll(&p, 1, 0) <= 0) return 0;
  }
  for (;;) {
    ssize_t n = read(r->fd, r->in, sizeof r->in);
    if (n > 0) {
      r->in_pos = 0, r->in_len = (size_t)n;
      return 1;
    }
    if (n < 0 && errno == EINTR) continue;
    return -1;
  }
}

static int get_byte(KitRsp *r) {
  if (fill(r, true) <= 0) return -1;
  return r->in[r->in_pos++];
}

/* to a socket without SIGPIPE: gdb hanging up must not end the process that
 * serves it (a pipe, as the mock's, is written plainly) */
static int write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
    if (k < 0 && errno == ENOTSOCK) k = write(fd, c, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    c += k, n -= (size_t)k;
  }
  return 0;
}

static void push(KitRsp *r, char c) {
  if (r->len + 2 > r->cap) {
    r->cap = r->cap ? r->cap * 2 : 1024;
    r->buf = realloc(r->buf, r->cap);
    if (!r->buf) abort();
  }
  r->buf[r->len++] = c;
  r->buf[r->len] = 0;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* the body of one packet after its '$'; 1 if the checksum holds */
static int read_body(KitRsp *r) {
  unsigned sum = 0;
  bool escape = false;
  r->len = 0;
  push(r, 0), r->len = 0;
  for (;;) {
    int c = get_byte(r);
    if (c < 0) return -1;
    if (c == '#') break;
    sum += (unsigned)c;
    if (escape) {
      push(r, (char)(c ^ 0x20));
      escape = false;
    } else if (c == '}') {
      escape = true;
    } else {
      push(r, (char)c);
    }
  }
  int h = get_byte(r), l = h < 0 ? -1 : get_byte(r);
  if (l < 0) return -1;
  return hexval(h) >= 0 && hexval(l) >= 0 && (unsigned)(hexval(h) * 16 + hexval(l)) == (sum & 0xff);
}

int kit_rsp_read(KitRsp *r) {
  for (;;) {
    int c = get_byte(r);
    if (c < 0) return -1;
    if (c == 0x03) {
      r->interrupted = true;
      return 1;
    }
    if (c != '$') continue; /* acks of our replies, noise */
    int ok = read_body(r);
    if (ok < 0) return -1;
    if (!r->no_ack && write_all(r->out_fd, ok ? "+" : "-", 1) < 0) return -1;
    if (ok || r->no_ack) return 0;
  }
}

bool kit_rsp_poll_interrupt(KitRsp *r) {
  while (fill(r, false) > 0) {
    if (r->in[r->in_pos] == 0x03) {
      r->in_pos++;
      return true;
    }
    if (r->in[r->in_pos] != '+') return false; /* a packet: leave it for kit_rsp_read */
    r->in_pos++;
  }
  return false;
}

/* the reply's acknowledgement: '+' (or nothing in no-ack mode); a '-' resends */
static int await_ack(KitRsp *r, const char *frame, size_t n) {
  for (int tries = 0; !r->no_ack && tries < 8; tries++) {
    int c = get_byte(r);
    if (c < 0) return -1;
    if (c == '+') return 0;
    if (c == 0x03) {
      r->interrupted = true;
      continue;
    }
    if (c == '-' && write_all(r->out_fd, frame, n) < 0) return -1;
    if (c == '$') { /* gdb sent a packet without acknowledging: keep it */
      r->in_pos--;
      return 0;
    }
  }
  return 0;
}

int kit_rsp_send(KitRsp *r, const void *data, size_t n) {
  static const char digits[] = "0123456789abcdef";
  const unsigned char *d = data;
  char *frame = malloc(2 * n + 5);
  if (!frame) return -1;
  size_t k = 0;
  unsigned sum = 0;
  frame[k++] = '$';
  for (size_t i = 0; i < n; i++) {
    unsigned char c = d[i];
    if (c == '#' || c == '$' || c == '}' || c == '*') {
      frame[k++] = '}';
      sum += '}';
      c ^= 0x20;
    }
    frame[k++] = (char)c;
    sum += c;
  }
  frame[k++] = '#';
  frame[k++] = digits[(sum >> 4) & 15];
  frame[k++] = digits[sum & 15];
  int rc = write_all(r->out_fd, frame, k);
  if (rc == 0) rc = await_ack(r, frame, k);
  free(frame);
  return rc;
}

int kit_rsp_send_str(KitRsp *r, const char *s) { return kit_rsp_send(r, s, strlen(s)); }

void kit_rsp_hex(char *out, const void *data, size_t n) {
  static const char digits[] = "0123456789abcdef";
  const unsigned char *d = data;
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = digits[d[i] >> 4];
    out[2 * i + 1] = digits[d[i] & 15];
  }
  out[2 * n] = 0;
}

int kit_rsp_unhex(void *out, const char *hex, size_t n) {
  unsigned char *o = out;
  for (size_t i = 0; i < n; i++) {
    int h = hexval(hex[2 * i]), l = h < 0 ? -1 : hexval(hex[2 * i + 1]);
    if (l < 0) return -1;
    o[i] = (unsigned char)(h * 16 + l);
  }
  return 0;
}
