/* Closed-loop load generator for benchmarks/server_load.py: N keep-alive connections on one
 * epoll thread, each sending its next request as soon as the previous reply is complete.
 * Written in C so that the generator costs a small fraction of the server's CPU per request
 * (the Python WebSocket client cost about 40% of the server's, wrk + Lua about 45%).
 *
 * Modes (same episodes as server_load.py's Lua scripts and WebSocket client):
 *   sessions  HTTP: POST /reset (keeps the session id), POST /step until "done":true, reset again
 *   stateless HTTP: POST /step with the same action forever (OpenEnv's sessionless /step)
 *   ws        WebSocket /ws: {"type":"reset"} then {"type":"step"} until done, reset again
 * Usage: server_loadgen MODE PORT CLIENTS SECONDS RESET_JSON ACTION_FMT
 *   ACTION_FMT is the action JSON with one %s where the current email id goes.
 * Prints one JSON line: steps, resets, errors, seconds, p50_us, p99_us.
 * Every frame it sends uses mask key 0 (RFC 6455 allows any key; XOR with 0 is the identity).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { SESSIONS, STATELESS, WS };

typedef struct {
    int fd, need_reset;
    char *buf;
    size_t len, cap;
    char email[64], sid[128];
    double t0;
} Conn;

static int mode, port;
static const char *reset_json, *action_fmt;
static long steps, resets, errors;
static double *lat;
static size_t nlat, caplat;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what) { perror(what); exit(2); }

static void send_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0) { if (errno == EAGAIN || errno == EINTR) continue; die("send"); }
        p += k; n -= (size_t)k;
    }
}

static void send_ws(int fd, const char *payload, size_t n) {
    char head[14];
    size_t h = 0;
    head[h++] = (char)0x81;
    if (n < 126) head[h++] = (char)(0x80 | n);
    else if (n < 65536) { head[h++] = (char)(0x80 | 126); head[h++] = (char)(n >> 8); head[h++] = (char)n; }
    else { head[h++] = (char)(0x80 | 127); for (int i = 7; i >= 0; i--) head[h++] = (char)((uint64_t)n >> (8 * i)); }
    memset(head + h, 0, 4); h += 4;  /* mask key 0 */
    char *msg = malloc(h + n);
    memcpy(msg, head, h); memcpy(msg + h, payload, n);
    send_all(fd, msg, h + n);
    free(msg);
}

static void send_next(Conn *c) {
    char action[2048], body[4096], req[8192];
    snprintf(action, sizeof action, action_fmt, c->email);
    c->t0 = now();
    if (mode == WS) {
        int n = c->need_reset ? snprintf(body, sizeof body, "{\"type\":\"reset\",\"data\":%s}", reset_json)
                              : snprintf(body, sizeof body, "{\"type\":\"step\",\"data\":%s}", action);
        send_ws(c->fd, body, (size_t)n);
        return;
    }
    const char *path = "/step";
    char sidh[200] = "";
    int n;
    if (mode == SESSIONS && c->need_reset) {
        path = "/reset";
        n = snprintf(body, sizeof body, "%s", reset_json);
        if (c->sid[0]) snprintf(sidh, sizeof sidh, "X-Session-Id: %s\r\n", c->sid);
    } else {
        n = snprintf(body, sizeof body, "{\"action\":%s}", action);
        if (mode == SESSIONS) snprintf(sidh, sizeof sidh, "X-Session-Id: %s\r\n", c->sid);
    }
    int m = snprintf(req, sizeof req, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                     "%sContent-Length: %d\r\n\r\n%s", path, port, sidh, n, body);
    send_all(c->fd, req, (size_t)m);
}

/* copy the JSON string value after `key` (searched in body[from, to)) into out */
static int grab(const char *body, size_t from, size_t to, const char *key, char *out, size_t outcap) {
    if (to <= from) return 0;
    const char *p = memmem(body + from, to - from, key, strlen(key));
    if (!p) return 0;
    p += strlen(key);
    const char *q = memchr(p, '"', (size_t)(body + to - p));
    if (!q || (size_t)(q - p) >= outcap) return 0;
    memcpy(out, p, (size_t)(q - p)); out[q - p] = 0;
    return 1;
}

static void on_reply(Conn *c, const char *body, size_t n, int ok, int counting) {
    if (counting) {
        if (nlat == caplat) { caplat = caplat ? 2 * caplat : 1 << 16; lat = realloc(lat, caplat * sizeof *lat); }
        lat[nlat++] = now() - c->t0;
    }
    if (!ok) {
        if (counting) errors++;
        c->need_reset = 1; c->sid[0] = 0;
        return;
    }
    if (counting) { if (c->need_reset && mode != STATELESS) resets++; else steps++; }
    if (mode == STATELESS) return;
    size_t tail = n > 300 ? n - 300 : 0;
    if (mode == SESSIONS && c->need_reset) grab(body, tail, n, "\"session_id\":\"", c->sid, sizeof c->sid);
    c->need_reset = memmem(body + tail, n - tail, "\"done\":true", 11) != NULL;
    grab(body, 0, n < 3000 ? n : 3000, "\"current_email\":{\"header\":{\"id\":\"", c->email, sizeof c->email);
}

