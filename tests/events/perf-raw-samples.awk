# perf report -D's dump to one line per sample (PERF_RECORD_SAMPLE, type
# 9): its bytes in hex, as many as "raw event: size N bytes" says.
# perf prints 16 bytes to a line, then their ASCII column, which may begin
# with a word that looks like a byte: "4a " for the bytes 34 61 20 in a
# timestamp, "a1 u" for 61 31 20 75. Only the first 16 words of a line
# are bytes.
function out() {
	if (raw ~ /^09 /)
		print raw
	raw = ""
}
/raw event: size/ {
	out()
	inraw = 1
	size = $0
	sub(/.*raw event: size /, "", size)
	size += 0
	got = 0
	next
}
inraw && /^\. *[0-9a-f]+: / {
	sub(/^\. *[0-9a-f]+: +/, "")
	n = split($0, b, " ")
	for (i = 1; i <= n && i <= 16 && got < size && b[i] ~ /^[0-9a-f][0-9a-f]$/; i++) {
		raw = raw b[i] " "
		got++
	}
	next
}
{ inraw = 0 }
END { out() }
