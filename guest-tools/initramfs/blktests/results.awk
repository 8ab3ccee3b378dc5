# blktests' ./check output (not a tty) -> one JSON document.
# Input: check's stdout. Variables: results (its -o directory), devmap
# ("serial=dev ..."), check_rc, wall_s.  A status line ends in
# "[passed]", "[failed]" or "[not run]"; the indented lines after a
# "not run" are its reasons.  Per-test files under results/<dev|nodev>/
# give the runtime and why a test failed; run-blktests cut the diff and
# dmesg of failures to *.diff and *.dmesg.cut.
# Every input file after the first is the check output of one round of
# reruns, <dir>/check.log with its results under <dir>/results; its tests
# become "reruns.runs", with the diff and dmesg of a test's first failing
# rerun only.  More variables: reruns (asked for), rerun_tests, rounds
# (done), stopped (why reruns ended early), rerun_wall_s.

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

function entry() {
	return sprintf("{\"test\": %s, \"device\": %s, \"serial\": %s, \"status\": %s, " \
		"\"runtime_s\": %s, \"reason\": %s, \"diff\": %s, \"dmesg\": %s}", \
		jstr(name), jnull(dev), jnull((dev in serial) ? serial[dev] : ""), \
		jstr(status), runtime == "" ? "null" : runtime, jnull(reason), \
		jnull(diff), jnull(dmesg))
}

function finish_test(    key) {
	if (name == "")
		return
	reason = reasons != "" ? reasons : reason
	if (round) {
		# Only a test's first failing rerun keeps its diff and dmesg.
		key = name " " dev
		if (status == "failed" && !(key in failed_before))
			failed_before[key] = 1
		else
			diff = dmesg = ""
		rerun_runs = rerun_runs (nruns++ ? "," : "") "\n      " \
			"{\"round\": " round ", " substr(entry(), 2)
	} else {
		printf "%s\n    %s", ntests++ ? "," : "", entry()
		count[status]++
	}
	name = ""
}

function json_words(text,    n, w, i, out) {
	n = split(text, w, " ")
	out = ""
	for (i = 1; i <= n; i++)
		out = out (i > 1 ? ", " : "") jstr(w[i])
	return "[" out "]"
}

BEGIN {
	n = split(devmap, pairs, " ")
	for (i = 1; i <= n; i++) {
		split(pairs[i], pv, "=")
		serial[pv[2]] = pv[1]
	}
	printf "{\"tests\": ["
}

# A new file: the main run's test in progress ends; a rerun round starts.
FNR == 1 {
	finish_test()
	resdir = results
	round = 0
	if (NR > 1) {
		resdir = FILENAME
		sub(/\/[^\/]*$/, "", resdir)
		round = resdir
		sub(/.*\//, "", round)
		round += 0
		resdir = resdir "/results"
	}
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
	base = resdir "/" (dev == "" ? "nodev" : dev) "/" name
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
	# Modules a modular kernel lacks (its config), so not in the image.
	printf "},\n  \"modules_missing\": %s", json_words(modules_missing)
	printf ",\n  \"reruns\": {\"requested\": %d, \"tests\": %s, \"rounds\": %d, " \
		"\"stopped\": %s, \"wall_s\": %s, \"runs\": [%s%s]}}\n", \
		reruns, json_words(rerun_tests), rounds, jnull(stopped), \
		rerun_wall_s == "" ? "null" : rerun_wall_s, rerun_runs, nruns ? "\n    " : ""
}
