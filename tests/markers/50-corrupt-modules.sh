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
# not change, and a good registration afterwards works. The variants are
# made, and what the kernel must say of each derived, on the host; the
# guest gets them as arguments, checks itself and prints KTAP
# (guest/corrupt-modules.sh).
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
# without the $many bad sites) and the kernel's message for it; for the
# guest, "NAME|MODULE|KIND|MESSAGE".
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
		variants+=("$name|$module|$kind|$message")
	else
		not_ok "ko-edit $* $module.ko: $(cat "$scratch/err")"
	fi
}
section() { echo "markers: $1: inconsistent __markers section ($2), markers not connected"; }
site() { echo "markers: markers_prop: marker $bad_site ignored: $1"; }
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

# The guest tries each variant and checks itself (guest/corrupt-modules.sh)
start=$(date +%s)
guest_status=0
"$vm" run --share "$share" -- bash -c "$(guest_half corrupt-modules)" corrupt-modules \
	"$bad_name" "$good_name" "$many" "${variants[@]}" >"$scratch/out" 2>&1 || guest_status=$?
took=$(($(date +%s) - start))
guest_ktap "$scratch/out"
echo "# the guest run took $took s and exited $guest_status"
check "the guest ran to the end, with no kernel report (exit $guest_status)" [ "$guest_status" = 0 ]
# The guest's tally of the variants, with how many were made, as this
# run's figure
tally=$(sed -n 's/^tally: //p' "$scratch/out" | head -n 1)
figure "corrupt modules: ${#variants[@]} made, ${tally:-no tally from the guest}"
finish
