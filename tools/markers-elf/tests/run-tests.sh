#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests for markers-elf.  Usage: tests/run-tests.sh [PATH/TO/markers-elf]
# Prints TAP lines "ok N - ..." / "not ok N - ..." and a final
# "# N passed, N failed" line; exits non-zero if any test failed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../../../tests/unit-tap.sh
. "$here/../../../tests/unit-tap.sh" markers-elf "${1:-$here/../markers-elf}"
S=$T/seeds
"$here/mkseeds.sh" "$S" >/dev/null

elftool() { python3 "$here/elftool.py" "$@"; }

# expect_out NAME EXPECTED_STDOUT CMD...: exit 0, exact stdout, no stderr.
expect_out() {
	local name=$1 exp=$2
	shift 2
	run "$@"
	printf '%s' "$exp" >"$T/exp"
	if [ "$rc" -ne 0 ]; then
		notok "$name" "expected exit status 0"
	elif ! cmp -s "$T/exp" "$T/out"; then
		notok "$name" "stdout differs from expected:" \
			"$(diff "$T/exp" "$T/out" | tr '\t' '>' | head -20)"
	elif [ -s "$T/err" ]; then
		notok "$name" "unexpected stderr"
	else
		ok "$name"
	fi
}

# expect_err NAME FILE REGEX CMD...: exit 1, no stdout, a single stderr
# line "markers-elf: FILE: ..." matching the extended REGEX.
expect_err() {
	local name=$1 file=$2 re=$3 first
	shift 3
	run "$@"
	first=$(head -n 1 "$T/err")
	if [ "$rc" -ne 1 ]; then
		notok "$name" "expected exit status 1"
	elif [ -s "$T/out" ]; then
		notok "$name" "unexpected stdout"
	elif [ "$(wc -l <"$T/err")" -ne 1 ]; then
		notok "$name" "expected exactly one line on stderr"
	elif [ "${first#"markers-elf: $file: "}" = "$first" ]; then
		notok "$name" "stderr does not start with 'markers-elf: $file: '"
	elif ! grep -qE -- "$re" "$T/err"; then
		notok "$name" "stderr does not match /$re/"
	else
		ok "$name"
	fi
}

# expect_usage NAME CMD...: exit 2, no stdout, a message on stderr.
expect_usage() {
	local name=$1
	shift
	run "$@"
	if [ "$rc" -ne 2 ]; then
		notok "$name" "expected exit status 2"
	elif [ -s "$T/out" ]; then
		notok "$name" "unexpected stdout"
	elif ! grep -q '^markers-elf: ' "$T/err"; then
		notok "$name" "no 'markers-elf: ' message on stderr"
	else
		ok "$name"
	fi
}

# rc_and_same RC FILE1 FILE2: the last run exited RC and the files are equal.
rc_and_same() {
	[ "$rc" -eq "$1" ] && cmp -s "$2" "$3"
}

# replaced_with_mode EXPECTED FILE MODE: FILE has the expected content and
# the octal MODE.
replaced_with_mode() {
	cmp -s "$1" "$2" && [ "$(stat -c %a "$2" 2>/dev/null)" = "$3" ]
}

# fresh NAME SEED: copy of a seed file to patch, prints its path.
fresh() {
	cp "$S/$2" "$W/$1"
	echo "$W/$1"
}

ACME=$'acme_cmd_submit\tacme_xa\tid %u len %u\nacme_irq\tacme_xa\t\nacme_cmd_done\tacme_xa\tid %u status %d\n'
PLAIN=$'plain_start\tacme_plain\tcpu %d\nplain_stop\tacme_plain\t\n'

echo "# binary: $bin"

# ---- normal output ----------------------------------------------------
expect_out "object with debug info: names, formats, MARK_NOARGS, duplicates, .modinfo name" \
	"$ACME" "$bin" "$S/acme_xa.o"
expect_out "stripped object (strip)" "$ACME" "$bin" "$S/acme_xa-stripped.o"
expect_out "object stripped of debug info (strip --strip-debug)" "$ACME" \
	"$bin" "$S/acme_xa-nodebug.o"
