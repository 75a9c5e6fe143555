#!/bin/bash
# A %s argument is read once (issue 23, bug 10): markers_events fires
# test_ev_race ("s %s") while a timer interrupt on the same CPU keeps
# rewriting the string, a short text and a long one in turn. A record
# holds one reading of the string: its __data_loc length is that of the
# text it holds, and no byte of the other text follows the NUL. (Read
# once for its length and again for its bytes, a string that changed in
# between left the long text's length around the short text.) perf's raw
# samples show each record byte by byte.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

[ -e "$mods/markers_events.ko" ] || die "no test modules; run tests/modules/build"
firings=20000

guest_status=0
"$vm" run --rodir "/mnt/host=$mods" -- env FIRINGS=$firings bash -c "$(guest_half strings-once)" strings-once >"$scratch/out" 2>&1 || guest_status=$?
sed -n '1,/^== raw$/p' "$scratch/out" | sed 's/^/# /'
o=$scratch/out
sed -n '/^== raw$/,/^== done$/p' "$o" | sed '1d;$d' >"$scratch/raw"
loc_offset=$(sed -n 's/^loc offset: //p' "$o")

# check_records: for each sample, find its tracepoint record (after the
# u32 size that ends the sample's fixed fields: the record runs to the end
# of the sample) and check that the string's NUL is its last byte;
# prints "records good short long bad". The fixed fields have the same
# size in every sample, so the record starts at the same byte in all: the
# first pass takes the byte where most samples have it, the second checks
# every sample there. (Searched for sample by sample, a pid or tid in the
# fixed fields that happened to equal the rest of a sample's length was
# taken for the size: 3 of 20000 records once, all of a length that only
# a string changed during its copy has.)
check_records() {
	awk -v off="$loc_offset" -v badfile="$scratch/bad" '
		BEGIN { for (i = 0; i < 256; i++) hex[sprintf("%02x", i)] = i }
		function byte(i) { return hex[b[i + 1]] }
		function u32(i) { return byte(i) + 256 * byte(i + 1) + 65536 * byte(i + 2) + 16777216 * byte(i + 3) }
		NR == FNR {
			n = split($0, b, " ")
			for (p = 8; p + 4 <= n; p++) if (u32(p) == n - p - 4) { seen[p + 4]++; break }
			next
		}
		FNR == 1 { for (p in seen) if (seen[p] > most) { most = seen[p]; rec = p + 0 } }
		{
			n = split($0, b, " ")
			records++
			if (!most || u32(rec - 4) != n - rec) { bad++; print "no record at byte " rec ": " $0 > badfile; next }
			loc = u32(rec + off)
			start = rec + loc % 65536; len = int(loc / 65536)
			nul = -1
			for (i = start; i < start + len && i < n; i++) if (byte(i) == 0) { nul = i; break }
			if (len > 0 && nul == start + len - 1) {
				good++
				if (len == 3) short++
				else if (len == 63) long++
			} else {
				bad++
				print "record at byte " rec ", string at " start ", length " len ", NUL at " nul ": " $0 > badfile
			}
		}
		END { printf "%d %d %d %d %d\n", records, good, short, long, bad }' "$scratch/raw" "$scratch/raw"
}
read -r records _ short long bad < <(check_records)
# A failure must be readable afterwards: the first bad samples, byte by byte
[ ! -s "$scratch/bad" ] || head -n 3 "$scratch/bad" | sed 's/^/# bad sample: /'
figure "strings: $records records of $firings firings, $short of the short text and $long of the long one, $bad with bytes after the NUL"
check "perf recorded the firings" [ "$(sed -n 's/^perf record: //p' "$o")" = 0 ]
check "the format file gives the string's __data_loc offset" [ -n "$loc_offset" ]
check "perf lost no records" grep -qx 'lost records: 0' "$o"
check "all $firings firings are raw records" [ "$records" = "$firings" ]
check "the timer changed the string during the run (both texts recorded)" test "$short" -gt 0 -a "$long" -gt 0
check "every record holds one reading: its NUL is its last byte ($bad records are not)" test "$records" -gt 0 -a "$bad" = 0
check "the guest ran to the end" [ "$guest_status" = 0 ]
finish
