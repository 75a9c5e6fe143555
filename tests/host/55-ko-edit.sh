#!/bin/bash
# tools/ko-edit: builds warning-free and cppcheck clean; each of its edits
# of a test module makes the change it is meant to (read back with readelf
# from the input and the output, nothing else changed where that is the
# point); bad input (no file, not ELF, no such section, an edit of .modinfo
# that changes its size or nothing) fails with a clear message and writes
# no output file.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

tool=tools/ko-edit
ko_edit=$project_dir/$tool/ko-edit
[ -e "$mods/markers_prop.ko" ] || die "no test modules; run tests/modules/build"
check "ko-edit builds with -Wall -Wextra -Werror" make -s -C "$tool" -B ko-edit
check "ko-edit is cppcheck clean" make -s -C "$tool" lint
check "ko-edit --help documents every command" \
	bash -c "'$ko_edit' --help | grep -q '^  in-use' && '$ko_edit' --help | grep -q '^  modinfo FIND REPLACE'"

in=$mods/markers_prop.ko
out=$scratch/out
mkdir -p "$out"

# sec FILE NAME FIELD: a field (type, off, size, flags, align) of a section
sec() {
	readelf -SW "$1" 2>/dev/null | sed -n 's/^ *\[ *[0-9]*\] //p' | awk -v n="$2" -v f="$3" '
		$1 == n {
			flg = NF == 10 ? $7 : ""; al = $NF
			if (f == "type") print $2; else if (f == "off") print $4
			else if (f == "size") print "0x" $5
			else if (f == "flags") print flg; else if (f == "align") print al
			exit
		}' | { read -r v && if [ "$3" = size ]; then echo $((v)); else echo "$v"; fi; } || true
}
# dump FILE SECTION: the bytes of a section, to stdout
dump() { objcopy -O binary --only-section="$2" "$1" /dev/stdout 2>/dev/null; }
# rela FILE OFFSET: "symbol addend" of the relocation at OFFSET of __markers
rela() {
	local offset sym sign addend
	# shellcheck disable=SC2034 # the fields between
	readelf -rW "$1" | sed -n "/'.rela__markers'/,/^$/p" | grep -E '^[0-9a-f]{16} ' |
		while read -r offset info type value sym sign addend; do
			if [ $((0x$offset)) = "$2" ]; then
				[ "$sign" = - ] && addend=-$((0x$addend)) || addend=$((0x$addend))
				echo "$sym $addend"
				break
			fi
		done
}
# string FILE OFFSET: the NUL-terminated string at OFFSET of __markers_strings
string() { dump "$1" __markers_strings | tail -c +$(($2 + 1)) | tr '\0' '\n' | head -n 1; }
# name FILE SITE / format FILE SITE: what the relocations of a site point at
name() { string "$1" "$(rela "$1" $(($2 * 40)) | cut -d' ' -f2)"; }
format() { string "$1" "$(rela "$1" $(($2 * 40 + 8)) | cut -d' ' -f2)"; }

# edit NAME [--site K] COMMAND [ARGS]: make $out/NAME.ko from $in, or
# report why not
edit() {
	local name=$1 opts=()
	shift
	if [ "$1" = --site ]; then
		opts=(--site "$2")
		shift 2
	fi
	if ! "$ko_edit" "${opts[@]}" "$1" "$in" "$out/$name.ko" "${@:2}" 2>"$scratch/err"; then
		not_ok "ko-edit ${opts[*]} $*: $(head -n 1 "$scratch/err")"
	fi
}
site=1

size=$(sec "$in" __markers size)
check "the input has whole struct markers ($size bytes, 40 each)" [ $((size % 40))/$((size > 0)) = 0/1 ]
sites=$((size / 40))

edit forced modinfo '-markers ' '-nomatch '
dump "$in" .modinfo | tr '\0' '\n' >"$scratch/modinfo.in"
dump "$out/forced.ko" .modinfo | tr '\0' '\n' >"$scratch/modinfo.out"
changed=$(diff "$scratch/modinfo.in" "$scratch/modinfo.out" | grep -c '^[<>]' || true)
check "modinfo: only the vermagic line changes" [ "$changed" = 2 ]
check "modinfo: to the -nomatch release" grep -q '^vermagic=[^ ]*-nomatch ' "$scratch/modinfo.out"
check "modinfo: the module keeps its size" [ "$(stat -c %s "$in")" = "$(stat -c %s "$out/forced.ko")" ]
bytes=$(cmp -l "$in" "$out/forced.ko" | wc -l || true)
check "modinfo: 7 bytes differ, markers -> nomatch" [ "$bytes" = 7 ]

edit truncate truncate
check "truncate: __markers is 8 bytes shorter" [ "$(sec "$out/truncate.ko" __markers size)" = $((size - 8)) ]

