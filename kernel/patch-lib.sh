# The patch workflow's shared part (kernel/tree, kernel/export): the git
# tree of the series and what both need to agree on.
# shellcheck shell=bash
# shellcheck source=lib/kernel.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kernel.sh"

# shellcheck disable=SC2034 # used by the scripts that source this file
series_author_name="Kernel Markers Project"
# shellcheck disable=SC2034
series_author_email="markers@project.invalid"
# shellcheck disable=SC2034
cover_letter_name=0000-cover-letter.patch

# tree_git ARGS...: git in the tree $tree, deaf to the user's and the
# system's git configuration (diff.noprefix, format.signature, ... would
# change what format-patch writes).
tree_git() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$tree" "$@"
}

# cover_letter_description FILE: the text that git format-patch
# --cover-from-description=subject turns back into the cover letter FILE:
# its subject (unfolded, without "[PATCH 00/NN] "), a blank line, its
# body up to the shortlog.
cover_letter_description() {
	awk '
		!body && /^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subject = $0; insubject = 1; next }
		!body && insubject && /^ / { sub(/^ +/, " "); subject = subject $0; next }
		!body && /^$/ { body = 1; insubject = 0; print subject; print ""; next }
		!body { insubject = 0; next }
		/^[^ ].* \([0-9]+\):$/ { exit }
		{ lines[++n] = $0 }
		END {
			while (n > 0 && lines[n] == "") n--
			for (i = 1; i <= n; i++) print lines[i]
		}' "$1"
}

# patch_notes FILE: the "Notes:" that git format-patch --notes wrote below
# the "---" of a patch, unindented; nothing if it has none.
patch_notes() {
	awk '
		/^---$/ && !sep { sep = 1; next }
		sep == 1 && /^$/ { next }
		sep == 1 && /^Notes:$/ { sep = 2; next }
		sep == 1 { exit }
		sep == 2 && /^    / { for (; blank > 0; blank--) print ""; sub(/^    /, ""); print; next }
		sep == 2 && /^$/ { blank++; next }
		sep == 2 { exit }' "$1"
}
