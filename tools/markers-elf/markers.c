// SPDX-License-Identifier: GPL-2.0
/*
 * markers-elf: ELF parsing.  Shared by the command line tool and the fuzz
 * target, so everything here must cope with arbitrary bytes.
 */
#include <elf.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"

static void seterr(struct markers_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void seterr(struct markers_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/*
 * Render untrusted bytes for an error message: printable ASCII as is,
 * '"' and '\\' and everything else escaped, at most 48 input bytes.
 */
static const char *quote(char *dst, size_t dstsz, const char *src, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < len && i < 48 && o + 5 < dstsz; i++) {
		unsigned char c = (unsigned char)src[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			dst[o++] = (char)c;
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 15];
		}
	}
	if (i < len && o + 4 <= dstsz) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
	return dst;
}

/* ---- marker sets ---------------------------------------------------- */

void marker_set_init(struct marker_set *s)
{
	memset(s, 0, sizeof(*s));
}

void marker_set_free(struct marker_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free((void *)s->v[i].name);	/* one block: name + format */
	free(s->v);
	free(s->tab);
	marker_set_init(s);
}

static uint64_t hash_pair(const char *a, size_t al, const char *b, size_t bl)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < al; i++)
		h = (h ^ (unsigned char)a[i]) * 1099511628211ULL;
	h = (h ^ 0x100) * 1099511628211ULL;	/* separator outside 0..255 */
	for (i = 0; i < bl; i++)
		h = (h ^ (unsigned char)b[i]) * 1099511628211ULL;
	return h;
}

static int str_eq(const char *stored, const char *s, size_t len)
{
	return strncmp(stored, s, len) == 0 && stored[len] == '\0';
}

static int marker_set_rehash(struct marker_set *s, size_t newcap)
{
	size_t *tab, i;

	if (newcap > SIZE_MAX / sizeof(*tab))
		return -1;
	tab = calloc(newcap, sizeof(*tab));
	if (!tab)
		return -1;
	for (i = 0; i < s->n; i++) {
		const struct marker *m = &s->v[i];
		size_t j = hash_pair(m->name, strlen(m->name), m->format,
				     strlen(m->format)) & (newcap - 1);

		while (tab[j])
			j = (j + 1) & (newcap - 1);
		tab[j] = i + 1;
	}
	free(s->tab);
	s->tab = tab;
	s->tabcap = newcap;
	return 0;
}

int marker_set_add(struct marker_set *s, const char *name, size_t nlen,
		   const char *fmt, size_t flen)
{
	size_t j;
	char *blk;

	if (s->tabcap == 0 || s->n + 1 > s->tabcap / 2) {
		size_t ncap = s->tabcap ? s->tabcap * 2 : 16;

		if (ncap < s->tabcap || marker_set_rehash(s, ncap))
			return -1;
	}
	j = hash_pair(name, nlen, fmt, flen) & (s->tabcap - 1);
	while (s->tab[j]) {
		const struct marker *m = &s->v[s->tab[j] - 1];

		if (str_eq(m->name, name, nlen) && str_eq(m->format, fmt, flen))
			return 0;
		j = (j + 1) & (s->tabcap - 1);
	}
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		struct marker *v;

		if (ncap > SIZE_MAX / sizeof(*v))
			return -1;
		v = realloc(s->v, ncap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = ncap;
	}
	if (nlen > SIZE_MAX - 2 - flen)
		return -1;
	blk = malloc(nlen + flen + 2);
	if (!blk)
		return -1;
	memcpy(blk, name, nlen);
	blk[nlen] = '\0';
	memcpy(blk + nlen + 1, fmt, flen);
	blk[nlen + 1 + flen] = '\0';
	s->v[s->n].name = blk;
	s->v[s->n].format = blk + nlen + 1;
	s->n++;
	s->tab[j] = s->n;
	return 1;
}

/* ---- raw header pre-check ------------------------------------------- */

