// SPDX-License-Identifier: GPL-2.0
/*
 * ko-edit: write a copy of a built kernel module (.ko) with one edit.
 *
 * The edit is either a same-length change of .modinfo (the force-loaded
 * twins and the markers_abi variants of the tests and of the vendor drop),
 * or one corruption of the marker sections (__markers, its relocations,
 * __markers_strings), to check what the module loader and the marker core
 * make of hostile input.  See --help and README.md.
 *
 * The output is written to a temporary file next to OUT and renamed onto
 * OUT only once the edit is complete: on any error no OUT is written.
 * Sections are never moved, except one that an edit grows, which goes to
 * the end of the file; everything else stays byte for byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* struct marker of the patched kernel (include/linux/marker.h), 64-bit */
#define MARKER_SIZE 40
#define MARKER_NAME_OFF 0
#define MARKER_FORMAT_OFF 8
#define MARKER_KEY_ENABLED_OFF 16
#define MARKER_PROBES_OFF 32
#define MARKER_ALIGN 8

static const char *prog = "ko-edit";
static const char *in_path;
static char *tmp_path;

static const char usage_text[] =
"usage: ko-edit [--site K] COMMAND IN.ko OUT.ko [ARGS]\n"
"\n"
"Write OUT.ko: IN.ko with one edit. On any error nothing is written.\n"
"\n"
"  modinfo FIND REPLACE  replace the one occurrence of FIND in .modinfo by\n"
"                        REPLACE, of the same length (so that nothing moves):\n"
"                        e.g. the vermagic of a twin only insmod -f loads\n"
"\n"
"Corruptions of the marker sections (K: the struct marker in __markers the\n"
"edit is about, --site K, default 0):\n"
"  truncate          __markers loses its last 8 bytes (the probes pointer of\n"
"                    its last site): not a whole number of struct marker\n"
"  misalign          __markers is laid out 4 bytes off its 8-byte alignment\n"
"                    (alignment 1, the data section before it grown)\n"
"  huge-size         __markers claims 0x1000000 struct markers, far more\n"
"                    bytes than the file has\n"
"  many-sites N      N zero-filled struct markers appended to __markers\n"
"                    (no name, no format), 1 <= N <= 100000\n"
"  not-writable      __markers loses SHF_WRITE (the core writes to sites)\n"
"  no-strings        __markers_strings renamed markers_strings (absent)\n"
"  truncate-strings  __markers_strings loses its last byte, the NUL of its\n"
"                    last format\n"
"  format-no-nul     the NUL ending the last format of __markers_strings\n"
"                    overwritten with 'X' (a format without NUL)\n"
"  name-no-nul       the NUL after the name of site K overwritten with '_'\n"
"                    (a name without NUL, running into its format)\n"
"  outside-target    the name of site K relocated to a kernel symbol the\n"
"                    module imports (marker_probe_cb): outside the module\n"
"  bad-addend        the format of site K relocated 1 MiB past\n"
"                    __markers_strings: outside the module\n"
"  not-ident         the name of site K starts with '1': not an identifier\n"
"  expanded-name     the name of site K is \"1\", what a trace_mark() that\n"
"                    expanded its name argument records for \"linux\" under\n"
"                    gnu11 (the rest of the old name NUL-filled)\n"
"  long-name         the name of site K is MARKER_NAME_MAX (64) identifier\n"
"                    characters (__markers_strings rebuilt, relocations moved)\n"
"  in-use            the static key of site K is set enabled, as if a probe\n"
"                    were connected\n"
"\n"
"Options, before COMMAND:\n"
"  --site K          K, the struct marker that the edits of one site are\n"
"                    about (default 0)\n"
"  -h, --help        this text\n"
"\n"
"Examples:\n"
"  ko-edit modinfo acme_xa.ko acme_xa_forced.ko '-markers ' '-nomatch '\n"
"  ko-edit --site 1 name-no-nul markers_prop.ko bad.ko\n";

static void cleanup(void)
{
	if (tmp_path) {
		unlink(tmp_path);
		tmp_path = NULL;
	}
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cleanup();
	exit(1);
}

