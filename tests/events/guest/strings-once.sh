#!/bin/bash
# In the guest (env FIRINGS=N RAW_SAMPLES_AWK=FILE): perf records N firings of test_ev_race
# (markers_events, /mnt/host) while a timer rewrites its string, and the
# guest checks perf's raw samples byte by byte: each record holds one
# reading of the string (its __data_loc length is that of the text it
# holds, its NUL is its last byte), and both texts were recorded. Checks
# itself and prints KTAP, plan first; what it read goes out as plain
# lines ("loc offset: N", "perf record: STATUS", the sample and lost
# counts, "tally: ..." for the host's figure, the first bad samples).
set -u
echo "1..6"
insmod /mnt/host/markers_events.ko || echo "markers_events does not load: the checks below fail"
loc_offset=$(sed -n "s/^\tfield:__data_loc char\[\] s;\toffset:\([0-9]*\);.*/\1/p" \
	/sys/kernel/tracing/events/markers/test_ev_race/format)
echo "loc offset: $loc_offset"
check "the format file gives the string's __data_loc offset" [ -n "$loc_offset" ]

perf record -q -a -m 4096 -e markers:test_ev_race -o /tmp/r.data -- \
	sh -c "echo $FIRINGS > /sys/module/markers_events/parameters/race" >/dev/null 2>&1
perf_status=$?
echo "perf record: $perf_status"
check "perf recorded the firings" [ "$perf_status" = 0 ]

perf report -D -i /tmp/r.data 2>/dev/null >/tmp/r.dump
grep -c "PERF_RECORD_SAMPLE" /tmp/r.dump | sed "s/^/samples: /"
lost=$(grep -c "PERF_RECORD_LOST" /tmp/r.dump)
echo "lost records: $lost"
check "perf lost no records" [ "$lost" = 0 ]

# Each sample, its bytes in hex on one line (tests/events/perf-raw-samples.awk)
awk -f "$RAW_SAMPLES_AWK" /tmp/r.dump >/tmp/r.raw
wc -l </tmp/r.raw | sed "s/^/raw records: /"
rmmod markers_events

# check_records: for each sample, find its tracepoint record (after the
# u32 size that ends the sample's fixed fields: the record runs to the end
# of the sample) and check that the string's NUL is its last byte;
# prints "records good short long bad", and each bad sample to
# /tmp/r.bad. The fixed fields have the same size in every sample, so the
# record starts at the same byte in all: the first pass takes the byte
# where most samples have it, the second checks every sample there.
# (Searched for sample by sample, a pid or tid in the fixed fields that
# happened to equal the rest of a sample's length was taken for the size:
# 3 of 20000 records once, all of a length that only a string changed
# during its copy has.)
check_records() {
	awk -v off="$loc_offset" -v badfile=/tmp/r.bad '
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
		END { printf "%d %d %d %d %d\n", records, good, short, long, bad }' /tmp/r.raw /tmp/r.raw
}
rm -f /tmp/r.bad
records='' short='' long='' bad=''
# (a here-string: the guest has no /dev/fd for a process substitution)
read -r records _ short long bad <<<"$(check_records)"
# A failure must be readable afterwards: the first bad samples, byte by byte
[ ! -s /tmp/r.bad ] || head -n 3 /tmp/r.bad | sed 's/^/bad sample: /'
[ -z "$records" ] ||
	echo "tally: $records records of $FIRINGS firings, $short of the short text and $long of the long one, $bad with bytes after the NUL"
check "all $FIRINGS firings are raw records" [ "$records" = "$FIRINGS" ]
check "the timer changed the string during the run (both texts recorded)" test "$short" -gt 0 -a "$long" -gt 0
check "every record holds one reading: its NUL is its last byte ($bad records are not)" test "$records" -gt 0 -a "$bad" = 0