int markers_mem_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	memcpy(buf, (const unsigned char *)ctx + off, n);
	return 0;
}

static uint64_t rd(const unsigned char *p, size_t n, int be)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

#define EH_FIELD(is64, f) \
	((is64) ? offsetof(Elf64_Ehdr, f) : offsetof(Elf32_Ehdr, f))
#define EH_SIZE(is64, f) \
	((is64) ? sizeof(((Elf64_Ehdr *)0)->f) : sizeof(((Elf32_Ehdr *)0)->f))
#define SH_FIELD(is64, f) \
	((is64) ? offsetof(Elf64_Shdr, f) : offsetof(Elf32_Shdr, f))
#define SH_SIZE(is64, f) \
	((is64) ? sizeof(((Elf64_Shdr *)0)->f) : sizeof(((Elf32_Shdr *)0)->f))

int markers_precheck(const struct markers_src *src, struct markers_err *err)
{
	unsigned char eh[sizeof(Elf64_Ehdr)], sh0[sizeof(Elf64_Shdr)];
	uint64_t size = src->size, shoff, shnum, strndx, room;
	size_t ehsize, shdrsize, have;
	unsigned int shentsize;
	int is64, be;

	have = size < EI_NIDENT ? (size_t)size : EI_NIDENT;
	if (have && src->read(src->ctx, 0, eh, have))
		goto read_error;
	if (size == 0) {
		seterr(err, "not an ELF file (file is empty)");
		return -1;
	}
	if (have >= 8 && memcmp(eh, "!<arch>\n", 8) == 0) {
		seterr(err, "not an ELF file (ar archive; extract the members "
		       "first)");
		return -1;
	}
	if (memcmp(eh, ELFMAG, have < SELFMAG ? have : SELFMAG) != 0) {
		seterr(err, "not an ELF file (bad magic)");
		return -1;
	}
	if (have < EI_NIDENT) {
		seterr(err, "truncated ELF header (file has %zu bytes)", have);
		return -1;
	}
	if (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64) {
		seterr(err, "invalid ELF class %u in e_ident", eh[EI_CLASS]);
		return -1;
	}
	if (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB) {
		seterr(err, "invalid ELF data encoding %u in e_ident",
		       eh[EI_DATA]);
		return -1;
	}
	if (eh[EI_VERSION] != EV_CURRENT) {
		seterr(err, "unsupported ELF version %u in e_ident",
		       eh[EI_VERSION]);
		return -1;
	}
	is64 = eh[EI_CLASS] == ELFCLASS64;
	be = eh[EI_DATA] == ELFDATA2MSB;
	ehsize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	shdrsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (size < ehsize) {
		seterr(err, "truncated ELF header (file has %llu bytes, "
		       "the ELF header needs %zu)", (unsigned long long)size,
		       ehsize);
		return -1;
	}
	if (src->read(src->ctx, 0, eh, ehsize))
		goto read_error;

	shoff = rd(eh + EH_FIELD(is64, e_shoff), EH_SIZE(is64, e_shoff), be);
	shentsize = (unsigned int)rd(eh + EH_FIELD(is64, e_shentsize), 2, be);
	shnum = rd(eh + EH_FIELD(is64, e_shnum), 2, be);
	strndx = rd(eh + EH_FIELD(is64, e_shstrndx), 2, be);

	if (shoff == 0) {
		if (shnum != 0) {
			seterr(err, "e_shnum is %llu but there is no section "
			       "header table (e_shoff is 0)",
			       (unsigned long long)shnum);
			return -1;
		}
		return 0;	/* no sections at all */
	}
	if (shentsize != shdrsize) {
		seterr(err, "invalid section header entry size e_shentsize "
		       "%u (expected %zu)", shentsize, shdrsize);
		return -1;
	}
	if (shoff > size || size - shoff < shdrsize) {
		seterr(err, "section header table out of bounds (e_shoff "
		       "0x%llx, file size 0x%llx)", (unsigned long long)shoff,
		       (unsigned long long)size);
		return -1;
	}
	if (src->read(src->ctx, shoff, sh0, shdrsize))
		goto read_error;
	if (shnum == 0)		/* extended numbering: count in sh_size */
		shnum = rd(sh0 + SH_FIELD(is64, sh_size),
			   SH_SIZE(is64, sh_size), be);
	if (strndx == SHN_XINDEX)
		strndx = rd(sh0 + SH_FIELD(is64, sh_link), 4, be);
	room = (size - shoff) / shdrsize;
	if (shnum > room) {
		seterr(err, "section header table out of bounds (e_shoff "
		       "0x%llx, %llu entries of %zu bytes, file size 0x%llx)",
		       (unsigned long long)shoff, (unsigned long long)shnum,
		       shdrsize, (unsigned long long)size);
		return -1;
	}
	if (shnum != 0 && strndx >= shnum) {
		seterr(err, "section name string table index %llu out of "
		       "range (%llu sections)", (unsigned long long)strndx,
		       (unsigned long long)shnum);
		return -1;
	}
	return 0;

read_error:
	seterr(err, "read error");
	return -1;
}