edit misalign misalign
check "misalign: __markers has alignment 1" [ "$(sec "$out/misalign.ko" __markers align)" = 1 ]
# The writable section laid out before __markers: the last W, A, not X
# section before it that the loader puts with it (not .init*, not
# __jump_table).
prev=$(readelf -SW "$in" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '
	$1 == "__markers" { print p; exit }
	NF == 10 && $7 ~ /W/ && $7 ~ /A/ && $7 !~ /X/ && $1 !~ /^\.init/ && $1 != "__jump_table" { p = $1 }')
psize=$(sec "$out/misalign.ko" "$prev" size)
check "misalign: $prev grew to end 4 bytes past an 8-byte boundary ($(sec "$in" "$prev" size) -> $psize bytes)" \
	[ $((psize % 8))/$((psize > $(sec "$in" "$prev" size))) = 4/1 ]
check "misalign: ... and is 8-byte aligned" [ "$(sec "$out/misalign.ko" "$prev" align)" = 8 ]
check "misalign: __markers itself is unchanged" \
	cmp -s <(dump "$in" __markers) <(dump "$out/misalign.ko" __markers)

edit huge-size huge-size
check "huge-size: __markers claims 0x1000000 struct markers" \
	[ "$(sec "$out/huge-size.ko" __markers size)" = $((40 * 0x1000000)) ]
check "huge-size: ... which the file does not have" \
	[ "$(stat -c %s "$out/huge-size.ko")" = "$(stat -c %s "$in")" ]

edit many many-sites 5
check "many-sites 5: __markers has 5 struct markers more" [ "$(sec "$out/many.ko" __markers size)" = $((size + 200)) ]
nonzero=$(dump "$out/many.ko" __markers | tail -c 200 | tr -d '\0' | wc -c)
check "many-sites 5: ... all zero" [ "$nonzero" = 0 ]
check "many-sites 5: ... after the real ones, unchanged" \
	cmp -s <(dump "$in" __markers) <(dump "$out/many.ko" __markers | head -c "$size")

edit not-writable not-writable
check "not-writable: __markers was WA, is A" \
	[ "$(sec "$in" __markers flags)/$(sec "$out/not-writable.ko" __markers flags)" = WA/A ]

edit no-strings no-strings
check "no-strings: no __markers_strings section left" [ -z "$(sec "$out/no-strings.ko" __markers_strings size)" ]
check "no-strings: it is called markers_strings" \
	[ "$(sec "$out/no-strings.ko" markers_strings size)" = "$(sec "$in" __markers_strings size)" ]

ssize=$(sec "$in" __markers_strings size)
edit truncate-strings truncate-strings
check "truncate-strings: __markers_strings is 1 byte shorter" \
	[ "$(sec "$out/truncate-strings.ko" __markers_strings size)" = $((ssize - 1)) ]
# last FILE: the last byte of __markers_strings, as od -c shows it
last() { dump "$1" __markers_strings | tail -c 1 | od -An -c | tr -d ' '; }
check "truncate-strings: ... and no longer ends with a NUL" [ "$(last "$in")/$(last "$out/truncate-strings.ko")" = "\\0/$(dump "$in" __markers_strings | tail -c 2 | head -c 1)" ]

edit format-no-nul format-no-nul
check "format-no-nul: the last byte of __markers_strings is X, not NUL" [ "$(last "$in")/$(last "$out/format-no-nul.ko")" = '\0/X' ]

n=$(name "$in" $site)
f=$(format "$in" $site)
check "site $site of the input is named ($n), with a format ($f)" [ -n "$n" ]
edit name-no-nul --site $site name-no-nul
check "name-no-nul: the name of site $site runs into its format" [ "$(name "$out/name-no-nul.ko" $site)" = "${n}_$f" ]

edit outside-target --site $site outside-target
check "outside-target: the name of site $site was in __markers_strings" \
	[ "$(rela "$in" $((site * 40)) | cut -d' ' -f1)" = __markers_strings ]
check "outside-target: ... and is relocated to marker_probe_cb" [ "$(rela "$out/outside-target.ko" $((site * 40)))" = "marker_probe_cb 0" ]

edit bad-addend --site $site bad-addend
old=$(rela "$in" $((site * 40 + 8)) | cut -d' ' -f2)
check "bad-addend: the format of site $site is 1 MiB further" \
	[ "$(rela "$out/bad-addend.ko" $((site * 40 + 8)))" = "__markers_strings $((old + 0x100000))" ]
# Read back from the output: its relocation's addend against the size of
# its own __markers_strings
new=$(rela "$out/bad-addend.ko" $((site * 40 + 8)) | cut -d' ' -f2)
out_ssize=$(sec "$out/bad-addend.ko" __markers_strings size)
check "bad-addend: ... past the end of __markers_strings ($new > $out_ssize)" \
	test -n "$new" -a -n "$out_ssize" -a "${new:-0}" -gt "${out_ssize:-0}"

edit not-ident --site $site not-ident
check "not-ident: the name of site $site starts with 1" [ "$(name "$out/not-ident.ko" $site)" = "1${n:1}" ]

edit expanded-name --site $site expanded-name
check "expanded-name: the name of site $site is 1" [ "$(name "$out/expanded-name.ko" $site)" = 1 ]
check "expanded-name: its format stays" [ "$(format "$out/expanded-name.ko" $site)" = "$f" ]

edit long-name --site $site long-name
ln=$(name "$out/long-name.ko" $site)
ident() { [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; }
check "long-name: the name of site $site is 64 identifier characters" [ "${#ln}" = 64 ]
check "long-name: ... an identifier" ident "$ln"
check "long-name: its format follows it" [ "$(format "$out/long-name.ko" $site)" = "$f" ]
other=$(((site + 1) % sites))
check "long-name: the other sites keep their names and formats" \
	[ "$(name "$out/long-name.ko" $other)/$(format "$out/long-name.ko" $other)" = "$(name "$in" $other)/$(format "$in" $other)" ]

edit in-use --site $site in-use
key() { dump "$1" __markers | od -An -tx1 -j $((site * 40 + 16)) -N 4 | tr -d ' '; }
check "in-use: the static key of site $site was off and is on" [ "$(key "$in")/$(key "$out/in-use.ko")" = 00000000/01000000 ]
bytes=$(cmp -l <(dump "$in" __markers) <(dump "$out/in-use.ko" __markers) | wc -l || true)
check "in-use: nothing else in __markers changes" [ "$bytes" = 1 ]

# Bad input: a clear message, a non-zero exit, no output file (not even a
# temporary one).
printf 'int x;\n' >"$scratch/x.c"
cc -c -o "$scratch/nomarkers.o" "$scratch/x.c"
printf 'not an ELF file\n' >"$scratch/text.ko"
# none PATHS...: none of the paths (a glob that matched nothing) exists
none() {
	local p
	for p in "$@"; do [ ! -e "$p" ] || return 1; done
}
# refuses WHAT MESSAGE-PATTERN ARGS...
refuses() {
	local what=$1 pattern=$2 status=0
	shift 2
	rm -f "$out/bad.ko"
	"$ko_edit" "$@" 2>"$scratch/err" >/dev/null || status=$?
	head -n 1 "$scratch/err" | sed 's/^/# /'
	check "$what: exits non-zero ($status)" [ "$status" != 0 ]
	check "$what: says why" grep -q "$pattern" "$scratch/err"
	check "$what: writes no output file" none "$out"/bad.ko*
}
refuses "a missing file" "cannot read $scratch/none.ko" truncate "$scratch/none.ko" "$out/bad.ko"
refuses "a file that is not ELF" "is not an ELF file" truncate "$scratch/text.ko" "$out/bad.ko"
refuses "an object without __markers" "has no __markers section" truncate "$scratch/nomarkers.o" "$out/bad.ko"
refuses "an object without .modinfo" "has no .modinfo section" modinfo "$scratch/nomarkers.o" "$out/bad.ko" a b
refuses "a modinfo edit that changes the size" "changes the size of the .modinfo" modinfo "$in" "$out/bad.ko" '-markers ' '-nomatch'
refuses "a modinfo edit that changes nothing" "does not change the .modinfo" modinfo "$in" "$out/bad.ko" '-markers ' '-markers '
refuses "a modinfo edit of a string it lacks" "is not in the .modinfo" modinfo "$in" "$out/bad.ko" 'no such tag' 'no such tab'
refuses "a site the module does not have" "no site $sites" --site "$sites" not-ident "$in" "$out/bad.ko"
refuses "an unknown command" "unknown command" shuffle "$in" "$out/bad.ko"
refuses "many-sites with a silly count" "N must be a number" many-sites "$in" "$out/bad.ko" 0
# What the README says the kernel makes of each corruption, against what
# tests/markers/50 loads and checks in the guest (its "variant" lines:
# NAME MODULE KIND MESSAGE ... COMMAND [N])
readme=$project_dir/tools/ko-edit/README.md
corrupt=$project_dir/tests/markers/50-corrupt-modules.sh
# verdict KIND: the words of the README's row for a variant of that kind
verdict() {
	case $1 in
	refused) echo 'the module is refused' ;;
	section) echo 'the module loads, its markers not connected' ;;
	site | many) echo 'left out' ;;
	*) echo "(no verdict for the kind $1)" ;;
	esac
}
variants_checked=0
while read -r kind command; do
	row=$(grep -E "^\| \`$command( N)?\` \|" "$readme" || true)
	check "README: $command, the kernel's verdict is the guest test's ($kind)" \
		grep -qF "$(verdict "$kind")" <<<"$row"
	variants_checked=$((variants_checked + 1))
done < <(awk '$1 == "variant" { c = $NF; if (c ~ /^\$/) c = $(NF - 1); if (!seen[$4 " " c]++) print $4, c }' "$corrupt")
check "README: markers/50 has variants to compare ($variants_checked)" [ "$variants_checked" -ge 10 ]
finish