static void __attribute__((noreturn)) die_elf(const char *what)
{
	die("%s: %s: %s", in_path, what, elf_errmsg(-1));
}

static void __attribute__((noreturn)) usage_error(const char *msg)
{
	fprintf(stderr, "%s: %s\n%s", prog, msg, usage_text);
	exit(2);
}

struct ko {
	Elf *elf;
	size_t shstrndx;
	size_t file_size;
};

static const char *scn_name(const struct ko *ko, Elf_Scn *scn)
{
	GElf_Shdr sh;
	const char *name;

	if (!gelf_getshdr(scn, &sh))
		die_elf("section header");
	name = elf_strptr(ko->elf, ko->shstrndx, sh.sh_name);
	return name ? name : "";
}

static Elf_Scn *find_scn(const struct ko *ko, const char *name)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ko->elf, scn)))
		if (!strcmp(scn_name(ko, scn), name))
			return scn;
	return NULL;
}

static Elf_Scn *need_scn(const struct ko *ko, const char *name)
{
	Elf_Scn *scn = find_scn(ko, name);

	if (!scn)
		die("%s has no %s section", in_path, name);
	return scn;
}

/* The relocation section applying to section @target, or NULL */
static Elf_Scn *rela_for(const struct ko *ko, Elf_Scn *target)
{
	size_t ndx = elf_ndxscn(target);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(ko->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			die_elf("section header");
		if (sh.sh_type == SHT_RELA && sh.sh_info == ndx)
			return scn;
	}
	return NULL;
}

/* The one data buffer of a section with contents */
static Elf_Data *scn_data(Elf_Scn *scn, const char *name)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d || (!d->d_buf && d->d_size))
		die("%s: cannot read section %s", in_path, name);
	if (elf_getdata(scn, d))
		die("%s: section %s has more than one data buffer", in_path, name);
	return d;
}

static void scn_shdr(Elf_Scn *scn, GElf_Shdr *sh)
{
	if (!gelf_getshdr(scn, sh))
		die_elf("section header");
}

static void scn_update_shdr(Elf_Scn *scn, GElf_Shdr *sh)
{
	if (!gelf_update_shdr(scn, sh))
		die_elf("update section header");
	elf_flagshdr(scn, ELF_C_SET, ELF_F_DIRTY);
}

static void data_dirty(Elf_Data *d)
{
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
}

/*
 * Give section @scn new contents of @size bytes, at the end of the file
 * if they no longer fit where they were (ELF_F_LAYOUT: nothing else moves).
 */
static void scn_resize(struct ko *ko, Elf_Scn *scn, Elf_Data *d,
		       void *buf, size_t size)
{
	GElf_Shdr sh;

	scn_shdr(scn, &sh);
	if (size > sh.sh_size && sh.sh_type != SHT_NOBITS) {
		size_t align = sh.sh_addralign > 1 ? sh.sh_addralign : 1;

		sh.sh_offset = (ko->file_size + align - 1) / align * align;
		ko->file_size = sh.sh_offset + size;
	}
	sh.sh_size = size;
	d->d_buf = buf;
	d->d_size = size;
	scn_update_shdr(scn, &sh);
	data_dirty(d);
}

/* The marker sections, checked to be what the kernel build makes */
struct markers {
	Elf_Scn *scn, *rela, *strings;
	Elf_Data *data, *rdata, *sdata;
	size_t nr_sites, nr_rela;
};

static void get_markers(const struct ko *ko, struct markers *mk)
{
	GElf_Shdr sh;

	memset(mk, 0, sizeof(*mk));
	mk->scn = need_scn(ko, "__markers");
	scn_shdr(mk->scn, &sh);
	if (sh.sh_type != SHT_PROGBITS)
		die("%s: __markers is not a PROGBITS section", in_path);
	mk->data = scn_data(mk->scn, "__markers");
	if (!sh.sh_size || sh.sh_size % MARKER_SIZE)
		die("%s: __markers is %zu bytes, not a whole number of %d-byte struct marker: is it a module of this kernel?",
		    in_path, (size_t)sh.sh_size, MARKER_SIZE);
	mk->nr_sites = sh.sh_size / MARKER_SIZE;
	mk->rela = rela_for(ko, mk->scn);
	if (!mk->rela)
		die("%s has no relocation section for __markers", in_path);
	scn_shdr(mk->rela, &sh);
	mk->rdata = scn_data(mk->rela, ".rela__markers");
	mk->nr_rela = sh.sh_size / sizeof(Elf64_Rela);
	mk->strings = need_scn(ko, "__markers_strings");
	mk->sdata = scn_data(mk->strings, "__markers_strings");
}