expect_out "-m overrides the .modinfo name" "${ACME//acme_xa/vendor_x}" \
	"$bin" -m vendor_x "$S/acme_xa.o"
expect_out "--module=NAME long option" "${ACME//acme_xa/vendor_x}" \
	"$bin" --module=vendor_x "$S/acme_xa-stripped.o"
expect_out "basename fallback for .o ('-' becomes '_')" "$PLAIN" \
	"$bin" "$S/acme-plain.o"
expect_out "basename fallback for a .ko linked with ld -r" "$PLAIN" \
	"$bin" "$S/acme-plain.ko"
mkdir -p "$W/some-dir.d"
cp "$S/acme-plain.o" "$W/some-dir.d/x-y-z"
expect_out "basename fallback ignores the directory, no suffix to strip" \
	"${PLAIN//acme_plain/x_y_z}" "$bin" "$W/some-dir.d/x-y-z"
expect_out "ET_EXEC defaults to module vmlinux" \
	$'sched_switch\tvmlinux\tprev %d next %d\nkernel_idle\tvmlinux\t\n' \
	"$bin" "$S/acme-prog"
expect_out "ET_DYN uses the basename" \
	$'sched_switch\tacme_prog_pie\tprev %d next %d\nkernel_idle\tacme_prog_pie\t\n' \
	"$bin" "$S/acme-prog-pie"
expect_out "-m overrides vmlinux for ET_EXEC" \
	$'sched_switch\tcore\tprev %d next %d\nkernel_idle\tcore\t\n' \
	"$bin" -m core "$S/acme-prog"
expect_out "two __markers_strings sections, deduplicated across them" \
	$'multi_a\tmulti\tfmt %d\nmulti_b\tmulti\t\n' "$bin" "$S/multi.o"
expect_out "big-endian ELF64 with .modinfo" \
	$'be_event\tbe_mod\tval %llx\nbe_noargs\tbe_mod\t\n' "$bin" "$S/be64.o"
expect_out "big-endian ELF32" $'be32_event\tbe32\tx %d\n' "$bin" "$S/be32.o"
expect_out "little-endian ELF32, padded .modinfo" \
	$'le32_event\tle32_mod\ty %s\n' "$bin" "$S/le32.o"
if [ -f "$S/acme_xa-m32.o" ]; then
	expect_out "gcc -m32 object" "$ACME" "$bin" "$S/acme_xa-m32.o"
else
	notok "gcc -m32 object" "gcc cannot build 32-bit objects here: install gcc-multilib (make deps does)"
fi
expect_out "several files: deduplicated within a file only, in order" \
	"$ACME$PLAIN$ACME" "$bin" "$S/acme_xa.o" "$S/acme-plain.o" "$S/acme_xa-nodebug.o"
elftool gen "$W/sameformat.o" \
	'__markers_strings=ev\0a %d\0ev\0b %s\0ev\0a %d\0ev\0\0'
expect_out "same name with different formats are distinct markers" \
	$'ev\tsameformat\ta %d\nev\tsameformat\tb %s\nev\tsameformat\t\n' \
	"$bin" "$W/sameformat.o"
# Module.markers holds formats as their arguments travel: what SystemTap
# 5.1-5.5 can read (they know l and ll only) and the kernel matches
elftool gen "$W/travel.o" \
	'__markers_strings=ev\0s %hd c %hhx z %zu Z %Zd t %td j %jd L %Lu q %qd w %#08hx 100%% %s\0'
expect_out "formats are written as their arguments travel (h, hh, z, Z, t, j, L, q)" \
	$'ev\ttravel\ts %d c %x z %lu Z %ld t %ld j %lld L %llu q %lld w %#08x 100%% %s\n' \
	"$bin" "$W/travel.o"
elftool gen "$W/travel-edge.o" \
	'__markers_strings=a\0%%hd %h\0b\0end %\0c\0%-+ #0*.*hhu%hz\0'
