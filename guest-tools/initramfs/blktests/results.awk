# blktests' ./check output (not a tty) -> one JSON document.
# Input: check's stdout. Variables: results (its -o directory), devmap
# ("serial=dev ..."), check_rc, wall_s.  A status line ends in
# "[passed]", "[failed]" or "[not run]"; the indented lines after a
# "not run" are its reasons.  Per-test files under results/<dev|nodev>/
# give the runtime and why a test failed; run-blktests cut the diff and
# dmesg of failures to *.diff and *.dmesg.cut.

function jstr(s,    out) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\n/, "\\n", s)
	gsub(/\t/, "\\t", s)
	gsub(/\r/, "\\r", s)
	gsub(/[\001-\037]/, "?", s)
	gsub(/[\200-\377]/, "?", s)
	return "\"" s "\""
}

function jnull(s) {
	return s == "" ? "null" : jstr(s)
}

function slurp(path,    line, text, n) {
	text = ""
	n = 0
	while ((getline line < path) > 0)
		text = text (n++ ? "\n" : "") line
	close(path)
	return text
}

function finish_test() {
	if (name == "")
		return
	reason = reasons != "" ? reasons : reason
	printf "%s\n    {\"test\": %s, \"device\": %s, \"serial\": %s, \"status\": %s, " \
		"\"runtime_s\": %s, \"reason\": %s, \"diff\": %s, \"dmesg\": %s}", \
		ntests++ ? "," : "", jstr(name), jnull(dev), jnull((dev in serial) ? serial[dev] : ""), \
		jstr(status), runtime == "" ? "null" : runtime, jnull(reason), \
		jnull(diff), jnull(dmesg)
	count[status]++
	name = ""
}

BEGIN {
	n = split(devmap, pairs, " ")
	for (i = 1; i <= n; i++) {
		split(pairs[i], pv, "=")
		serial[pv[2]] = pv[1]
	}
	printf "{\"tests\": ["
}

/\[(passed|failed|not run)\]$/ {
	finish_test()
	line = $0
	status = line
	sub(/.*\[/, "", status)
	sub(/\]$/, "", status)
	name = $1
	dev = ""
	if ($2 == "=>")
		dev = $3
	reasons = reason = runtime = diff = dmesg = ""
	base = results "/" (dev == "" ? "nodev" : dev) "/" name
	while ((getline kv < base) > 0) {
		split(kv, f, "\t")
		if (f[1] == "runtime") {
			runtime = f[2]
			sub(/s$/, "", runtime)
		} else if (f[1] == "reason")
			reason = f[2]
		else if (f[1] == "exit_status" && status == "failed" && reason == "exit")
			reason = "exit status " f[2]
	}
	close(base)
	if (status == "failed") {
		diff = slurp(base ".diff")
		dmesg = slurp(base ".dmesg.cut")
	}
	next
}

/^    / && name != "" && status == "not run" {
	r = $0
	sub(/^ +/, "", r)
	# A test that decided to skip only once it ran prints its runtime
	# first: that is the runtime (from the results file), not a reason.
	if (r ~ /^runtime +\.\.\./)
		next
	reasons = reasons (reasons == "" ? "" : "; ") r
}

END {
	finish_test()
	printf "\n  ],\n  \"summary\": {\"passed\": %d, \"failed\": %d, \"not_run\": %d, " \
		"\"total\": %d},\n  \"check_exit_status\": %d, \"wall_s\": %s,\n  \"devices\": {", \
		count["passed"], count["failed"], count["not run"], ntests, check_rc, wall_s
	first = 1
	for (d in serial) {
		printf "%s%s: %s", first ? "" : ", ", jstr(serial[d]), jstr(d)
		first = 0
	}
	printf "}}\n"
}