/* Index of the relocation of the word at @offset of __markers, or die */
static size_t site_rela(const struct markers *mk, size_t site, size_t field,
			GElf_Rela *rela)
{
	size_t i, offset = site * MARKER_SIZE + field;

	if (site >= mk->nr_sites)
		die("%s: no site %zu: __markers has %zu", in_path, site,
		    mk->nr_sites);
	for (i = 0; i < mk->nr_rela; i++) {
		if (!gelf_getrela(mk->rdata, (int)i, rela))
			die_elf("relocation");
		if (rela->r_offset == offset)
			return i;
	}
	die("%s: site %zu has no relocation at offset %zu of __markers",
	    in_path, site, offset);
}

/* Offset in __markers_strings of the name (or format) of a site */
static size_t site_string(const struct markers *mk, size_t site, size_t field)
{
	GElf_Shdr sh;
	GElf_Rela r;

	site_rela(mk, site, field, &r);
	scn_shdr(mk->strings, &sh);
	if (ELF64_R_TYPE(r.r_info) != R_X86_64_64 || r.r_addend < 0 ||
	    (size_t)r.r_addend >= mk->sdata->d_size)
		die("%s: site %zu does not point into __markers_strings",
		    in_path, site);
	return (size_t)r.r_addend;
}

static void set_addend(const struct markers *mk, size_t i, GElf_Rela *r,
		       int64_t addend)
{
	r->r_addend = addend;
	if (!gelf_update_rela(mk->rdata, (int)i, r))
		die_elf("update relocation");
	data_dirty(mk->rdata);
}