expect_out "... a %% stays, and a conversion cut short or at the end is kept" \
	$'a\ttravel_edge\t%%hd %\nb\ttravel_edge\tend %\nc\ttravel_edge\t%-+ #0*.*u%z\n' \
	"$bin" "$W/travel-edge.o"
expect_out "file without markers prints nothing" "" "$bin" "$S/nomarkers.o"
run "$bin" -v "$S/nomarkers.o"
check "-v notes a file without markers (exit 0)" \
	test "$rc" -eq 0 -a ! -s "$T/out" -a "$(cat "$T/err")" = \
	"markers-elf: $S/nomarkers.o: note: no __markers_strings section"
f=$(fresh noshdr.o acme_xa-nodebug.o)
elftool ehdr "$f" shoff 0
elftool ehdr "$f" shnum 0
elftool ehdr "$f" shstrndx 0
expect_out "ELF file without section headers has no markers" "" "$bin" "$f"
f=$(fresh extnum.o acme_xa-nodebug.o)
read -r _ cnt strndx <<<"$(python3 -c '
import struct,sys
d=open(sys.argv[1],"rb").read()
print(0, struct.unpack_from("<H",d,60)[0], struct.unpack_from("<H",d,62)[0])' "$f")"
elftool shdr "$f" '#0' size "$cnt"
elftool shdr "$f" '#0' link "$strndx"
elftool ehdr "$f" shnum 0
elftool ehdr "$f" shstrndx 0xffff
expect_out "extended section numbering (e_shnum 0, SHN_XINDEX)" "$ACME" \
	"$bin" "$f"
f=$(fresh badmodinfo.o acme_xa-nodebug.o)
elftool shdr "$f" .modinfo offset 'filesize+100'
expect_out "-m skips .modinfo entirely" "${ACME//acme_xa/m}" "$bin" -m m "$f"
python3 -c '
import sys
with open(sys.argv[1], "wb") as f:
    for i in range(100000):
        f.write(b"ev_%d\0arg %%d\0" % i)
    for i in range(0, 100000, 7):
        f.write(b"ev_%d\0arg %%d\0" % i)' "$W/big.bin"
elftool gen "$W/big.o" "__markers_strings=@$W/big.bin"
run "$bin" "$W/big.o"
check "100000 markers plus duplicates: all unique lines, in order" \
	test "$rc" -eq 0 -a "$(wc -l <"$T/out")" -eq 100000 -a \
	"$(sed -n '1p;100000p' "$T/out" | tr '\t\n' '|;')" = \
	"ev_0|big|arg %d;ev_99999|big|arg %d;"
long=$(printf '%1024s' '' | tr ' ' a)
name63=$(printf '%63s' '' | tr ' ' a)
elftool gen "$W/limit.o" "__markers_strings=$name63\\0${long//a/%}\\0"
run "$bin" "$W/limit.o"
check "a name of 63 bytes and a format of 1024 bytes are accepted" \
	test "$rc" -eq 0 -a "$(wc -c <"$T/out")" -eq $((63 + 1 + 5 + 1 + 1024 + 1))

# ---- corrupt input ----------------------------------------------------
printf 'hello\n' >"$W/text.o"
expect_err "text file" "$W/text.o" 'not an ELF file \(bad magic\)$' \
	"$bin" "$W/text.o"
: >"$W/empty.o"
expect_err "empty file" "$W/empty.o" 'not an ELF file \(file is empty\)$' \
	"$bin" "$W/empty.o"
ar rc "$W/lib.a" "$S/acme_xa.o"
expect_err "ar archive" "$W/lib.a" 'not an ELF file \(ar archive' \
	"$bin" "$W/lib.a"
head -c 10 "$S/acme_xa.o" >"$W/trunc10.o"
expect_err "truncated inside e_ident" "$W/trunc10.o" \
	'truncated ELF header \(file has 10 bytes\)$' "$bin" "$W/trunc10.o"
