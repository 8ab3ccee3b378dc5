#!/bin/bash
# Run the cmocka unit tests of the guest tools' library and print one
# summary line for CI:
#   guest-tools-test: N suites, T tests, P passed, F failed, S skipped
# Also checks that the generated table of static majors matches
# devices.txt of the kernel tree, when that tree is there.
#   run-unit-tests.sh TEST_BINARY...
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
export BLKSCALE_TEST_DATA=$here/data

suites=0 total=0 passed=0 failed=0 skipped=0

for t in "$@"; do
	suites=$((suites + 1))
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	run=$(sed -n 's/^\[=*\] \([0-9]*\) test(s) run\./\1/p' <<<"$out")
	ok=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' <<<"$out")
	bad=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s).*/\1/p' <<<"$out")
	skip=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test(s).*/\1/p' <<<"$out")
	total=$((total + ${run:-0}))
	passed=$((passed + ${ok:-0}))
	failed=$((failed + ${bad:-0}))
	skipped=$((skipped + ${skip:-0}))
	# a crash (sanitizer, signal) prints no summary: count it as a failure
	if [ $rc -ne 0 ] && [ -z "$bad" ]; then
		echo "$t: exit status $rc without a cmocka summary"
		total=$((total + 1))
		failed=$((failed + 1))
	fi
done

# The table is generated from the pristine tree's devices.txt.
suites=$((suites + 1))
total=$((total + 1))
devices=$build/linux/Documentation/admin-guide/devices.txt
if [ ! -f "$devices" ]; then
	echo "static-majors: SKIPPED, no $devices (make kernel)"
	skipped=$((skipped + 1))
elif "$top/guest-tools/src/lib/gen-static-majors.py" "$devices" |
	diff -u "$top/guest-tools/src/lib/static_majors.c" -; then
	echo "static-majors: ok, static_majors.c matches devices.txt"
	passed=$((passed + 1))
else
	echo "static-majors: FAILED, regenerate with make guest-static-majors"
	failed=$((failed + 1))
fi

echo "guest-tools-test: $suites suites, $total tests, $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ] && [ $((passed + skipped)) -eq $total ]