static char *xmalloc(size_t size)
{
	char *p = calloc(1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* modinfo FIND REPLACE */
static void edit_modinfo(const struct ko *ko, const char *find,
			 const char *replace)
{
	Elf_Scn *scn = need_scn(ko, ".modinfo");
	Elf_Data *d = scn_data(scn, ".modinfo");
	size_t len = strlen(find), off, hits = 0, at = 0;
	char *buf = d->d_buf;

	if (!len)
		die("modinfo: FIND is empty");
	if (strlen(replace) != len)
		die("modinfo: '%s' -> '%s' changes the size of the .modinfo of %s (%zu -> %zu bytes)",
		    find, replace, in_path, len, strlen(replace));
	if (!strcmp(find, replace))
		die("modinfo: '%s' -> '%s' does not change the .modinfo of %s",
		    find, replace, in_path);
	for (off = 0; off + len <= d->d_size; off++)
		if (!memcmp(buf + off, find, len)) {
			hits++;
			at = off;
		}
	if (!hits)
		die("modinfo: '%s' is not in the .modinfo of %s", find, in_path);
	if (hits > 1)
		die("modinfo: '%s' is %zu times in the .modinfo of %s; make it match once",
		    find, hits, in_path);
	memcpy(buf + at, replace, len);
	data_dirty(d);
}

static void edit_truncate(struct ko *ko, const struct markers *mk)
{
	size_t size = mk->data->d_size - 8, i;
	GElf_Rela r;

	for (i = 0; i < mk->nr_rela; i++) {
		if (!gelf_getrela(mk->rdata, (int)i, &r))
			die_elf("relocation");
		if (r.r_offset >= size)
			die("%s: a relocation applies to the bytes truncate would cut",
			    in_path);
	}
	scn_resize(ko, mk->scn, mk->data, mk->data->d_buf, size);
}

/*
 * The loader lays out the writable sections in section order, each at its
 * sh_addralign, from a page boundary.  Give __markers alignment 1 and make
 * the writable section before it end 4 bytes past an 8-byte boundary (it
 * gets alignment 8 and is grown), so that __markers starts there.  4, not
 * an odd offset: the static keys inside stay 4-byte aligned, as
 * jump_label needs the low two bits of a key's address for itself.
 */
static void edit_misalign(struct ko *ko, const struct markers *mk)
{
	size_t ndx = elf_ndxscn(mk->scn), i, pad;
	Elf_Scn *prev = NULL, *scn;
	GElf_Shdr sh, psh;
	Elf_Data *d;
	char *buf;

	for (i = 1; i < ndx; i++) {
		const char *name;

		scn = elf_getscn(ko->elf, i);
		scn_shdr(scn, &sh);
		name = scn_name(ko, scn);
		if ((sh.sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_WRITE) || !strncmp(name, ".init", 5) ||
		    !strcmp(name, "__jump_table") ||
		    !strcmp(name, ".data..ro_after_init") ||
		    !strcmp(name, ".data..percpu"))
			continue;
		prev = scn;
	}
	if (!prev)
		die("%s: no writable section before __markers to shift it with",
		    in_path);
	scn_shdr(prev, &psh);
	if (psh.sh_type != SHT_PROGBITS)
		die("%s: the section before __markers (%s) is not PROGBITS",
		    in_path, scn_name(ko, prev));
	d = scn_data(prev, scn_name(ko, prev));
	pad = (MARKER_ALIGN + 4 - d->d_size % MARKER_ALIGN) % MARKER_ALIGN;
	if (!pad)
		pad = MARKER_ALIGN;
	buf = xmalloc(d->d_size + pad);
	if (d->d_size)
		memcpy(buf, d->d_buf, d->d_size);
	if (psh.sh_addralign < MARKER_ALIGN) {
		psh.sh_addralign = MARKER_ALIGN;
		d->d_align = MARKER_ALIGN;
		scn_update_shdr(prev, &psh);
	}
	scn_resize(ko, prev, d, buf, d->d_size + pad);
	scn_shdr(mk->scn, &sh);
	sh.sh_addralign = 1;
	mk->data->d_align = 1;
	scn_update_shdr(mk->scn, &sh);
}

/*
 * A section header field written into the file after libelf is done:
 * libelf would extend the file to cover a size the file does not have.
 */
static struct {
	off_t offset;
	uint64_t value;
	int set;
} raw_patch;

static void edit_huge_size(const struct ko *ko, const struct markers *mk)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(ko->elf, &eh))
		die_elf("ELF header");
	raw_patch.offset = (off_t)(eh.e_shoff +
				   elf_ndxscn(mk->scn) * eh.e_shentsize +
				   offsetof(Elf64_Shdr, sh_size));
	raw_patch.value = (uint64_t)MARKER_SIZE * 0x1000000;
	raw_patch.set = 1;
}

static void edit_many_sites(struct ko *ko, const struct markers *mk,
			    const char *arg)
{
	char *end, *buf;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 100000)
		die("many-sites: N must be a number from 1 to 100000, not '%s'",
		    arg);
	buf = xmalloc(mk->data->d_size + n * MARKER_SIZE);
	memcpy(buf, mk->data->d_buf, mk->data->d_size);
	scn_resize(ko, mk->scn, mk->data, buf,
		   mk->data->d_size + n * MARKER_SIZE);
}

static void edit_not_writable(const struct markers *mk)
{
	GElf_Shdr sh;

	scn_shdr(mk->scn, &sh);
	sh.sh_flags &= ~(GElf_Xword)SHF_WRITE;
	scn_update_shdr(mk->scn, &sh);
}

/* "__markers_strings" + 2 is "markers_strings", already in .shstrtab */
static void edit_no_strings(const struct markers *mk)
{
	GElf_Shdr sh;

	scn_shdr(mk->strings, &sh);
	sh.sh_name += 2;
	scn_update_shdr(mk->strings, &sh);
}