/* one complete reply at the head of c->buf -> handled and consumed; returns 1 if one was handled */
static int try_reply(Conn *c, int counting) {
    if (mode == WS) {
        if (c->len < 2) return 0;
        unsigned char *b = (unsigned char *)c->buf;
        size_t h = 2, n = b[1] & 0x7F;
        if (n == 126) { if (c->len < 4) return 0; n = ((size_t)b[2] << 8) | b[3]; h = 4; }
        else if (n == 127) { if (c->len < 10) return 0; n = 0; for (int i = 0; i < 8; i++) n = (n << 8) | b[2 + i]; h = 10; }
        if (c->len < h + n) return 0;
        int op = b[0] & 0x0F;
        if (op == 0x9) { /* ping -> pong with the same payload */
            char pong[256]; size_t k = n < 125 ? n : 125;
            pong[0] = (char)0x8A; pong[1] = (char)(0x80 | k); memset(pong + 2, 0, 4); memcpy(pong + 6, c->buf + h, k);
            send_all(c->fd, pong, 6 + k);
        } else if (op == 0x8) { fprintf(stderr, "server closed a WebSocket\n"); exit(3); }
        else {
            const char *body = c->buf + h;
            on_reply(c, body, n, !(n >= 15 && memcmp(body, "{\"type\":\"error\"", 15) == 0), counting);
            memmove(c->buf, c->buf + h + n, c->len - h - n); c->len -= h + n;
            return 1;
        }
        memmove(c->buf, c->buf + h + n, c->len - h - n); c->len -= h + n;
        return try_reply(c, counting);
    }
    char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - c->buf) + 4, clen = 0;
    for (char *p = c->buf; p && p < end; p = memmem(p, (size_t)(end - p), "\r\n", 2), p = p ? p + 2 : NULL)
        if (strncasecmp(p, "content-length:", 15) == 0) { clen = strtoul(p + 15, NULL, 10); break; }
    if (c->len < head + clen) return 0;
    int status = atoi(c->buf + 9);
    on_reply(c, c->buf + head, clen, status == 200, counting);
    memmove(c->buf, c->buf + head + clen, c->len - head - clen); c->len -= head + clen;
    return 1;
}

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: %s sessions|stateless|ws PORT CLIENTS SECONDS RESET_JSON ACTION_FMT\n", argv[0]); return 2; }
    mode = !strcmp(argv[1], "ws") ? WS : !strcmp(argv[1], "stateless") ? STATELESS : SESSIONS;
    port = atoi(argv[2]);
    int clients = atoi(argv[3]);
    double seconds = atof(argv[4]);
    reset_json = argv[5]; action_fmt = argv[6];
    int ep = epoll_create1(0);
    Conn *conns = calloc((size_t)clients, sizeof *conns);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    for (int i = 0; i < clients; i++) {
        Conn *c = &conns[i];
        c->fd = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("connect");
        c->cap = 1 << 16; c->buf = malloc(c->cap); c->need_reset = 1; strcpy(c->email, "e001");
        if (mode == WS) {
            char up[512];
            int n = snprintf(up, sizeof up, "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", port);
            send_all(c->fd, up, (size_t)n);
            while (!memmem(c->buf, c->len, "\r\n\r\n", 4)) {
                ssize_t k = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
                if (k <= 0) die("upgrade");
                c->len += (size_t)k;
            }
            if (!memmem(c->buf, 16, " 101 ", 5)) { fprintf(stderr, "upgrade refused: %.100s\n", c->buf); return 3; }
            char *e = memmem(c->buf, c->len, "\r\n\r\n", 4) + 4;
            c->len -= (size_t)(e - c->buf); memmove(c->buf, e, c->len);
        }
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
    }
    double start = now(), stop = start + seconds;
    for (int i = 0; i < clients; i++) send_next(&conns[i]);
    struct epoll_event evs[256];
    int live = clients;
    while (live > 0) {
        int n = epoll_wait(ep, evs, 256, 1000);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        for (int i = 0; i < n; i++) {
            Conn *c = evs[i].data.ptr;
            if (c->len == c->cap) { c->cap *= 2; c->buf = realloc(c->buf, c->cap); }
            ssize_t k = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
            if (k <= 0) { if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue; fprintf(stderr, "connection lost\n"); return 3; }
            c->len += (size_t)k;
            double t = now();
            while (try_reply(c, t <= stop)) {
                if (t > stop) { epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL); live--; break; }
                send_next(c);
            }
        }
        if (now() > stop + 30) { fprintf(stderr, "replies still missing 30 s after the end\n"); return 3; }
    }
    double secs = seconds;  /* replies are counted when they complete inside [start, stop] */
    qsort(lat, nlat, sizeof *lat, cmp);
    double p50 = nlat ? lat[(size_t)(0.50 * nlat)] : 0, p99 = nlat ? lat[(size_t)(0.99 * nlat)] : 0;
    printf("{\"steps\":%ld,\"resets\":%ld,\"errors\":%ld,\"seconds\":%.3f,\"p50_us\":%.1f,\"p99_us\":%.1f}\n",
           steps, resets, errors, secs, p50 * 1e6, p99 * 1e6);
    for (int i = 0; i < clients; i++) close(conns[i].fd);
    return 0;
}
