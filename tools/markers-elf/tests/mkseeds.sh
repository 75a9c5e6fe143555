#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the ELF files used as test inputs and fuzz seeds into OUTDIR.
set -eu

if [ $# -ne 1 ]; then
	echo "usage: $0 OUTDIR" >&2
	exit 2
fi
out=$1
here=$(cd "$(dirname "$0")" && pwd)
src=$here/seeds
cc=${CC:-gcc}
elftool=$here/elftool.py
mkdir -p "$out"

cflags=(-O2 -g -fno-toplevel-reorder)

"$cc" "${cflags[@]}" -c "$src/acme_xa.c" -o "$out/acme_xa.o"
cp "$out/acme_xa.o" "$out/acme_xa-stripped.o"
strip "$out/acme_xa-stripped.o"
cp "$out/acme_xa.o" "$out/acme_xa-nodebug.o"
strip --strip-debug "$out/acme_xa-nodebug.o"

"$cc" "${cflags[@]}" -c "$src/plain.c" -o "$out/acme-plain.o"
"$cc" "${cflags[@]}" -c "$src/nomarkers.c" -o "$out/nomarkers.o"
# A "module" linked from two objects, like a .ko before modpost.
ld -r -o "$out/acme-plain.ko" "$out/acme-plain.o" "$out/nomarkers.o"

"$cc" "${cflags[@]}" -no-pie -o "$out/acme-prog" "$src/prog.c"
"$cc" "${cflags[@]}" -pie -fPIE -o "$out/acme-prog-pie" "$src/prog.c"

"$cc" -c "$src/multi.s" -o "$out/multi.o"

# 32-bit objects from gcc when it can, else skipped (tests note a SKIP).
if "$cc" -m32 "${cflags[@]}" -c "$src/acme_xa.c" -o "$out/acme_xa-m32.o" 2>/dev/null; then
	:
else
	rm -f "$out/acme_xa-m32.o"
fi

# Other classes and byte orders, crafted.
python3 "$elftool" gen "$out/be64.o" --class 64 --endian big \
	'__markers_strings=be_event\0val %llx\0be_noargs\0\0' '.modinfo=name=be_mod\0'
python3 "$elftool" gen "$out/be32.o" --class 32 --endian big \
	'__markers_strings=be32_event\0x %d\0'
python3 "$elftool" gen "$out/le32.o" --class 32 --endian little \
	'.modinfo=license=GPL\0\0\0name=le32_mod\0' '__markers_strings=le32_event\0y %s\0'

# Many records (hash table growth) and names/formats at the length limit.
for i in $(seq 1 60); do
	printf 'many_event_%d\0arg %%d\0' "$i"
	if [ $((i % 5)) -eq 0 ]; then
		printf 'many_event_%d\0arg %%d\0' "$i"
	fi
done >"$out/many.bin"
python3 "$elftool" gen "$out/many.o" "__markers_strings=@$out/many.bin"
rm -f "$out/many.bin"
# A name of MARKERS_NAME_MAX (63) bytes and a format of MARKERS_MAX_LEN (1024).
name=$(printf '%63s' '' | tr ' ' n)
long=$(printf '%1024s' '' | tr ' ' f)
python3 "$elftool" gen "$out/limits.o" --type exec \
	"__markers_strings=${name}\\0${long}\\0short\\0\\0"
