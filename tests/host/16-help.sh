#!/bin/bash
# Every tool a user runs says how to use it: --help (and -h) exits 0 and
# prints a usage line on stdout, nothing on stderr, and the help lists
# every option and command its parser accepts, read from its source, so
# that an option added without a line of help fails here:
#   shell  the case patterns of options (-x), --foo), --foo=*), -h | --help))
#          and the tests of an argument ([ "$1" = --foo ]); the words of a
#          one-line case that accepts them and does nothing else
#          (check | update) ;;); the variables it reads with a default
#          (${NAME:-...}), which a user sets in its environment
#   C      the getopt_long tables ({ "name", required_argument, ...}) and
#          option strings, the strcmp()s of argv and of the command, and a
#          command table ({ "name", N, N })
# An option or a command counts as listed when a line of the help starts
# with it (after aliases such as "-m, "): a line of its own, saying what
# it does; a word or a variable, when the help has it anywhere. A wrong
# option still fails: non-zero exit, a message on stderr, nothing on
# stdout (not tried on kernel/tree, which takes any other argument for the
# directory to make). The C tools are built here, in the scratch
# directory, with the host's gcc and -Wall -Wextra -Werror. The tools run
# in an empty directory of their own, under a timeout, and only when
# their source handles --help: without it, some would start real work.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# --- what a parser accepts, from its source --------------------------------

# shell_options FILE: the options the script's case patterns and argument
# tests accept, one a line
shell_options() {
	awk '
		/^[[:space:]]*#/ { next }
		{
			line = $0
			sub(/^[[:space:]]+/, "", line)
			sub(/^case [^ ]+ in /, "", line)
			if (match(line, /^-[-A-Za-z0-9]*(=\*)?( \| -[-A-Za-z0-9]*(=\*)?)*\)/)) {
				n = split(substr(line, 1, RLENGTH - 1), alts, / \| /)
				for (i = 1; i <= n; i++) { o = alts[i]; sub(/=\*$/, "", o); print o }
			}
			rest = line
			while (match(rest, /= "?-[-A-Za-z0-9]+"? \]/)) {
				o = substr(rest, RSTART + 2, RLENGTH - 4)
				gsub(/"/, "", o)
				print o
				rest = substr(rest, RSTART + RLENGTH)
			}
		}' "$1" | sort -u
}
# shell_words FILE: the words a one-line case accepts and does nothing
# with ("case $mode in check | update) ;;"): the values of an argument
shell_words() {
	awk '
		/^[[:space:]]*#/ { next }
		{
			line = $0
			sub(/^[[:space:]]+/, "", line)
			sub(/^case [^ ]+ in /, "", line)
			if (match(line, /^[a-z][a-z0-9-]*( \| [a-z][a-z0-9-]*)*\) ;;/)) {
				n = split(substr(line, 1, RLENGTH - 4), alts, / \| /)
				for (i = 1; i <= n; i++) print alts[i]
			}
		}' "$1" | sort -u
}
# shell_env FILE: the variables the script reads with a default
shell_env() {
	grep -v '^[[:space:]]*#' "$1" | grep -oE '\$\{[A-Z][A-Z0-9_]*:[-=?+]' |
		sed -E 's/^\$\{([A-Z0-9_]+):.$/\1/' | sort -u || true
}
# c_options FILE...: the options and commands the C source accepts
c_options() {
	{
		grep -ohE '\{[[:space:]]*"[A-Za-z][-A-Za-z0-9]*",[[:space:]]*(no|required|optional)_argument' "$@" |
			sed -E 's/^\{[[:space:]]*"([^"]*)".*/--\1/'
		grep -ohE 'getopt(_long)?\([^,]*,[^,]*,[[:space:]]*"[^"]*"' "$@" |
			sed -E 's/.*"([^"]*)"$/\1/' | tr -d '+:' | fold -w1 | sed 's/^/-/'
		grep -ohE 'strcmp\((argv\[[^]]*\]|cmd),[[:space:]]*"[^"]+"\)' "$@" |
			sed -E 's/.*"([^"]+)"\)$/\1/'
		grep -ohE '\{[[:space:]]*"[a-z][-a-z0-9]*",[[:space:]]*[0-9]+,[[:space:]]*[0-9]+[[:space:]]*\}' "$@" |
			sed -E 's/^\{[[:space:]]*"([^"]*)".*/\1/'
	} | sort -u
}

# --- what the help says ------------------------------------------------------

# starts_a_line HELP WORD: a line of HELP starts with WORD (after its
# indent and aliases such as "-m, " or "-o FILE, "), as a word of its own
starts_a_line() {
	awk -v word="$2" '
		{
			line = $0
			sub(/^[[:space:]]+/, "", line)
			while (1) {
				if (index(line, word) == 1 && substr(line, length(word) + 1, 1) !~ /[-A-Za-z0-9_]/) {
					found = 1
					exit
				}
				if (!match(line, /^-[^ ,]*( [^ ,]+)?, /)) break
				line = substr(line, RLENGTH + 1)
			}
		}
		END { exit !found }' "$1"
}
# mentions HELP WORD: HELP has WORD, as a word of its own, anywhere
mentions() {
	awk -v word="$2" '
		{
			s = $0
			while ((i = index(s, word)) > 0) {
				before = i > 1 ? substr(s, i - 1, 1) : ""
				after = substr(s, i + length(word), 1)
				if (before !~ /[A-Za-z0-9_]/ && after !~ /[A-Za-z0-9_]/) { found = 1; exit }
				s = substr(s, i + 1)
			}
		}
		END { exit !found }' "$1"
}
# missing TEST HELP LIST: the words of LIST (a file, one a line) for which
# TEST HELP WORD fails, on one line
missing() {
	local word gone=()
	while IFS= read -r word; do
		[ -n "$word" ] || continue
		"$1" "$2" "$word" || gone+=("$word")
	done <"$3"
	echo "${gone[*]}"
}
# usage_only OUT ERR: OUT has a usage line, ERR is empty
usage_only() { grep -qiE '^usage: ' "$1" && [ ! -s "$2" ]; }
# refused STATUS OUT ERR: a failure, said on stderr, nothing on stdout
refused() { [ "$1" != 0 ] && [ ! -s "$2" ] && [ -s "$3" ]; }

