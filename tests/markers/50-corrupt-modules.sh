#!/bin/bash
# Modules whose marker sections are corrupt (tools/ko-edit makes them from
# the test modules: truncated and misaligned __markers, absurd sizes,
# pointers outside the module, names and formats without NUL, names that
# are not identifiers, a missing string section, a site already "in use",
# a read-only __markers), all loaded in one guest boot. Each is either
# refused with a clear message, or loads with its bad markers left out
# (logged, not listed) while its good markers still connect and count
# hits; none may oops. Then registrations with bad names, formats and
# probes through the exported API: each gets its errno, the listing does
# not change, and a good registration afterwards works.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

if [ ! -e "$mods/markers_gpl.ko" ] || [ ! -e "$mods/markers_prop.ko" ]; then
	die "no test modules; run tests/modules/build"
fi
make -s -C tools/ko-edit ko-edit || die "ko-edit does not build"
ko_edit=$project_dir/tools/ko-edit/ko-edit
share=$scratch/share
mkdir -p "$share"
cp "$mods/markers_gpl.ko" "$mods/markers_prop.ko" "$share/"
tab=$(printf '\t')

# The site the per-site corruptions hit, and the marker that stays good:
# both markers of markers_prop.ko, read from the module.
bad_site=1
bad_name=$("$project_dir/tools/markers-elf/markers-elf" "$mods/markers_prop.ko" 2>/dev/null | awk -v n=$((bad_site + 1)) 'NR == n { print $1 }')
good_name=$("$project_dir/tools/markers-elf/markers-elf" "$mods/markers_prop.ko" 2>/dev/null | awk 'NR == 1 { print $1 }')
if [ -z "$bad_name" ] || [ -z "$good_name" ]; then
	die "cannot list the markers of markers_prop.ko (make -C tools/markers-elf)"
fi
many=50

# Each variant: its file, the module it is made from, the ko-edit command,
# what should happen (refused, section: loads with its __markers section
# refused as a whole, site: loads without the bad site, many: loads
# without the $many bad sites) and the kernel's message for it.
variants=()
# variant NAME MODULE KIND MESSAGE [--site K] COMMAND [ARG]
variant() {
	local name=$1 module=$2 kind=$3 message=$4 opts=()
	shift 4
	if [ "$1" = --site ]; then
		opts=(--site "$2")
		shift 2
	fi
	if "$ko_edit" "${opts[@]}" "$1" "$mods/$module.ko" "$share/$name.ko" "${@:2}" 2>"$scratch/err"; then
		variants+=("$name")
		printf '%s\n' "$module" >"$share/$name.module"
		printf '%s\n' "$kind" >"$scratch/$name.kind"
		printf '%s\n' "$message" >"$scratch/$name.message"
	else
		not_ok "ko-edit $* $module.ko: $(cat "$scratch/err")"
	fi
}
section() { echo "markers: $1: inconsistent __markers section ($2), markers not connected"; }
site() { echo "markers: markers_prop: marker $bad_site ignored: $1"; }
# failed STATUS: insmod's status says it failed (and did not crash)
failed() { [ -n "$1" ] && [ "$1" != 0 ] && [ "$1" -lt 128 ]; }
# grew_by N BEFORE AFTER: two counts read from the guest, N apart
grew_by() { [ -n "$2" ] && [ -n "$3" ] && [ $(($3 - $2)) = "$1" ]; }
sec_index() { readelf -SW "$mods/$1.ko" | sed -n 's/^ *\[ *\([0-9]*\)\] __markers .*/\1/p'; }

# markers_gpl.ko: the section-wide corruptions, loaded before the good
# markers_gpl.ko that probes the others.
variant gpl-truncate markers_gpl section "$(section markers_gpl 'size is not a multiple of struct marker')" truncate
variant gpl-misalign markers_gpl section "$(section markers_gpl 'misaligned section')" misalign
variant gpl-no-strings markers_gpl section "$(section markers_gpl 'no __markers_strings section')" no-strings
variant gpl-huge-size markers_gpl refused "Invalid ELF section in module (section $(sec_index markers_gpl) type 1)" huge-size
# markers_prop.ko: all of them, its good marker probed by markers_gpl.ko.
variant prop-truncate markers_prop section "$(section markers_prop 'size is not a multiple of struct marker')" truncate
variant prop-misalign markers_prop section "$(section markers_prop 'misaligned section')" misalign
variant prop-no-strings markers_prop section "$(section markers_prop 'no __markers_strings section')" no-strings
variant prop-huge-size markers_prop refused "Invalid ELF section in module (section $(sec_index markers_prop) type 1)" huge-size
variant prop-many-sites markers_prop many "ignored: name outside __markers_strings" many-sites $many
variant prop-truncate-strings markers_prop site "$(site 'format does not follow its name')" truncate-strings
variant prop-format-no-nul markers_prop site "$(site 'format does not follow its name')" format-no-nul
variant prop-name-no-nul markers_prop site "$(site 'invalid name')" --site $bad_site name-no-nul
variant prop-outside-target markers_prop site "$(site 'name outside __markers_strings')" --site $bad_site outside-target
variant prop-bad-addend markers_prop site "$(site 'format does not follow its name')" --site $bad_site bad-addend
variant prop-not-ident markers_prop site "$(site 'invalid name')" --site $bad_site not-ident
variant prop-expanded-name markers_prop site "$(site 'invalid name')" --site $bad_site expanded-name
variant prop-long-name markers_prop site "$(site 'invalid name')" --site $bad_site long-name
variant prop-in-use markers_prop site "$(site 'marker already in use')" --site $bad_site in-use
# Last: the loader's own check. It used to log "ignoring its markers" and
# load the module, and jump_label's notifier then oopsed writing to the
# read-only static keys of its sites: such a module is refused.
variant prop-not-writable markers_prop refused "markers_prop: __markers section is not writable" not-writable
# format-no-nul and truncate-strings hit the last record of the strings:
# that must be the bad site's, as the checks below assume.
check "the last string of markers_prop.ko is the format of $bad_name (site $bad_site)" \
	[ "$("$project_dir/tools/markers-elf/markers-elf" "$mods/markers_prop.ko" | tail -n 1 | cut -f1)" = "$bad_name" ]

