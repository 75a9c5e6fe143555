#!/bin/bash
# Every patch of the series is checkpatch --strict clean: no errors, no
# warnings, and a CHECK only where the patch justifies it below its "---"
# line, where discussion that is not part of the changelog goes: the note
# there quotes each CHECK as checkpatch words it (one word "checkpatch"
# once excused any number of them) and says why; the changelog itself
# does not discuss checkpatch.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib/kernel.sh
. lib/kernel.sh

checkpatch=$kbuild/scripts/checkpatch.pl
check "the kernel tree has checkpatch.pl ($checkpatch)" test -x "$checkpatch"
# changelog_quiet PATCH: the part above "---" does not mention checkpatch
changelog_quiet() { ! sed -n '1,/^---$/p' "$1" | grep -qi checkpatch; }
# below_the_line PATCH: what PATCH says between "---" and its diffstat,
# its lines joined (a quote may wrap)
below_the_line() { sed -n '/^---$/,/^ [^ ].*|/p' "$1" | tr -s ' \t\n' ' '; }

# covered_by_maintainers PATCH: every file PATCH creates is in a section
# of MAINTAINERS other than THE REST (the catch-all), as get_maintainer.pl
# finds them in the tree we build
covered_by_maintainers() {
	local path sections
	while read -r path; do
		sections=$(cd "$kbuild" && ./scripts/get_maintainer.pl --nogit --nogit-fallback \
			--sections -f "$path" 2>/dev/null | grep -vE '^([A-Z]:|$)' | grep -vx 'THE REST') || return 1
		[ -n "$sections" ] || return 1
	done < <(sed -n 's/^ create mode [0-7]* //p' "$1")
}

mapfile -t patches < <(series_patches)
[ "${#patches[@]}" -gt 0 ] || { not_ok "the series lists patches"; finish; }
for patch in "${patches[@]}"; do
	file=kernel/patches/$patch
	# From the scratch directory: checkpatch leaves a CamelCase cache in a git checkout.
	# UNKNOWN_COMMIT_ID: checkpatch looks the ids of Fixes: tags and
	# "commit <id>" up in a git history, and the Debian source has none;
	# it warns on every such id then, right or wrong.
	# Its exit status: 0 with nothing to report, 1 with a report line; any
	# other status (no checkpatch.pl, a Perl error) or a status that
	# disagrees with the report is checkpatch not having done its job.
	status=0
	report=$(cd "$scratch" || exit 1; "$checkpatch" --strict --no-tree --no-summary --terse \
		--ignore UNKNOWN_COMMIT_ID "$project_dir/$file" 2>"$scratch/stderr") || status=$?
	sed 's/^/# checkpatch stderr: /' "$scratch/stderr"
	case $status/${report:+reported} in
	0/ | 1/reported) ran=yes ;;
	*) ran=no ;;
	esac
	check "$patch: checkpatch ran (exit $status, $(grep -c . <<<"$report" || true) report lines)" [ "$ran" = yes ]
	# "does MAINTAINERS need updating?" for a patch that adds files: no,
	# when MAINTAINERS already names a maintainer for every one of them
	# (a selftest under tools/testing/selftests/ftrace, say)
	if grep -q ': WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?' <<<"$report" &&
		covered_by_maintainers "$file"; then
		echo "# $patch: every file it adds has a maintainer in MAINTAINERS already: FILE_PATH_CHANGES answered"
		report=$(grep -v ': WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?' <<<"$report" || true)
	fi
	errors=$(grep -c ': ERROR:' <<<"$report" || true)
	warnings=$(grep -c ': WARNING:' <<<"$report" || true)
	checks=$(grep -c ': CHECK:' <<<"$report" || true)
	justified=yes
	note=$(below_the_line "$file")
	while IFS= read -r message; do
		[ -n "$message" ] || continue
		grep -qiF -- "$message" <<<"$note" && continue
		echo "# $patch: not quoted below ---: CHECK: $message"
		justified=no
	done < <(sed -n 's/^.*: CHECK: //p' <<<"$report" | sort -u)
	[ -z "$report" ] || printf '%s\n' "$report"
	check "$patch: $errors errors, $warnings warnings, $checks checks (justified below ---: $justified)" \
		[ "$ran/$errors/$warnings/$justified" = yes/0/0/yes ]
	check "$patch: the changelog does not discuss checkpatch" changelog_quiet "$file"
	check "$patch: Signed-off-by the project" grep -q '^Signed-off-by: Kernel Markers Project <markers@project.invalid>$' "$file"
done
finish
