// SPDX-License-Identifier: GPL-2.0
/*
 * markers-elf: list the Linux Kernel Markers of ELF files (vmlinux, .ko,
 * .o) and merge them into a kernel build tree's Module.markers.
 */
#define _GNU_SOURCE		/* asprintf, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <gelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "markers.h"

#define PROG		"markers-elf"
#define VERSION		"1.0"
#define MAX_OLD_SIZE	(1UL << 30)	/* refuse larger Module.markers */

static int verbose;

static void msg(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void msg(const char *file, const char *fmt, ...)
{
	va_list ap;

	if (file)
		fprintf(stderr, PROG ": %s: ", file);
	else
		fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [-v] [-m MODULE] FILE...\n"
	      "       " PROG " --merge TREE_OR_FILE [-v] [-m MODULE] FILE...\n"
	      "\n"
	      "Print the Linux Kernel Markers recorded in the "
	      MARKERS_SECTION " section\n"
	      "of ELF files (vmlinux, .ko, .o) as \"name<TAB>module<TAB>"
	      "format\" lines, or\n"
	      "merge them into a Module.markers file.\n"
	      "\n"
	      "  -m, --module=NAME    module name to use for all FILEs "
	      "(default: .modinfo\n"
	      "                       name=, else \"vmlinux\" for ET_EXEC, "
	      "else the file name\n"
	      "                       without .ko/.o, '-' replaced by '_')\n"
	      "  -M, --merge=PATH     replace the FILEs' modules' lines in "
	      "PATH (a file, or a\n"
	      "                       directory containing Module.markers), "
	      "atomically\n"
	      "  -v, --verbose        report files without markers and "
	      "merge statistics\n"
	      "  -h, --help           show this help and exit\n"
	      "  -V, --version        show the version and exit\n"
	      "\n"
	      "Examples:\n"
	      "  " PROG " acme_xa.ko                      # list its markers\n"
	      "  " PROG " --merge build/linux acme_xa.ko  "
	      "# into build/linux/Module.markers\n"
	      "\n"
	      "Exit status: 0 success, 1 bad input or I/O error, 2 usage "
	      "error.\n", f);
}

/* One scanned input file. */
struct input {
	const char *path;
	char *module;
	struct markers_file mf;
};

