// SPDX-License-Identifier: MIT
/* What this machine charges for the system calls stylusd cannot avoid, so that
 * its own share can be told apart (docs/PERFORMANCE.md, items 4 and 5).
 *   syscall_baselines wakeups   1000 timerfd wakeups a second for 10 s (timerfd_settime, poll, read)
 *   syscall_baselines sendrecv  one 150-byte send + recv on each of 100 Unix socket pairs, 2000 rounds */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timespec a, struct timespec b) {
    return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

static int wakeups(void) {
    int t = timerfd_create(CLOCK_MONOTONIC, 0);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long next = now.tv_sec * 1000000000LL + now.tv_nsec;
    for (int i = 0; i < 10000; i++) {
        next += 1000000;
        struct itimerspec s = {{0, 0}, {next / 1000000000, next % 1000000000}};
        timerfd_settime(t, TFD_TIMER_ABSTIME, &s, 0);
        struct pollfd p = {t, POLLIN, 0};
        poll(&p, 1, -1);
        uint64_t expirations;
        if (read(t, &expirations, 8) != 8) return 1;
    }
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    double cpu = r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
    printf("wakeups: 1 kHz for 10 s uses %.2f %% of a core, %.1f us per wakeup\n", cpu / 10 * 100, cpu / 10000 * 1e6);
    return 0;
}

static int sendrecv(void) {
    int pairs[100][2];
    char line[150], buffer[4096];
    memset(line, 'x', sizeof line);
    for (int i = 0; i < 100; i++) socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[i]);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int round = 0; round < 2000; round++) {
        for (int i = 0; i < 100; i++) send(pairs[i][0], line, sizeof line, 0);
        for (int i = 0; i < 100; i++) recv(pairs[i][1], buffer, sizeof buffer, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double us = seconds(a, b) * 1e6;
    printf("sendrecv: %.2f us per send+recv pair; %.0f us for 100 clients\n", us / 200000, us / 2000);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "wakeups") == 0) return wakeups();
    if (argc == 2 && strcmp(argv[1], "sendrecv") == 0) return sendrecv();
    fprintf(stderr, "usage: %s wakeups|sendrecv\n", argv[0]);
    return 2;
}