/* ---- scanning with libelf ------------------------------------------- */

/* Bounds-checked raw bytes of a section (what = name for messages). */
static int section_bytes(Elf_Scn *scn, const GElf_Shdr *sh, size_t idx,
			 const char *what, uint64_t file_size,
			 const unsigned char **p, size_t *n,
			 struct markers_err *err)
{
	Elf_Data *d;

	*p = NULL;
	*n = 0;
	if (sh->sh_type == SHT_NOBITS) {
		seterr(err, "%s (section %zu) is SHT_NOBITS: it has no data "
		       "in the file", what, idx);
		return -1;
	}
	if (sh->sh_flags & SHF_COMPRESSED) {
		seterr(err, "%s (section %zu) is compressed (SHF_COMPRESSED), "
		       "which is not supported", what, idx);
		return -1;
	}
	if (sh->sh_size == 0)
		return 0;
	if (sh->sh_offset > file_size ||
	    sh->sh_size > file_size - sh->sh_offset) {
		seterr(err, "%s (section %zu) extends past the end of file "
		       "(offset 0x%llx, size 0x%llx, file size 0x%llx)", what,
		       idx, (unsigned long long)sh->sh_offset,
		       (unsigned long long)sh->sh_size,
		       (unsigned long long)file_size);
		return -1;
	}
	d = elf_rawdata(scn, NULL);
	if (!d) {
		seterr(err, "%s (section %zu): cannot read data: %s", what,
		       idx, elf_errmsg(-1));
		return -1;
	}
	if (d->d_size != sh->sh_size || !d->d_buf) {
		seterr(err, "%s (section %zu): libelf returned %zu bytes, "
		       "expected %llu", what, idx, d->d_size,
		       (unsigned long long)sh->sh_size);
		return -1;
	}
	*p = d->d_buf;
	*n = d->d_size;
	return 0;
}

static int is_ident(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '_' || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z'))
			continue;
		if (i > 0 && c >= '0' && c <= '9')
			continue;
		return 0;
	}
	return len > 0;
}

static int scan_markers(const unsigned char *p, size_t n, size_t idx,
			struct marker_set *set, struct markers_err *err)
{
	size_t off = 0, rec = 0;
	char q[256];