static void edit_truncate_strings(struct ko *ko, const struct markers *mk)
{
	const char *s = mk->sdata->d_buf;
	size_t size = mk->sdata->d_size;

	if (!size || s[size - 1])
		die("%s: __markers_strings does not end with a NUL", in_path);
	scn_resize(ko, mk->strings, mk->sdata, mk->sdata->d_buf, size - 1);
}

static void edit_format_no_nul(const struct markers *mk)
{
	char *s = mk->sdata->d_buf;
	size_t size = mk->sdata->d_size;

	if (!size || s[size - 1])
		die("%s: __markers_strings does not end with a NUL", in_path);
	s[size - 1] = 'X';
	data_dirty(mk->sdata);
}

static void edit_name_no_nul(const struct markers *mk, size_t site)
{
	size_t name = site_string(mk, site, MARKER_NAME_OFF);
	char *s = mk->sdata->d_buf;
	char *nul = memchr(s + name, '\0', mk->sdata->d_size - name);

	if (!nul)
		die("%s: the name of site %zu has no NUL already", in_path, site);
	*nul = '_';
	data_dirty(mk->sdata);
}

static void edit_outside_target(const struct ko *ko, const struct markers *mk,
				size_t site)
{
	Elf_Scn *symscn = NULL;
	GElf_Shdr sh, rsh;
	Elf_Data *syms;
	GElf_Sym sym;
	GElf_Rela r;
	size_t i, n, target = 0;

	scn_shdr(mk->rela, &rsh);
	symscn = elf_getscn(ko->elf, rsh.sh_link);
	if (!symscn)
		die("%s: .rela__markers has no symbol table", in_path);
	scn_shdr(symscn, &sh);
	syms = scn_data(symscn, ".symtab");
	n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	for (i = 1; i < n; i++) {
		const char *name;

		if (!gelf_getsym(syms, (int)i, &sym))
			die_elf("symbol");
		if (sym.st_shndx != SHN_UNDEF ||
		    GELF_ST_BIND(sym.st_info) != STB_GLOBAL)
			continue;
		name = elf_strptr(ko->elf, sh.sh_link, sym.st_name);
		if (!target || (name && !strcmp(name, "marker_probe_cb")))
			target = i;
	}
	if (!target)
		die("%s imports no symbol to point a marker at", in_path);
	i = site_rela(mk, site, MARKER_NAME_OFF, &r);
	r.r_info = GELF_R_INFO(target, ELF64_R_TYPE(r.r_info));
	set_addend(mk, i, &r, 0);
}

static void edit_bad_addend(const struct markers *mk, size_t site)
{
	GElf_Rela r;
	size_t i = site_rela(mk, site, MARKER_FORMAT_OFF, &r);

	set_addend(mk, i, &r, r.r_addend + 0x100000);
}

static void edit_not_ident(const struct markers *mk, size_t site)
{
	char *s = mk->sdata->d_buf;

	s[site_string(mk, site, MARKER_NAME_OFF)] = '1';
	data_dirty(mk->sdata);
}

static void edit_expanded_name(const struct markers *mk, size_t site)
{
	size_t name = site_string(mk, site, MARKER_NAME_OFF);
	char *s = mk->sdata->d_buf;
	size_t len = strnlen(s + name, mk->sdata->d_size - name);

	s[name] = '1';
	memset(s + name + 1, '\0', len - 1);
	data_dirty(mk->sdata);
}

/*
 * Rebuild __markers_strings with the name of @site made 64 characters
 * long: every site's record is written anew, in site order, and the
 * relocations of the names and formats follow their strings.
 */