head -c 40 "$S/acme_xa.o" >"$W/trunc40.o"
expect_err "truncated ELF header" "$W/trunc40.o" \
	'truncated ELF header \(file has 40 bytes, the ELF header needs 64\)$' \
	"$bin" "$W/trunc40.o"
head -c 40 "$S/le32.o" >"$W/trunc40-32.o"
expect_err "truncated ELF32 header" "$W/trunc40-32.o" \
	'the ELF header needs 52\)$' "$bin" "$W/trunc40-32.o"
size=$(stat -c %s "$S/acme_xa.o")
head -c $((size - 1)) "$S/acme_xa.o" >"$W/trunc-end.o"
expect_err "truncated by one byte (section header table cut)" \
	"$W/trunc-end.o" 'section header table out of bounds \(e_shoff 0x[0-9a-f]+, [0-9]+ entries of 64 bytes' \
	"$bin" "$W/trunc-end.o"
head -c 1000 "$S/acme_xa.o" >"$W/trunc-mid.o"
expect_err "truncated before the section header table" "$W/trunc-mid.o" \
	'section header table out of bounds \(e_shoff 0x[0-9a-f]+, file size 0x3e8\)$' \
	"$bin" "$W/trunc-mid.o"
f=$(fresh shoff.o acme_xa-nodebug.o)
elftool ehdr "$f" shoff 'filesize+8'
expect_err "e_shoff past the end of file" "$f" \
	'section header table out of bounds' "$bin" "$f"
f=$(fresh shoffhuge.o acme_xa-nodebug.o)
elftool ehdr "$f" shoff 0xfffffffffffffff0
expect_err "e_shoff near 2^64 (no overflow)" "$f" \
	'section header table out of bounds' "$bin" "$f"
f=$(fresh shnum.o acme_xa-nodebug.o)
elftool ehdr "$f" shnum 0xfeff
expect_err "e_shnum too large" "$f" \
	'section header table out of bounds \(.*65279 entries' "$bin" "$f"
f=$(fresh shnum0.o acme_xa-nodebug.o)
elftool ehdr "$f" shoff 0
expect_err "e_shnum set but e_shoff 0" "$f" \
	'there is no section header table \(e_shoff is 0\)' "$bin" "$f"
f=$(fresh shentsize.o acme_xa-nodebug.o)
elftool ehdr "$f" shentsize 32
expect_err "wrong e_shentsize" "$f" \
	'invalid section header entry size e_shentsize 32 \(expected 64\)' \
	"$bin" "$f"
f=$(fresh shstrndx.o acme_xa-nodebug.o)
elftool ehdr "$f" shstrndx 200
expect_err "e_shstrndx out of range" "$f" \
	'section name string table index 200 out of range' "$bin" "$f"
f=$(fresh class.o acme_xa-nodebug.o)
elftool ehdr "$f" class 3
expect_err "invalid ELF class" "$f" 'invalid ELF class 3' "$bin" "$f"
f=$(fresh data.o acme_xa-nodebug.o)
elftool ehdr "$f" data 0
expect_err "invalid data encoding" "$f" 'invalid ELF data encoding 0' \
	"$bin" "$f"
f=$(fresh version.o acme_xa-nodebug.o)
elftool ehdr "$f" version 2
expect_err "unsupported ELF version" "$f" 'unsupported ELF version 2' \
	"$bin" "$f"
f=$(fresh strtab-type.o acme_xa-nodebug.o)
elftool shdr "$f" .shstrtab type 1
expect_err "section name string table is not SHT_STRTAB" "$f" \
	'section name string table \(section [0-9]+\) has type 0x1, not SHT_STRTAB' \
	"$bin" "$f"
f=$(fresh strtab-off.o acme_xa-nodebug.o)
elftool shdr "$f" .shstrtab size 'filesize'
expect_err "section name string table past the end of file" "$f" \
	'section name string table \(section [0-9]+\) extends past the end of file' \
	"$bin" "$f"
f=$(fresh badname.o acme_xa-nodebug.o)
elftool shdr "$f" __markers_strings name 0x7fffff
expect_err "section name offset out of the string table" "$f" \
	'section [0-9]+: invalid name offset 0x7fffff' "$bin" "$f"
