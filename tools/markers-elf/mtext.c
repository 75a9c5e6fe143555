// SPDX-License-Identifier: GPL-2.0
/*
 * markers-elf: Module.markers text handling (line formatting and merging).
 */
#include <stdlib.h>
#include <string.h>

#include "markers.h"

void sb_free(struct strbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int sb_append(struct strbuf *b, const void *data, size_t n)
{
	if (n == 0)
		return 0;
	if (n > SIZE_MAX - b->len - 1)
		return -1;
	if (b->len + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 256;
		char *p;

		while (ncap < b->len + n + 1) {
			if (ncap > SIZE_MAX / 2)
				return -1;
			ncap *= 2;
		}
		p = realloc(b->p, ncap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

/*
 * Append format fmt as its arguments travel through "...", as modpost
 * writes Module.markers and the kernel matches probes (marker_format_equal):
 * no h or hh, which only narrow an int; z, Z and t as l; j, L and q as ll.
 * SystemTap 5.1-5.5 know l and ll only: "%hd" makes a probe gcc rejects,
 * and "%zu" is not counted, so every later $argN is another argument.
 */
int sb_append_format_travel(struct strbuf *out, const char *fmt)
{
	const char *p = fmt;

	while (*p) {
		const char *run = p;

		if (*p != '%' || p[1] == '%') {
			p += *p == '%' ? 2 : 1;
			if (sb_append(out, run, (size_t)(p - run)))
				return -1;
			continue;
		}
		p++;
		while (*p && strchr("-+ #0123456789.*", *p))
			p++;
		if (sb_append(out, run, (size_t)(p - run)))
			return -1;
		if (*p == 'h') {
			p += p[1] == 'h' ? 2 : 1;
		} else if (*p == 'z' || *p == 'Z' || *p == 't') {
			if (sb_append(out, "l", 1))
				return -1;
			p++;
		} else if (*p == 'j' || *p == 'L' || *p == 'q') {
			if (sb_append(out, "ll", 2))
				return -1;
			p++;
		}
	}
	return 0;
}

int markers_format_lines(struct strbuf *out, const char *module,
			 const struct marker_set *set)
{
	size_t i, mlen = strlen(module);

	for (i = 0; i < set->n; i++) {
		const struct marker *m = &set->v[i];

		if (sb_append(out, m->name, strlen(m->name)) ||
		    sb_append(out, "\t", 1) ||
		    sb_append(out, module, mlen) ||
		    sb_append(out, "\t", 1) ||
		    sb_append_format_travel(out, m->format) ||
		    sb_append(out, "\n", 1))
			return -1;
	}
	return 0;
}

struct key {
	const char *p;
	size_t len;
};

static int key_cmp(const void *k, const void *e)
{
	const struct key *a = k;
	const char *b = *(const char *const *)e;
	size_t bl = strlen(b);
	int c = memcmp(a->p, b, a->len < bl ? a->len : bl);

	if (c)
		return c;
	return a->len < bl ? -1 : a->len > bl;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int markers_merge_text(const char *old, size_t oldlen,
		       const char *const *mods, size_t nmods,
		       const struct strbuf *add, struct strbuf *out,
		       size_t *removed)
{
	const char **sorted = NULL;
	size_t pos = 0;
	int ret = -1;

	*removed = 0;
	if (nmods) {
		if (nmods > SIZE_MAX / sizeof(*sorted))
			return -1;
		sorted = malloc(nmods * sizeof(*sorted));
		if (!sorted)
			return -1;
		memcpy(sorted, mods, nmods * sizeof(*sorted));
		qsort(sorted, nmods, sizeof(*sorted), str_cmp);
	}
	while (pos < oldlen) {
		const char *line = old + pos, *nl, *t1, *t2;
		size_t llen;
		int drop = 0;

		nl = memchr(line, '\n', oldlen - pos);
		llen = nl ? (size_t)(nl - line) : oldlen - pos;
		t1 = memchr(line, '\t', llen);
		if (t1 && nmods) {
			struct key k;

			k.p = t1 + 1;
			k.len = llen - (size_t)(k.p - line);
			t2 = memchr(k.p, '\t', k.len);
			if (t2)
				k.len = (size_t)(t2 - k.p);
			drop = bsearch(&k, sorted, nmods, sizeof(*sorted),
				       key_cmp) != NULL;
		}
		if (drop)
			(*removed)++;
		else if (sb_append(out, line, llen) || sb_append(out, "\n", 1))
			goto out;
		pos += llen + (nl ? 1 : 0);
	}
	if (sb_append(out, add->p, add->len))
		goto out;
	ret = 0;
out:
	free(sorted);
	return ret;
}
