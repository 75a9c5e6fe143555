#!/bin/bash
# In the guest (env FIRINGS=N): perf records N firings of test_ev_race
# (markers_events, /mnt/host) while a timer rewrites its string. Prints the
# string's __data_loc offset ("loc offset: N"), "perf record: STATUS", the
# sample and lost counts, then after "== raw" each sample's bytes in hex,
# one sample a line; "== done" at the end.
insmod /mnt/host/markers_events.ko
sed -n "s/^\tfield:__data_loc char\[\] s;\toffset:\([0-9]*\);.*/loc offset: \1/p" \
	/sys/kernel/tracing/events/markers/test_ev_race/format
perf record -q -a -m 4096 -e markers:test_ev_race -o /tmp/r.data -- \
	sh -c "echo $FIRINGS > /sys/module/markers_events/parameters/race" >/dev/null 2>&1
echo "perf record: $?"
perf report -D -i /tmp/r.data 2>/dev/null >/tmp/r.dump
grep -c "PERF_RECORD_SAMPLE" /tmp/r.dump | sed "s/^/samples: /"
grep -c "PERF_RECORD_LOST" /tmp/r.dump | sed "s/^/lost records: /"
# Each sample (PERF_RECORD_SAMPLE, type 9), its bytes in hex on one line:
# as many as "raw event: size N bytes" says, since the dump's ASCII column
# follows the bytes and may begin with a word that looks like one ("a1 u"
# for the bytes 61 31 20 75)
awk "function out() { if (raw ~ /^09 /) print raw; raw = \"\" }
	/raw event: size/ { out(); inraw = 1; size = \$0; sub(/.*raw event: size /, \"\", size); size += 0; got = 0; next }
	inraw && /^\. *[0-9a-f]+: / { sub(/^\. *[0-9a-f]+: +/, \"\"); n = split(\$0, b, \" \");
		for (i = 1; i <= n && got < size && b[i] ~ /^[0-9a-f][0-9a-f]\$/; i++) { raw = raw b[i] \" \"; got++ }; next }
	{ inraw = 0 }
	END { out() }" /tmp/r.dump >/tmp/r.raw
wc -l </tmp/r.raw | sed "s/^/raw records: /"
rmmod markers_events
echo "== raw"
cat /tmp/r.raw
echo "== done"