f=$(fresh nobits.o acme_xa-nodebug.o)
elftool shdr "$f" __markers_strings type 8
expect_err "__markers_strings is SHT_NOBITS" "$f" \
	'__markers_strings \(section [0-9]+\) is SHT_NOBITS' "$bin" "$f"
f=$(fresh past-size.o acme_xa-nodebug.o)
elftool shdr "$f" __markers_strings size 'filesize'
expect_err "__markers_strings size extends past the end of file" "$f" \
	'__markers_strings \(section [0-9]+\) extends past the end of file \(offset 0x[0-9a-f]+, size 0x[0-9a-f]+, file size 0x[0-9a-f]+\)$' \
	"$bin" "$f"
f=$(fresh past-off.o acme_xa-nodebug.o)
elftool shdr "$f" __markers_strings offset 0xffffffffffffff00
expect_err "__markers_strings offset near 2^64 (no overflow)" "$f" \
	'__markers_strings \(section [0-9]+\) extends past the end of file' \
	"$bin" "$f"
f=$(fresh compressed.o acme_xa-nodebug.o)
elftool shdr "$f" __markers_strings flags 0x802
expect_err "__markers_strings compressed" "$f" \
	'is compressed \(SHF_COMPRESSED\), which is not supported' "$bin" "$f"
read -r _ _ msize <<<"$(elftool secinfo "$S/acme_xa-nodebug.o" __markers_strings)"
f=$(fresh unterminated.o acme_xa-nodebug.o)
elftool secwrite "$f" __markers_strings $((msize - 1)) 'x'
expect_err "last record not NUL-terminated (format)" "$f" \
	'record 4 at offset 0x[0-9a-f]+: last record not NUL-terminated$' \
	"$bin" "$f"
f=$(fresh short.o acme_xa-nodebug.o)
elftool shdr "$f" __markers_strings size $((msize - 1))
expect_err "section ends after the last name's NUL" "$f" \
	'record 4 at offset 0x[0-9a-f]+: last record not NUL-terminated$' \
	"$bin" "$f"
elftool gen "$W/noname-nul.o" '__markers_strings=ev\0fmt\0tail_name'
expect_err "last record without any NUL" "$W/noname-nul.o" \
	'record 2 at offset 0x7: last record not NUL-terminated$' \
	"$bin" "$W/noname-nul.o"
f=$(fresh emptyname.o acme_xa-nodebug.o)
elftool secwrite "$f" __markers_strings 0 '\0'
expect_err "empty marker name" "$f" \
	'__markers_strings \(section [0-9]+\): record 1 at offset 0x0: empty marker name$' \
	"$bin" "$f"
elftool gen "$W/padding.o" '__markers_strings=ev\0fmt\0\0\0'
expect_err "NUL padding after a record is an empty name" "$W/padding.o" \
	'record 2 at offset 0x7: empty marker name$' "$bin" "$W/padding.o"
f=$(fresh dash.o acme_xa-nodebug.o)
elftool secwrite "$f" __markers_strings 4 '-'
expect_err "name with '-' is not a C identifier" "$f" \
	'record 1 at offset 0x0: marker name "acme-cmd_submit" is not a C identifier$' \
	"$bin" "$f"
f=$(fresh digit.o acme_xa-nodebug.o)
elftool secwrite "$f" __markers_strings 0 '1'
expect_err "name starting with a digit is not a C identifier" "$f" \
	'marker name "1cme_cmd_submit" is not a C identifier$' "$bin" "$f"
elftool gen "$W/binname.o" '__markers_strings=a\xff\x01"b\0\0'
expect_err "binary name is escaped in the message" "$W/binname.o" \
	'marker name "a\\xff\\x01\\x22b" is not a C identifier$' \
	"$bin" "$W/binname.o"
elftool gen "$W/longname.o" "__markers_strings=a${name63}\\0\\0"
expect_err "name of 64 bytes (MARKER_NAME_MAX) too long" "$W/longname.o" \
	'marker name "a{48}\.\.\." too long \(64 bytes, limit 63\)$' \
	"$bin" "$W/longname.o"
