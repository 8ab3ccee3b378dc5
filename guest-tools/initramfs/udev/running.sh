# shellcheck shell=sh
# Sourced by start and settle: whether process $1 runs.  udevd and the
# monitor are children of start, then of /init: one that has exited stays
# a zombie, its /proc entry there, until its parent reaps it.
running() {
	read -r stat 2> /dev/null < "/proc/$1/stat" || return 1
	case ${stat#*) } in Z*) return 1 ;; esac
}