static int fd_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	int fd = *(const int *)ctx;
	char *p = buf;

	while (n) {
		ssize_t r = pread(fd, p, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* Scan one file; on error print a message and return -1. */
static int scan_file(struct input *in, const char *override)
{
	struct markers_err err = { "" };
	struct markers_src src;
	struct stat st;
	Elf *elf;
	int fd, ret;

	/* O_NONBLOCK: never hang opening a FIFO; we reject it below. */
	fd = open(in->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		msg(in->path, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		msg(in->path, "cannot stat: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		msg(in->path, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
		    "not a regular file");
		close(fd);
		return -1;
	}
	src.read = fd_read;
	src.ctx = &fd;
	src.size = (uint64_t)st.st_size;
	if (markers_precheck(&src, &err)) {
		msg(in->path, "%s", err.msg);
		close(fd);
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		msg(in->path, "cannot read ELF file: %s", elf_errmsg(-1));
		close(fd);
		return -1;
	}
	ret = markers_scan_elf(elf, (uint64_t)st.st_size, override == NULL,
			       &in->mf, &err);
	elf_end(elf);
	close(fd);
	if (ret) {
		msg(in->path, "%s", err.msg);
		return -1;
	}
	in->module = markers_module_name(&in->mf, in->path, override, &err);
	if (!in->module) {
		msg(in->path, "%s", err.msg);
		markers_file_free(&in->mf);
		return -1;
	}
	if (verbose) {
		if (in->mf.nsections == 0)
			msg(in->path, "note: no " MARKERS_SECTION " section");
		else
			msg(in->path, "note: %zu marker(s), module %s",
			    in->mf.set.n, in->module);
	}
	return 0;
}

static void input_free(struct input *in)
{
	markers_file_free(&in->mf);
	free(in->module);
	in->module = NULL;
}

static int do_print(struct input *ins, int n, const char *override)
{
	int i, rc = 0;

	for (i = 0; i < n; i++) {
		struct strbuf out = { 0 };

		if (scan_file(&ins[i], override)) {
			rc = 1;
			continue;
		}
		if (markers_format_lines(&out, ins[i].module, &ins[i].mf.set)) {
			msg(ins[i].path, "out of memory");
			rc = 1;
		} else if (out.len && fwrite(out.p, 1, out.len, stdout) != out.len) {
			rc = 1;
		}
		sb_free(&out);
		input_free(&ins[i]);
	}
	if (fflush(stdout) || ferror(stdout)) {
		msg(NULL, "write error on standard output: %s",
		    strerror(errno));
		rc = 1;
	}
	return rc;
}

/* Read a whole regular file; *exists = 0 if it does not exist. */
static int read_old(const char *path, struct strbuf *b, struct stat *st,
		    int *exists)
{
	char buf[65536];
	int fd;

	*exists = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		msg(path, "cannot open: %s", strerror(errno));
		return -1;
	}
	*exists = 1;
	if (fstat(fd, st)) {
		msg(path, "cannot stat: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st->st_mode)) {
		msg(path, "not a regular file");
		goto fail;
	}
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			msg(path, "read error: %s", strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		if (b->len + (size_t)r > MAX_OLD_SIZE) {
			msg(path, "file too large (limit %lu bytes)",
			    MAX_OLD_SIZE);
			goto fail;
		}
		if (sb_append(b, buf, (size_t)r)) {
			msg(path, "out of memory");
			goto fail;
		}
	}
	close(fd);
	return 0;
fail:
	close(fd);
	return -1;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Replace target by data: temp file in the same directory, fsync, rename. */
static int write_atomic(const char *target, const struct strbuf *data,
			const struct stat *old, int exists)
{
	char *dir = NULL, *tmp = NULL;
	const char *slash = strrchr(target, '/'), *base;
	mode_t mode;
	int fd = -1, dfd, ret = -1;
	size_t dlen;

	if (exists) {
		mode = old->st_mode & 07777;
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	}
	dlen = slash ? (size_t)(slash - target) : 1;
	if (slash && dlen == 0)
		dlen = 1;		/* file in "/" */
	dir = slash ? strndup(target, dlen) : strdup(".");
	base = slash ? slash + 1 : target;
	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir, base) < 0) {
		tmp = NULL;
		msg(target, "out of memory");
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		msg(target, "cannot create temporary file in %s: %s", dir,
		    strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if (fchmod(fd, mode)) {
		msg(tmp, "cannot set mode: %s", strerror(errno));
		goto out;
	}
	if (exists && (old->st_uid != geteuid() || old->st_gid != getegid()) &&
	    fchown(fd, old->st_uid, old->st_gid) && errno != EPERM) {
		msg(tmp, "cannot set owner: %s", strerror(errno));
		goto out;
	}
	if (write_all(fd, data->p, data->len)) {
		msg(tmp, "write error: %s", strerror(errno));
		goto out;
	}
	if (fsync(fd)) {
		msg(tmp, "fsync: %s", strerror(errno));
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		msg(tmp, "close: %s", strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, target)) {
		msg(target, "cannot rename %s to it: %s", tmp,
		    strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	ret = 0;
	/* Make the rename durable; the new file is in place either way. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || (fsync(dfd) && errno != EINVAL))
		msg(dir, "warning: cannot fsync directory: %s",
		    strerror(errno));
	if (dfd >= 0)
		close(dfd);
out:
	if (fd >= 0)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	free(dir);
	return ret;
}

/* Resolve --merge's argument to the Module.markers path to write. */
static char *merge_target(const char *arg)
{
	struct stat st;
	char *t, *r;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		size_t n = strlen(arg);

		while (n > 1 && arg[n - 1] == '/')
			n--;
		if (asprintf(&t, "%.*s/Module.markers", (int)n, arg) < 0)
			t = NULL;
	} else {
		t = strdup(arg);
	}
	if (!t) {
		msg(arg, "out of memory");
		return NULL;
	}
	/* Write through a symbolic link instead of replacing it. */
	if (lstat(t, &st) == 0 && S_ISLNK(st.st_mode)) {
		r = realpath(t, NULL);
		if (!r) {
			msg(t, "cannot resolve symbolic link: %s",
			    strerror(errno));
			free(t);
			return NULL;
		}
		free(t);
		t = r;
	}
	return t;
}

static int do_merge(const char *arg, struct input *ins, int n,
		    const char *override)
{
	struct strbuf add = { 0 }, old = { 0 }, out = { 0 };
	const char **mods = NULL;
	size_t nmods = 0, removed, nadd = 0;
	char *target = NULL;
	struct stat st;
	int i, j, exists, rc = 1, bad = 0;

	for (i = 0; i < n; i++)
		if (scan_file(&ins[i], override))
			bad = 1;
	if (bad)
		goto out;
	mods = calloc((size_t)n, sizeof(*mods));
	if (!mods) {
		msg(NULL, "out of memory");
		goto out;
	}
	/*
	 * Group by module in order of first appearance; markers of several
	 * files of the same module are deduplicated together.
	 */
	for (i = 0; i < n; i++) {
		struct marker_set *set;
		size_t k;

		for (j = 0; j < i; j++)
			if (strcmp(ins[j].module, ins[i].module) == 0)
				break;
		if (j < i)
			continue;
		mods[nmods++] = ins[i].module;
		set = &ins[i].mf.set;
		for (j = i + 1; j < n; j++) {
			if (strcmp(ins[j].module, ins[i].module) != 0)
				continue;
			for (k = 0; k < ins[j].mf.set.n; k++) {
				const struct marker *m = &ins[j].mf.set.v[k];

				if (marker_set_add(set, m->name,
						   strlen(m->name), m->format,
						   strlen(m->format)) < 0) {
					msg(NULL, "out of memory");
					goto out;
				}
			}
		}
		nadd += set->n;
		if (markers_format_lines(&add, ins[i].module, set)) {
			msg(NULL, "out of memory");
			goto out;
		}
	}
	target = merge_target(arg);
	if (!target || read_old(target, &old, &st, &exists))
		goto out;
	if (markers_merge_text(old.p ? old.p : "", old.len, mods, nmods, &add,
			       &out, &removed)) {
		msg(target, "out of memory");
		goto out;
	}
	if (write_atomic(target, &out, &st, exists))
		goto out;
	if (verbose)
		msg(target, "note: %s; removed %zu line(s), added %zu line(s) "
		    "for %zu module(s)", exists ? "updated" : "created",
		    removed, nadd, nmods);
	rc = 0;
out:
	for (i = 0; i < n; i++)
		input_free(&ins[i]);
	free(mods);
	free(target);
	sb_free(&add);
	sb_free(&old);
	sb_free(&out);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "module",	required_argument,	NULL, 'm' },
		{ "merge",	required_argument,	NULL, 'M' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *module = NULL, *merge = NULL;
	struct input *ins;
	int c, i, n, rc;

	opterr = 0;		/* we print our own messages */
	while ((c = getopt_long(argc, argv, ":m:M:vhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (module) {
				msg(NULL, "-m given more than once");
				return 2;
			}
			module = optarg;
			if (!markers_valid_module(module, strlen(module))) {
				msg(NULL, "invalid module name \"%s\" (must be "
				    "1-%d printable characters, no spaces)",
				    module, MARKERS_MODNAME_MAX);
				return 2;
			}
			break;
		case 'M':
			if (merge) {
				msg(NULL, "--merge given more than once");
				return 2;
			}
			merge = optarg;
			if (!*merge) {
				msg(NULL, "--merge: empty path");
				return 2;
			}
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			usage(stdout);
			return fflush(stdout) || ferror(stdout) ? 1 : 0;
		case 'V':
			puts(PROG " " VERSION);
			return fflush(stdout) || ferror(stdout) ? 1 : 0;
		case ':':
			msg(NULL, "option '%s' requires an argument",
			    argv[optind - 1]);
			goto bad_usage;
		default:
			if (optopt)
				msg(NULL, "invalid option -- '%c'", optopt);
			else
				msg(NULL, "unrecognized option '%s'",
				    argv[optind - 1]);
			goto bad_usage;
		}
	}
	n = argc - optind;
	if (n <= 0) {
		msg(NULL, "no input files");
		goto bad_usage;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		msg(NULL, "libelf initialization failed: %s", elf_errmsg(-1));
		return 1;
	}
	ins = calloc((size_t)n, sizeof(*ins));
	if (!ins) {
		msg(NULL, "out of memory");
		return 1;
	}
	for (i = 0; i < n; i++)
		ins[i].path = argv[optind + i];
	rc = merge ? do_merge(merge, ins, n, module) : do_print(ins, n, module);
	free(ins);
	return rc;

bad_usage:
	fputs("Try '" PROG " --help' for more information.\n", stderr);
	return 2;
}