elftool gen "$W/longfmt.o" "__markers_strings=ev\\0${long}b\\0"
expect_err "format too long" "$W/longfmt.o" \
	'format of marker "ev" too long \(1025 bytes, limit 1024\)$' \
	"$bin" "$W/longfmt.o"
f=$(fresh tab.o acme_xa-nodebug.o)
elftool secwrite "$f" __markers_strings 18 '\t'
expect_err "format contains a TAB" "$f" \
	'format of marker "acme_cmd_submit" contains a TAB character$' \
	"$bin" "$f"
f=$(fresh newline.o acme_xa-nodebug.o)
elftool secwrite "$f" __markers_strings 21 '\n'
expect_err "format contains a newline" "$f" \
	'format of marker "acme_cmd_submit" contains a newline character$' \
	"$bin" "$f"
elftool gen "$W/modname.o" '.modinfo=name=bad name\0' '__markers_strings=ev\0\0'
expect_err ".modinfo name= with a space" "$W/modname.o" \
	'\.modinfo \(section [0-9]+\): invalid module name "bad name" in name= entry$' \
	"$bin" "$W/modname.o"
elftool gen "$W/modunterm.o" '.modinfo=license=GPL\0name=abc' '__markers_strings=ev\0\0'
expect_err ".modinfo name= not NUL-terminated" "$W/modunterm.o" \
	'name= entry not NUL-terminated$' "$bin" "$W/modunterm.o"
f=$(fresh modpast.o acme_xa-nodebug.o)
elftool shdr "$f" .modinfo size 'filesize'
expect_err ".modinfo past the end of file" "$f" \
	'\.modinfo \(section [0-9]+\) extends past the end of file' "$bin" "$f"
cp "$S/acme-plain.o" "$W/my file.o"
expect_err "file name unusable as module name" "$W/my file.o" \
	'cannot use "my file" as module name; use -m$' "$bin" "$W/my file.o"
expect_err "missing file" "$W/nonexistent.o" \
	'cannot open: No such file or directory$' "$bin" "$W/nonexistent.o"
expect_err "directory" "$W" 'is a directory$' "$bin" "$W"
mkfifo "$W/fifo"
expect_err "FIFO is rejected without blocking" "$W/fifo" \
	'not a regular file$' timeout 10 "$bin" "$W/fifo"
run "$bin" "$W/text.o" "$S/acme_xa.o"
printf '%s' "$ACME" >"$T/exp"
check "an error in one file still prints the others, exit 1" \
	test "$rc" -eq 1 -a "$(cat "$T/err")" = \
	"markers-elf: $W/text.o: not an ELF file (bad magic)"
check "... and the good file's output is complete" cmp -s "$T/exp" "$T/out"
to_dev_full() { "$@" >/dev/full; }
run to_dev_full "$bin" "$S/acme_xa.o"
check "write error on stdout gives exit 1 and a message" \
	test "$rc" -eq 1 -a "$(cut -d: -f1-2 "$T/err")" = \
	"markers-elf: write error on standard output"

