#!/bin/bash
# tests/events/perf-raw-samples.awk, which turns perf report -D's dump into
# one line of hex bytes per sample for events/47-strings-once: a sample
# comes out whole and byte for byte, even where the ASCII column of a
# line begins with a word that looks like a byte ("4a " from the bytes
# 34 61 20 of a timestamp: events/47 once read it as a byte, shifting the
# sample's record by one); records that are not samples are left out.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

parser=$project_dir/tests/events/perf-raw-samples.awk

# dump_record TYPE HEX...: one record as perf report -D prints it, 16
# bytes to a line, each line's ASCII column after them
dump_record() {
	local type=$1 offset=0 line ascii byte i
	shift
	printf '\n0x1000 [0x%x]: event: %d\n.\n. ... raw event: size %d bytes\n' $# "$type" $#
	while [ $# -gt 0 ]; do
		line=$(printf '.  %04x: ' "$offset") ascii=''
		for ((i = 0; i < 16; i++)); do
			if [ $# -gt 0 ]; then
				byte=$1
				shift
				line+=" $byte"
				if ((16#$byte >= 32 && 16#$byte < 127)); then
					ascii+=$(printf '%b' "\\x$byte")
				else
					ascii+=.
				fi
			else
				line+='   '
			fi
		done
		printf '%s  %s\n' "$line" "$ascii"
		offset=$((offset + 16))
	done
	printf '\n0x1000 [0x%x]: PERF_RECORD_%s\n' $# "$([ "$type" = 9 ] && echo SAMPLE || echo OTHER)"
}

# A sample of test_ev_race as events/47 saw it once: its timestamp's bytes
# 34 61 20 (ASCII "4a ") begin the third line's ASCII column
sample=(09 00 00 00 01 00 50 00 0a 00 00 00 00 00 00 00
	f9 01 57 c0 ff ff ff ff 66 00 00 00 66 00 00 00
	34 61 20 cc 01 00 00 00 00 00 00 00 00 00 00 00
	01 00 00 00 00 00 00 00 14 00 00 00 30 05 00 11
	66 00 00 00 0c 00 03 00 61 62 00 00 00 00 00 00)
# A sample whose last line's ASCII column begins "a1 u" (61 31 20 75)
short_sample=(09 00 00 00 01 00 18 00 0a 00 00 00 00 00 00 00 61 31 20 75 00 00 00 00)
comm=(03 00 00 00 00 00 18 00 66 00 00 00 66 00 00 00 61 62 63 00 00 00 00 00)
{
	dump_record 3 "${comm[@]}"
	dump_record 9 "${sample[@]}"
	dump_record 9 "${short_sample[@]}"
} >"$scratch/dump"
grep -q '^\.  0020:  34 61 20 .*  4a \.' "$scratch/dump" ||
	not_ok "the made-up dump has the third line's ASCII column begin with '4a '"
awk -f "$parser" "$scratch/dump" >"$scratch/raw"
check "two samples out of three records (the comm record is left out)" \
	[ "$(wc -l <"$scratch/raw")" = 2 ]
check "the sample whose ASCII column begins '4a ': its 80 bytes, byte for byte" \
	[ "$(sed -n 1p "$scratch/raw")" = "${sample[*]} " ]
check "the sample whose last line's ASCII column begins 'a1 u': its 24 bytes" \
	[ "$(sed -n 2p "$scratch/raw")" = "${short_sample[*]} " ]
finish