	while (off < n) {
		const char *name = (const char *)p + off, *fmt, *bad;
		const unsigned char *z;
		size_t nlen, flen, fpos;

		rec++;
		z = memchr(p + off, '\0', n - off);
		fpos = z ? (size_t)(z - p) + 1 : n;
		if (fpos < n)
			z = memchr(p + fpos, '\0', n - fpos);
		if (!z || fpos >= n) {
			seterr(err, MARKERS_SECTION " (section %zu): record %zu "
			       "at offset 0x%zx: last record not NUL-terminated",
			       idx, rec, off);
			return -1;
		}
		nlen = fpos - 1 - off;
		fmt = (const char *)p + fpos;
		flen = (size_t)(z - p) - fpos;
		if (nlen == 0) {
			seterr(err, MARKERS_SECTION " (section %zu): record %zu "
			       "at offset 0x%zx: empty marker name", idx, rec,
			       off);
			return -1;
		}
		if (nlen > MARKERS_NAME_MAX) {
			seterr(err, MARKERS_SECTION " (section %zu): record %zu "
			       "at offset 0x%zx: marker name \"%s\" too long "
			       "(%zu bytes, limit %d)", idx, rec, off,
			       quote(q, sizeof(q), name, nlen), nlen,
			       MARKERS_NAME_MAX);
			return -1;
		}
		if (!is_ident(name, nlen)) {
			seterr(err, MARKERS_SECTION " (section %zu): record %zu "
			       "at offset 0x%zx: marker name \"%s\" is not a C "
			       "identifier", idx, rec, off,
			       quote(q, sizeof(q), name, nlen));
			return -1;
		}
		if (flen > MARKERS_MAX_LEN) {
			seterr(err, MARKERS_SECTION " (section %zu): record %zu "
			       "at offset 0x%zx: format of marker \"%.*s\" too "
			       "long (%zu bytes, limit %d)", idx, rec, off,
			       (int)nlen, name, flen, MARKERS_MAX_LEN);
			return -1;
		}
		bad = memchr(fmt, '\t', flen);
		if (!bad)
			bad = memchr(fmt, '\n', flen);
		if (bad) {
			seterr(err, MARKERS_SECTION " (section %zu): record %zu "
			       "at offset 0x%zx: format of marker \"%.*s\" "
			       "contains a %s character", idx, rec, off,
			       (int)nlen, name,
			       *bad == '\t' ? "TAB" : "newline");
			return -1;
		}
		if (marker_set_add(set, name, nlen, fmt, flen) < 0) {
			seterr(err, "out of memory");
			return -1;
		}
		off = (size_t)(z - p) + 1;
	}
	return 0;
}

int markers_valid_module(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > MARKERS_MODNAME_MAX)
		return 0;
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

static int scan_modinfo(const unsigned char *p, size_t n, size_t idx,
			char **name, struct markers_err *err)
{
	size_t pos = 0;
	char q[256];

	while (pos < n) {
		const unsigned char *z;
		size_t elen;

		if (p[pos] == '\0') {	/* padding between entries */
			pos++;
			continue;
		}
		z = memchr(p + pos, '\0', n - pos);
		elen = z ? (size_t)(z - (p + pos)) : n - pos;
		if (elen >= 5 && memcmp(p + pos, "name=", 5) == 0) {
			const char *v = (const char *)p + pos + 5;

			if (!z) {
				seterr(err, ".modinfo (section %zu): name= "
				       "entry not NUL-terminated", idx);
				return -1;
			}
			if (!markers_valid_module(v, elen - 5)) {
				seterr(err, ".modinfo (section %zu): invalid "
				       "module name \"%s\" in name= entry", idx,
				       quote(q, sizeof(q), v, elen - 5));
				return -1;
			}
			*name = strndup(v, elen - 5);
			if (!*name) {
				seterr(err, "out of memory");
				return -1;
			}
			return 0;
		}
		pos += elen + 1;
	}
	return 0;
}

void markers_file_free(struct markers_file *f)
{
	marker_set_free(&f->set);
	free(f->modinfo_name);
	f->modinfo_name = NULL;
}

int markers_scan_elf(Elf *elf, uint64_t file_size, int want_modinfo,
		     struct markers_file *out, struct markers_err *err)
{
	size_t shnum, shstrndx;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;
	const unsigned char *p;
	size_t n;