# ---- fuzzer findings --------------------------------------------------
# Each tests/regress/NAME.bin is an input a fuzzer found (see
# tests/regress/README; make fuzz-cov also starts from them).  It must give
# either markers or exactly one "markers-elf: FILE: ..." error line, in
# time; NAME.err, if present, holds an extended regex the error matches,
# NAME.out the exact markers it gives.  The set is never empty: an empty
# or missing tests/regress/ would run nothing and pass.
regress=("$here"/regress/*.bin)
[ -e "${regress[0]}" ] || regress=()
check "tests/regress/ holds fuzzer inputs (${#regress[@]} *.bin)" test "${#regress[@]}" -gt 0
for f in "${regress[@]}"; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .bin)
	cp "$f" "$W/$name.ko"
	if [ -f "${f%.bin}.err" ]; then
		expect_err "regress $name" "$W/$name.ko" "$(cat "${f%.bin}.err")" \
			timeout 20 "$bin" "$W/$name.ko"
		continue
	fi
	if [ -f "${f%.bin}.out" ]; then
		exp=$(cat "${f%.bin}.out"; echo .) # with its last newline
		expect_out "regress $name" "${exp%.}" timeout 20 "$bin" "$W/$name.ko"
		continue
	fi
	run timeout 20 "$bin" "$W/$name.ko"
	check "regress $name: markers or one error line, no crash" \
		test "$rc" -eq 0 -a ! -s "$T/err" -o "$rc" -eq 1 -a \
		"$(grep -c "^markers-elf: $W/$name.ko: " "$T/err")" -eq 1 -a \
		"$(wc -l <"$T/err")" -eq 1
done

# ---- usage ------------------------------------------------------------
expect_usage "no arguments" "$bin"
expect_usage "unknown option" "$bin" --frobnicate "$S/acme_xa.o"
expect_usage "-m without argument" "$bin" -m
expect_usage "--merge without argument" "$bin" --merge
expect_usage "unknown short option" "$bin" -x "$S/acme_xa.o"
expect_usage "invalid -m (space)" "$bin" -m 'a b' "$S/acme_xa.o"
expect_usage "invalid -m (empty)" "$bin" -m '' "$S/acme_xa.o"
expect_usage "-m given twice" "$bin" -m a -m b "$S/acme_xa.o"
expect_usage "--merge without files" "$bin" --merge "$W/Module.markers"
expect_usage "--merge given twice" "$bin" --merge "$W/a" --merge "$W/b" \
	"$S/acme_xa.o"
run "$bin" --help
check "--help prints usage, exit 0" \
	test "$rc" -eq 0 -a ! -s "$T/err" -a "$(head -c 25 "$T/out")" = \
	"Usage: markers-elf [-v] ["
run "$bin" --version
check "--version, exit 0" test "$rc" -eq 0 -a "$(cat "$T/out")" = \
	"markers-elf 1.0"

# ---- merge ------------------------------------------------------------
OLD=$'core_a\tvmlinux\tfmt a\nacme_old\tacme_xa\told fmt\nnot a marker line\nother_x\tother_mod\t\nacme_old2\tacme_xa\t\nzz\tacme_xa_not\tx\n'
KEPT=$'core_a\tvmlinux\tfmt a\nnot a marker line\nother_x\tother_mod\t\nzz\tacme_xa_not\tx\n'
mkdir "$W/tree"
printf '%s' "$OLD" >"$W/tree/Module.markers"
chmod 640 "$W/tree/Module.markers"
run "$bin" --merge "$W/tree/Module.markers" "$S/acme_xa-stripped.o"
printf '%s' "$KEPT$ACME" >"$T/exp"
check "merge: exit 0, nothing printed" test "$rc" -eq 0 -a ! -s "$T/out" -a ! -s "$T/err"
check "merge replaces only the module's lines, keeps the rest in order" \
	cmp -s "$T/exp" "$W/tree/Module.markers"
check "merge preserves the file mode (0640) of the replaced file" \
	replaced_with_mode "$T/exp" "$W/tree/Module.markers" 640
check "merge leaves no temporary file" \
	test "$(ls -A "$W/tree")" = Module.markers
run "$bin" --merge "$W/tree/Module.markers" "$S/acme_xa.o"
check "merge is idempotent" cmp -s "$T/exp" "$W/tree/Module.markers"
run "$bin" --merge "$W/tree" "$S/acme-plain.o"
printf '%s' "$KEPT$ACME$PLAIN" >"$T/exp"
check "merge with a directory argument appends to DIR/Module.markers" \
	rc_and_same 0 "$T/exp" "$W/tree/Module.markers"
run "$bin" --merge "$W/tree/" -m acme_xa "$S/nomarkers.o"
printf '%s' "$KEPT$PLAIN" >"$T/exp"
check "merging a file without markers removes the module's old lines" \
	cmp -s "$T/exp" "$W/tree/Module.markers"
run "$bin" -v --merge "$W/tree" "$S/acme_xa.o" "$S/acme-plain.ko"
printf '%s' "$KEPT$ACME$PLAIN" >"$T/exp"
check "merge of several files" cmp -s "$T/exp" "$W/tree/Module.markers"
check "merge -v reports what it did" test "$(cat "$T/err")" = \
	"markers-elf: $S/acme_xa.o: note: 3 marker(s), module acme_xa
markers-elf: $S/acme-plain.ko: note: 2 marker(s), module acme_plain
markers-elf: $W/tree/Module.markers: note: updated; removed 2 line(s), added 5 line(s) for 2 module(s)"
run "$bin" --merge "$W/tree" -m acme_plain "$S/acme-plain.o" "$S/acme-plain.ko" "$S/multi.o"
printf '%s' "$KEPT$ACME$PLAIN"$'multi_a\tacme_plain\tfmt %d\nmulti_b\tacme_plain\t\n' >"$T/exp"
check "files of one module are merged and deduplicated together" \
	cmp -s "$T/exp" "$W/tree/Module.markers"

cp "$W/tree/Module.markers" "$T/before"
run "$bin" --merge "$W/tree" "$S/acme_xa.o" "$W/dash.o"
check "merge with a corrupt input exits 1 naming the file" \
	test "$rc" -eq 1 -a "$(grep -c "^markers-elf: $W/dash.o: " "$T/err")" -eq 1
check "... and leaves Module.markers byte-identical" \
	cmp -s "$T/before" "$W/tree/Module.markers"
check "... and leaves no temporary file" \
	test "$(ls -A "$W/tree")" = Module.markers
run "$bin" --merge "$W/tree" "$S/acme_xa.o" "$W/nonexistent.o"
check "merge with a missing input exits 1 and changes nothing" \
	rc_and_same 1 "$T/before" "$W/tree/Module.markers"

mkdir "$W/new"
(umask 022 && "$bin" --merge "$W/new" "$S/acme_xa.o") >"$T/out" 2>"$T/err" && rc=0 || rc=$?
printf '%s' "$ACME" >"$T/exp"
check "merge creates a missing Module.markers" \
	rc_and_same 0 "$T/exp" "$W/new/Module.markers"
check "... with mode 0666 & ~umask" \
	replaced_with_mode "$T/exp" "$W/new/Module.markers" 644
run "$bin" --merge "$W/new/other.markers" "$S/be64.o"
check "merge creates a missing file given by name" \
	test "$rc" -eq 0 -a "$(cat "$W/new/other.markers" 2>/dev/null)" = \
	$'be_event\tbe_mod\tval %llx\nbe_noargs\tbe_mod\t'
printf 'a\tb\tc' >"$W/new/nonl.markers"
run "$bin" --merge "$W/new/nonl.markers" "$S/be32.o"
check "a last line without newline gets one before the new lines" \
	test "$rc" -eq 0 -a "$(cat "$W/new/nonl.markers")" = \
	$'a\tb\tc\nbe32_event\tbe32\tx %d'
ln -s nonl.markers "$W/new/link.markers"
run "$bin" --merge "$W/new/link.markers" -m other "$S/be32.o"
check "merge through a symlink updates the target, keeps the link" \
	test "$rc" -eq 0 -a -L "$W/new/link.markers" -a \
	"$(tail -n 1 "$W/new/nonl.markers")" = $'be32_event\tother\tx %d'
expect_err "merge into a missing directory" "$W/nodir/Module.markers" \
	'cannot create temporary file in .*: No such file or directory$' \
	"$bin" --merge "$W/nodir/Module.markers" "$S/acme_xa.o"
mkdir -p "$W/dirtree/Module.markers"
expect_err "merge when DIR/Module.markers is a directory" \
	"$W/dirtree/Module.markers" 'not a regular file$' \
	"$bin" --merge "$W/dirtree" "$S/acme_xa.o"
check "... leaves it alone" test -d "$W/dirtree/Module.markers"

tap_end