# --- the checks of one tool ----------------------------------------------------

cwd=$scratch/cwd
mkdir -p "$cwd"
# run_tool OUT ERR CMD...: CMD in the empty directory, with a timeout; its
# exit status
run_tool() {
	local out=$1 err=$2 status=0
	shift 2
	(cd "$cwd" && timeout 60 "$@") >"$out" 2>"$err" </dev/null || status=$?
	echo "$status"
}

# names_each NAME HELP WHAT LIST: the check that HELP, the help of the tool
# NAME, names each WHAT in the file LIST (none when LIST is empty)
names_each() {
	local gone
	[ -s "$4" ] || return 0
	gone=$(missing mentions "$2" "$4")
	check "$1 --help names each $3: $(paste -sd' ' "$4")" [ -z "$gone" ]
	[ -z "$gone" ] || echo "#   not in its --help: $gone"
}

# tool_checks NAME OPTIONS WORDS ENV CMD...: the checks of the tool NAME,
# run as CMD, whose parser accepts the options and commands in the file
# OPTIONS, the values in WORDS and the variables in ENV
tool_checks() {
	local name=$1 options=$2 words=$3 env=$4 help=$scratch/help/$1 status gone
	shift 4
	mkdir -p "$(dirname "$help")"
	if ! grep -qx -- --help "$options"; then
		not_ok "$name: its parser handles --help (none found in its source; not run)"
		return
	fi
	check "$name: its parser handles -h and --help ($(wc -l <"$options") options and commands read from its source)" \
		grep -qx -- -h "$options"
	status=$(run_tool "$help" "$help.err" "$@" --help)
	check "$name --help exits 0 (exit $status)" [ "$status" = 0 ]
	check "$name --help prints a usage line on stdout, nothing on stderr" usage_only "$help" "$help.err"
	[ ! -s "$help.err" ] || sed 's/^/#   stderr: /' "$help.err" | head -n 5
	status=$(run_tool "$help.h" "$help.h.err" "$@" -h)
	check "$name -h prints the same (exit $status)" cmp -s "$help" "$help.h"

	gone=$(missing starts_a_line "$help" "$options")
	check "$name --help has a line for each option and command its parser accepts: $(paste -sd' ' "$options")" \
		[ -z "$gone" ]
	[ -z "$gone" ] || echo "#   no line of its --help starts with: $gone"
	names_each "$name" "$help" "value its parser accepts" "$words"
	names_each "$name" "$help" "variable it reads from the environment" "$env"

	if [ "$name" = kernel/tree ]; then
		skip "$name refuses an unknown option" "it takes any other argument for the directory to make"
	else
		status=$(run_tool "$help.bad" "$help.bad.err" "$@" --no-such-option)
		check "$name --no-such-option fails, on stderr (exit $status)" \
			refused "$status" "$help.bad" "$help.bad.err"
	fi
}

# --- the shell tools -----------------------------------------------------------

for tool in tools/oneliners/oneliners tests/run kernel/tree kernel/export bench/run zfs/build stap-scripts/report-timeline \
	vendor-module/collect/acme-collect; do
	base=$scratch/parsed/$tool
	mkdir -p "$(dirname "$base")"
	shell_options "$tool" >"$base.options"
	shell_words "$tool" >"$base.words"
	shell_env "$tool" >"$base.env"
	tool_checks "$tool" "$base.options" "$base.words" "$base.env" "$project_dir/$tool"
done

# --- the C tools, built here -----------------------------------------------------

bin=$scratch/bin
mkdir -p "$bin"
cflags=(-O2 -Wall -Wextra -Werror)
# c_tool NAME SOURCES -- GCC-ARGS...: build NAME from GCC-ARGS, then its
# checks, its options read from SOURCES (the files of its parser)
c_tool() {
	local name=$1 sources=() base=$scratch/parsed/$1
	shift
	while [ "$1" != -- ]; do sources+=("$1"); shift; done
	shift
	if gcc "${cflags[@]}" -o "$bin/$name" "$@" >"$scratch/$name.build" 2>&1; then
		ok "$name builds with gcc ${cflags[*]}"
	else
		not_ok "$name builds with gcc ${cflags[*]}"
		sed 's/^/#   /' "$scratch/$name.build" | head -n 20
		return
	fi
	mkdir -p "$(dirname "$base")"
	c_options "${sources[@]}" >"$base.options"
	: >"$base.none"
	tool_checks "$name" "$base.options" "$base.none" "$base.none" "$bin/$name"
}
c_tool acmectl vendor-module/acmectl/acmectl.c -- \
	-std=gnu11 -D_GNU_SOURCE -Ivendor-module/include -pthread vendor-module/acmectl/acmectl.c
c_tool markers-elf tools/markers-elf/main.c -- \
	tools/markers-elf/main.c tools/markers-elf/markers.c tools/markers-elf/mtext.c -lelf
c_tool ko-edit tools/ko-edit/ko-edit.c -- -std=gnu11 tools/ko-edit/ko-edit.c -lelf
finish