static void edit_long_name(struct ko *ko, const struct markers *mk,
			   size_t site)
{
	static const char long_name[] =
		"long_name_of_sixty_four_characters_xxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
	const char *old = mk->sdata->d_buf;
	size_t size = 0, i, name, format, nlen, at = 0;
	GElf_Rela r;
	char *buf;

	_Static_assert(sizeof(long_name) - 1 == 64, "MARKER_NAME_MAX");
	if (site >= mk->nr_sites)
		die("%s: no site %zu: __markers has %zu", in_path, site,
		    mk->nr_sites);
	for (i = 0; i < mk->nr_sites; i++) {
		name = site_string(mk, i, MARKER_NAME_OFF);
		format = site_string(mk, i, MARKER_FORMAT_OFF);
		nlen = i == site ? sizeof(long_name) - 1 :
			strnlen(old + name, mk->sdata->d_size - name);
		size += nlen + 1 + strnlen(old + format,
					   mk->sdata->d_size - format) + 1;
	}
	buf = xmalloc(size);
	for (i = 0; i < mk->nr_sites; i++) {
		size_t ri, flen;

		name = site_string(mk, i, MARKER_NAME_OFF);
		format = site_string(mk, i, MARKER_FORMAT_OFF);
		nlen = strnlen(old + name, mk->sdata->d_size - name);
		flen = strnlen(old + format, mk->sdata->d_size - format);
		ri = site_rela(mk, i, MARKER_NAME_OFF, &r);
		set_addend(mk, ri, &r, (int64_t)at);
		if (i == site) {
			nlen = sizeof(long_name) - 1;
			memcpy(buf + at, long_name, nlen);
		} else {
			memcpy(buf + at, old + name, nlen);
		}
		at += nlen + 1;
		ri = site_rela(mk, i, MARKER_FORMAT_OFF, &r);
		set_addend(mk, ri, &r, (int64_t)at);
		memcpy(buf + at, old + format, flen);
		at += flen + 1;
	}
	scn_resize(ko, mk->strings, mk->sdata, buf, size);
}

static void edit_in_use(const struct markers *mk, size_t site)
{
	unsigned char *p = mk->data->d_buf;

	if (site >= mk->nr_sites)
		die("%s: no site %zu: __markers has %zu", in_path, site,
		    mk->nr_sites);
	p += site * MARKER_SIZE + MARKER_KEY_ENABLED_OFF;
	p[0] = 1;	/* atomic_t enabled = 1, little-endian */
	data_dirty(mk->data);
}

static void copy_file(int from, int to, const char *out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(from, buf, sizeof(buf))) > 0)
		if (write(to, buf, (size_t)n) != n)
			die("%s: write: %s", out, strerror(errno));
	if (n < 0)
		die("%s: read: %s", in_path, strerror(errno));
}

/* Commands and their numbers of arguments after IN and OUT */
static const struct {
	const char *name;
	int args;
	int markers;	/* needs the marker sections */
} commands[] = {
	{ "modinfo", 2, 0 },
	{ "truncate", 0, 1 }, { "misalign", 0, 1 }, { "huge-size", 0, 1 },
	{ "many-sites", 1, 1 }, { "not-writable", 0, 1 },
	{ "no-strings", 0, 1 }, { "truncate-strings", 0, 1 },
	{ "format-no-nul", 0, 1 }, { "name-no-nul", 0, 1 },
	{ "outside-target", 0, 1 }, { "bad-addend", 0, 1 },
	{ "not-ident", 0, 1 }, { "expanded-name", 0, 1 },
	{ "long-name", 0, 1 }, { "in-use", 0, 1 },
};

