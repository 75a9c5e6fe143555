/* SPDX-License-Identifier: GPL-2.0 */
/*
 * markers-elf: read Linux Kernel Markers out of ELF files.
 *
 * Each marker call site emits a record  name "\0" format "\0"  into the
 * ELF section __markers_strings.  Records are consecutive with no padding;
 * format may be empty (MARK_NOARGS), so "name\0\0" is a valid record.
 */
#ifndef MARKERS_ELF_H
#define MARKERS_ELF_H

#include <stddef.h>
#include <stdint.h>

#include <libelf.h>

#define MARKERS_SECTION		"__markers_strings"
#define MARKERS_MAX_LEN		1024	/* max bytes in a format */
/* max bytes in a name: MARKER_NAME_MAX - 1, as the kernel and modpost take */
#define MARKERS_NAME_MAX	63
#define MARKERS_MODNAME_MAX	255	/* max bytes in a module name */
#define MARKERS_ERRLEN		512

struct marker {
	const char *name;	/* both point into one allocation owned by */
	const char *format;	/* the set (name first) */
};

/* An insertion-ordered set of markers, deduplicated on (name, format). */
struct marker_set {
	struct marker *v;
	size_t n, cap;
	size_t *tab;		/* open addressing: 0 = empty, else index+1 */
	size_t tabcap;		/* power of two, or 0 */
};

struct markers_err {
	char msg[MARKERS_ERRLEN];
};

/* Random-access byte source used for the raw header pre-check. */
struct markers_src {
	/* Read exactly n bytes at off; return 0 on success, -1 on failure. */
	int (*read)(void *ctx, uint64_t off, void *buf, size_t n);
	void *ctx;
	uint64_t size;		/* total size of the file in bytes */
};

/* Result of scanning one ELF file. */
struct markers_file {
	struct marker_set set;
	char *modinfo_name;	/* .modinfo name= value, or NULL */
	unsigned int e_type;	/* ET_REL, ET_EXEC, ... */
	size_t nsections;	/* number of __markers_strings sections */
};

void marker_set_init(struct marker_set *s);
void marker_set_free(struct marker_set *s);
/*
 * Add (name, format) unless already present.  Returns 1 if added, 0 if it
 * was a duplicate, -1 on allocation failure.
 */
int marker_set_add(struct marker_set *s, const char *name, size_t nlen,
		   const char *fmt, size_t flen);

/* A source reading from a memory buffer (ctx is the buffer). */
int markers_mem_read(void *ctx, uint64_t off, void *buf, size_t n);

/*
 * Validate the raw ELF identification, ELF header and section header table
 * bounds from the source, before libelf gets to see the file, so that
 * corrupt files get a precise message.  Returns 0 if the file looks sane.
 */
int markers_precheck(const struct markers_src *src, struct markers_err *err);

/*
 * Scan an ELF descriptor (from elf_begin or elf_memory) for markers.
 * file_size is the size of the underlying image, used for bounds checks.
 * If want_modinfo is zero the .modinfo section is not looked at.
 * On success returns 0 and fills *out (release with markers_file_free);
 * on failure returns -1 with a message in *err and *out left empty.
 */
int markers_scan_elf(Elf *elf, uint64_t file_size, int want_modinfo,
		     struct markers_file *out, struct markers_err *err);
void markers_file_free(struct markers_file *f);

/* 1 if s is a valid module name (for -m and .modinfo name=). */
int markers_valid_module(const char *s, size_t len);

/*
 * Pick the module name: override, else .modinfo name=, else "vmlinux" for
 * ET_EXEC, else the basename of path without .ko/.o with '-' -> '_'.
 * Returns a malloc'ed string, or NULL with a message in *err.
 */
char *markers_module_name(const struct markers_file *f, const char *path,
			  const char *override, struct markers_err *err);

/* A growable byte buffer. */
struct strbuf {
	char *p;
	size_t len, cap;
};

void sb_free(struct strbuf *b);
int sb_append(struct strbuf *b, const void *data, size_t n);

/*
 * Append fmt as its arguments travel through "..." (no h or hh; z, Z, t as
 * l; j, L, q as ll), the form of Module.markers.
 */
int sb_append_format_travel(struct strbuf *out, const char *fmt);

/*
 * Append "name\tmodule\tformat\n" lines for every marker of the set, each
 * format as its arguments travel (sb_append_format_travel).
 */
int markers_format_lines(struct strbuf *out, const char *module,
			 const struct marker_set *set);

/*
 * Build a new Module.markers text: every line of old[0..oldlen) whose
 * second TAB-separated field is one of mods[0..nmods) is dropped, the rest
 * is kept unchanged and in order (a final line without '\n' gets one),
 * then add[] is appended.  *removed counts dropped lines.
 * Returns 0, or -1 on allocation failure.
 */
int markers_merge_text(const char *old, size_t oldlen,
		       const char *const *mods, size_t nmods,
		       const struct strbuf *add, struct strbuf *out,
		       size_t *removed);

#endif /* MARKERS_ELF_H */
