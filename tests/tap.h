/*
 * tap.h - a minimal TAP producer for the C unit tests, run by prove.
 *
 *	ok(cond, "name %d", i);  is(got, want, "name");  is_str(got, want, "name");
 *	return done_testing();
 */
#ifndef CLAWMD_TAP_H
#define CLAWMD_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   Failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is(got, want, ...)                                                                         \
	do {                                                                                       \
		long long g_ = (long long)(got), w_ = (long long)(want);                           \
		if (!ok(g_ == w_, __VA_ARGS__))                                                    \
			printf("#   got: %lld\n#   expected: %lld\n", g_, w_);                     \
	} while (0)
#define is_str(got, want, ...)                                                                     \
	do {                                                                                       \
		const char *g_ = (got), *w_ = (want);                                              \
		if (!ok(g_ && w_ ? !strcmp(g_, w_) : g_ == w_, __VA_ARGS__))                       \
			printf("#   got: '%s'\n#   expected: '%s'\n", g_ ? g_ : "(null)",          \
			       w_ ? w_ : "(null)");                                                \
	} while (0)

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