int main(int argc, char **argv)
{
	size_t site = 0, c, ncommands = sizeof(commands) / sizeof(commands[0]);
	const char *cmd, *out;
	struct markers mk;
	struct ko ko;
	struct stat st;
	int in_fd, fd, argi = 1;
	char *end;

	for (; argi < argc && (!strncmp(argv[argi], "--", 2) ||
			       !strcmp(argv[argi], "-h")); argi++) {
		if (!strcmp(argv[argi], "--help") || !strcmp(argv[argi], "-h")) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (!strcmp(argv[argi], "--site") && argi + 1 < argc) {
			errno = 0;
			site = strtoul(argv[argi + 1], &end, 10);
			if (errno || end == argv[argi + 1] || *end)
				usage_error("--site takes a number");
			argi++;
			continue;
		}
		usage_error("unknown option");
	}
	if (argi + 3 > argc)
		usage_error("missing arguments");
	cmd = argv[argi];
	in_path = argv[argi + 1];
	out = argv[argi + 2];
	for (c = 0; c < ncommands; c++)
		if (!strcmp(cmd, commands[c].name))
			break;
	if (c == ncommands)
		usage_error("unknown command");
	if (argc - argi - 3 != commands[c].args)
		usage_error("wrong number of arguments for this command");

	in_fd = open(in_path, O_RDONLY);
	if (in_fd < 0)
		die("cannot read %s: %s", in_path, strerror(errno));
	if (fstat(in_fd, &st) || !S_ISREG(st.st_mode))
		die("%s is not a regular file", in_path);
	if (asprintf(&tmp_path, "%s.ko-edit.XXXXXX", out) < 0) {
		tmp_path = NULL;
		die("out of memory");
	}
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		free(tmp_path);
		tmp_path = NULL;
		die("cannot write %s: %s", out, strerror(errno));
	}
	copy_file(in_fd, fd, out);
	close(in_fd);

	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf is too old");
	ko.elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!ko.elf || elf_kind(ko.elf) != ELF_K_ELF)
		die("%s is not an ELF file", in_path);
	{
		GElf_Ehdr eh;

		if (!gelf_getehdr(ko.elf, &eh) ||
		    gelf_getclass(ko.elf) != ELFCLASS64 ||
		    eh.e_type != ET_REL || eh.e_machine != EM_X86_64)
			die("%s is not an x86-64 relocatable object (a .ko)",
			    in_path);
	}
	if (elf_getshdrstrndx(ko.elf, &ko.shstrndx))
		die_elf("section names");
	ko.file_size = (size_t)st.st_size;
	elf_flagelf(ko.elf, ELF_C_SET, ELF_F_LAYOUT);

	if (commands[c].markers)
		get_markers(&ko, &mk);
	if (!strcmp(cmd, "modinfo"))
		edit_modinfo(&ko, argv[argi + 3], argv[argi + 4]);
	else if (!strcmp(cmd, "truncate"))
		edit_truncate(&ko, &mk);
	else if (!strcmp(cmd, "misalign"))
		edit_misalign(&ko, &mk);
	else if (!strcmp(cmd, "huge-size"))
		edit_huge_size(&ko, &mk);
	else if (!strcmp(cmd, "many-sites"))
		edit_many_sites(&ko, &mk, argv[argi + 3]);
	else if (!strcmp(cmd, "not-writable"))
		edit_not_writable(&mk);
	else if (!strcmp(cmd, "no-strings"))
		edit_no_strings(&mk);
	else if (!strcmp(cmd, "truncate-strings"))
		edit_truncate_strings(&ko, &mk);
	else if (!strcmp(cmd, "format-no-nul"))
		edit_format_no_nul(&mk);
	else if (!strcmp(cmd, "name-no-nul"))
		edit_name_no_nul(&mk, site);
	else if (!strcmp(cmd, "outside-target"))
		edit_outside_target(&ko, &mk, site);
	else if (!strcmp(cmd, "bad-addend"))
		edit_bad_addend(&mk, site);
	else if (!strcmp(cmd, "not-ident"))
		edit_not_ident(&mk, site);
	else if (!strcmp(cmd, "expanded-name"))
		edit_expanded_name(&mk, site);
	else if (!strcmp(cmd, "long-name"))
		edit_long_name(&ko, &mk, site);
	else if (!strcmp(cmd, "in-use"))
		edit_in_use(&mk, site);

	if (elf_update(ko.elf, ELF_C_WRITE) < 0)
		die_elf("write the new module");
	elf_end(ko.elf);
	if (raw_patch.set &&
	    pwrite(fd, &raw_patch.value, sizeof(raw_patch.value),
		   raw_patch.offset) != (ssize_t)sizeof(raw_patch.value))
		die("cannot write %s: %s", out, strerror(errno));
	if (fchmod(fd, st.st_mode & 07777) || fsync(fd) || close(fd))
		die("cannot write %s: %s", out, strerror(errno));
	if (rename(tmp_path, out))
		die("cannot write %s: %s", out, strerror(errno));
	free(tmp_path);
	tmp_path = NULL;
	return 0;
}