	memset(out, 0, sizeof(*out));
	marker_set_init(&out->set);
	if (elf_kind(elf) != ELF_K_ELF) {
		seterr(err, "not an ELF file");
		return -1;
	}
	if (!gelf_getehdr(elf, &eh)) {
		seterr(err, "cannot read ELF header: %s", elf_errmsg(-1));
		return -1;
	}
	out->e_type = eh.e_type;
	if (elf_getshdrnum(elf, &shnum)) {
		seterr(err, "cannot get number of sections: %s",
		       elf_errmsg(-1));
		return -1;
	}
	if (shnum == 0)
		return 0;
	if (elf_getshdrstrndx(elf, &shstrndx)) {
		seterr(err, "cannot get section name string table index: %s",
		       elf_errmsg(-1));
		return -1;
	}
	if (shstrndx == SHN_UNDEF || shstrndx >= shnum) {
		seterr(err, "no section name string table (e_shstrndx %zu)",
		       shstrndx);
		return -1;
	}
	scn = elf_getscn(elf, shstrndx);
	if (!scn || !gelf_getshdr(scn, &sh)) {
		seterr(err, "cannot read section name string table (section "
		       "%zu): %s", shstrndx, elf_errmsg(-1));
		return -1;
	}
	if (sh.sh_type != SHT_STRTAB) {
		seterr(err, "section name string table (section %zu) has type "
		       "0x%x, not SHT_STRTAB", shstrndx, sh.sh_type);
		return -1;
	}
	if (section_bytes(scn, &sh, shstrndx, "section name string table",
			  file_size, &p, &n, err))
		return -1;

	scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		size_t idx = elf_ndxscn(scn);
		const char *name;

		if (!gelf_getshdr(scn, &sh)) {
			seterr(err, "cannot read section header %zu: %s", idx,
			       elf_errmsg(-1));
			goto fail;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name) {
			seterr(err, "section %zu: invalid name offset 0x%x in "
			       "the section name string table: %s", idx,
			       sh.sh_name, elf_errmsg(-1));
			goto fail;
		}
		if (strcmp(name, MARKERS_SECTION) == 0) {
			out->nsections++;
			if (section_bytes(scn, &sh, idx, MARKERS_SECTION,
					  file_size, &p, &n, err) ||
			    scan_markers(p, n, idx, &out->set, err))
				goto fail;
		} else if (want_modinfo && !out->modinfo_name &&
			   strcmp(name, ".modinfo") == 0) {
			if (sh.sh_type == SHT_NOBITS)
				continue;
			if (section_bytes(scn, &sh, idx, ".modinfo",
					  file_size, &p, &n, err) ||
			    scan_modinfo(p, n, idx, &out->modinfo_name, err))
				goto fail;
		}
	}
	return 0;

fail:
	markers_file_free(out);
	return -1;
}

char *markers_module_name(const struct markers_file *f, const char *path,
			  const char *override, struct markers_err *err)
{
	const char *base, *src = override;
	size_t len;
	char *s;

	if (!src)
		src = f->modinfo_name;
	if (!src && f->e_type == ET_EXEC)
		src = "vmlinux";
	if (src) {
		len = strlen(src);
	} else {
		base = strrchr(path, '/');
		src = base ? base + 1 : path;
		len = strlen(src);
		if (len > 3 && strcmp(src + len - 3, ".ko") == 0)
			len -= 3;
		else if (len > 2 && strcmp(src + len - 2, ".o") == 0)
			len -= 2;
	}
	if (!markers_valid_module(src, len)) {
		char q[256];

		seterr(err, "cannot use \"%s\" as module name; use -m",
		       quote(q, sizeof(q), src, len));
		return NULL;
	}
	s = strndup(src, len);
	if (!s) {
		seterr(err, "out of memory");
		return NULL;
	}
	if (src != override && src != f->modinfo_name) {
		size_t i;

		for (i = 0; i < len; i++)
			if (s[i] == '-')
				s[i] = '_';
	}
	return s;
}