printf '%s\n' "${variants[@]}" >"$share/variants"

start=$(date +%s)
status=0
"$vm" run --share "$share" -- env BAD="$bad_name" GOOD="$good_name" bash -c "$(guest_half corrupt-modules)" corrupt-modules >"$scratch/out" 2>&1 || status=$?
took=$(($(date +%s) - start))
o=$scratch/out
grep -v '^dmesg ' "$o" | head -n 400
echo "# the guest run took $took s and exited $status"

made=${#variants[@]} refused=0 ignored=0 oops=0
for name in "${variants[@]}"; do
	kind=$(cat "$scratch/$name.kind")
	module=$(cat "$share/$name.module")
	message=$(cat "$scratch/$name.message")
	st=$(sed -n "s/^status $name: \([0-9]*\).*/\1/p" "$o")
	grep "^dmesg $name: " "$o" | sed 's/^dmesg [^:]*: //' >"$scratch/$name.dmesg" || true
	# guest-image/vm stops the guest at a kernel report: the variant being
	# loaded then has no status, and the report is in the output.
	if [ -z "$st" ]; then
		if [ "$oops" = 0 ] && grep -qE 'Oops|BUG:|WARNING:|general protection' "$o"; then
			oops=1
			not_ok "$name: no oops; the guest died loading it: $(grep -m1 -E 'BUG:|Oops|WARNING:|general protection' "$o")"
			grep -qF -- "$message" "$o" && echo "# ... after the kernel said: $message"
		else
			not_ok "$name: loaded (the guest died before)"
		fi
		continue
	fi
	if grep -qE 'Oops|BUG:|WARNING:|general protection' "$scratch/$name.dmesg" || [ "${st:-0}" -ge 128 ]; then
		oops=$((oops + 1))
		not_ok "$name: no oops (insmod status ${st:-none}): $(grep -m1 -E 'Oops|BUG:|WARNING:' "$scratch/$name.dmesg")"
		continue
	fi
	check "$name: the kernel says: $message" grep -qF -- "$message" "$scratch/$name.dmesg"
	case $kind in
	refused)
		check "$name: insmod fails" failed "$st"
		if failed "$st" && grep -qF -- "$message" "$scratch/$name.dmesg"; then
			refused=$((refused + 1))
		fi
		continue
		;;
	esac
	check "$name: loads" [ "$st" = 0 ]
	failures=$ktap_failed
	case $kind in
	section)
		check "$name: none of its markers is listed" lacks "^list $name: " "$o"
		;;
	site | many)
		if [ "$kind" = site ]; then
			check "$name: the bad marker is not listed" lacks "^list $name: $bad_name$tab" "$o"
			check "$name: ... nor anything named after it" lacks "^list $name: \(1\|long_name\|${bad_name}_\)" "$o"
		fi
		check "$name: the good marker is listed" grep -q "^list $name: $good_name${tab}markers_prop$tab" "$o"
		read -r before after < <(sed -n "s/^hits $name: //p" "$o") || true
		check "$name: the good marker connects and counts its 3 hits (${before:-?} -> ${after:-?})" \
			grew_by 3 "${before:-}" "${after:-}"
		;;
	esac
	if [ "$kind" = many ]; then
		n=$(grep -c "markers: markers_prop: marker [0-9]* ignored: name outside __markers_strings" "$scratch/$name.dmesg" || true)
		check "$name: each of the $many bad sites is logged once ($n)" [ "$n" = $many ]
		check "$name: ... and the real ones stay listed" grep -q "^list $name: $bad_name${tab}markers_prop$tab" "$o"
	fi
	if [ "$st" = 0 ] && [ "$ktap_failed" = "$failures" ]; then
		ignored=$((ignored + 1))
	fi
done

# Bad registrations through the exported API, and their errnos
# (include/uapi/asm-generic/errno-base.h: EINVAL 22, EBUSY 16).
for r in null-name:-22 empty-name:-22 long-name:-22 ctrl-name:-22 newline-name:-22 space-name:-22 \
	digit-name:-22 macro-call-name:-22 null-probe:-22 format-mismatch:-16 ctrl-format-mismatch:-16; do
	check "marker_probe_register() with a ${r%%:*}: ${r#*:}" grep -qx "reg: register_bad: ${r%%:*}: ${r#*:}" "$o"
done
check "... but a name of MARKER_NAME_MAX - 1 characters registers" grep -qx "reg: register_bad: max-name: 0" "$o"
check "... and a NULL format takes the marker's" grep -qx "reg: register_bad: null-format: 0" "$o"
check "the failed registrations leave the listing as it was" grep -qx "reg-list: unchanged" "$o"
check "a good registration afterwards works" grep -qx "reg-attach: ok" "$o"
read -r before after < <(sed -n 's/^reg-hits: //p' "$o") || true
check "... and counts its 2 hits (${before:-?} -> ${after:-?})" grew_by 2 "${before:-}" "${after:-}"
check "the guest ran to its end" grep -qx "guest: done" "$o"
figure "corrupt modules: $made made, $refused refused with a message, $ignored loaded with bad markers ignored, $oops oops"
finish
