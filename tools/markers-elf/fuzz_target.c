// SPDX-License-Identifier: GPL-2.0
/*
 * markers-elf fuzz target: feeds arbitrary bytes through the same parsing
 * code as the tool (raw pre-check, elf_memory, markers_scan_elf, module
 * name selection) and through the Module.markers merge code.
 * Built with libFuzzer (clang -fsanitize=fuzzer): make fuzz-libfuzzer.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "markers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every formatted line is "name<TAB>module<TAB>format<NL>", one per marker. */
static void check_lines(const struct strbuf *add, const struct marker_set *set)
{
	size_t i, lines = 0, tabs = 0;

	for (i = 0; i < add->len; i++) {
		if (add->p[i] == '\t') {
			tabs++;
		} else if (add->p[i] == '\n') {
			if (tabs != 2)
				abort();
			tabs = 0;
			lines++;
		}
	}
	if (tabs != 0 || lines != set->n)
		abort();
}

static void exercise_merge(const uint8_t *old, size_t oldlen,
			   const char *module, const struct marker_set *set)
{
	static const char *const fixed[] = { "acme_xa", "vmlinux", "" };
	struct strbuf add = { 0 }, out = { 0 }, again = { 0 };
	const char *mods[3] = { fixed[0], fixed[1], module };
	const char *const *m = fixed;
	size_t removed, nmods = 2;

	if (set && markers_format_lines(&add, module, set) == 0) {
		check_lines(&add, set);
		m = mods;
		nmods = 3;
	}
	/*
	 * Merging is idempotent: the second merge removes exactly the lines
	 * the first one added and adds them again.
	 */
	if (markers_merge_text((const char *)old, oldlen, m, nmods, &add,
			       &out, &removed) == 0 &&
	    markers_merge_text(out.p ? out.p : "", out.len, m, nmods, &add,
			       &again, &removed) == 0 &&
	    (again.len != out.len ||
	     (out.len && memcmp(again.p, out.p, out.len) != 0)))
		abort();
	sb_free(&add);
	sb_free(&out);
	sb_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int initialized;
	struct markers_file mf;
	struct markers_err err = { "" };
	struct markers_src src;
	unsigned char *buf;
	char *module;
	int merged = 0;
	Elf *elf;

	if (!initialized) {
		if (elf_version(EV_CURRENT) == EV_NONE)
			abort();
		initialized = 1;
	}
	/* libelf may write into an elf_memory image: give it a copy. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	src.read = markers_mem_read;
	src.ctx = buf;
	src.size = size;
	if (markers_precheck(&src, &err))
		goto out;
	elf = elf_memory((char *)buf, size);
	if (!elf)
		goto out;
	if (markers_scan_elf(elf, size, 1, &mf, &err) == 0) {
		module = markers_module_name(&mf, "fuzz-input.ko", NULL, &err);
		if (module) {
			exercise_merge(data, size, module, &mf.set);
			merged = 1;
			free(module);
		}
		markers_file_free(&mf);
	}
	elf_end(elf);
out:
	if (!merged)	/* treat the input as an old Module.markers */
		exercise_merge(data, size, "", NULL);
	free(buf);
	return 0;
}
