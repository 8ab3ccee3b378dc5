# systemd-udevd's log (stderr, Debian's level: info) as JSON: its lines,
# worker timeouts (slow: "is taking a long time"; killed: "killed",
# "terminated by signal"), failures of rules and programs (every other
# line that says failed, error, invalid or unknown), and the first lines
# of each kind as they are.
function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return s }
function keep(s) { if (kept < 20) { shown[kept++] = s } }
{ lines++ }
/is taking a long time/ { slow++; keep($0); next }
/killed|terminated by signal/ { killed++; keep($0); next }
/[Ff]ailed|[Ee]rror|[Ii]nvalid|[Uu]nknown/ { failed++; keep($0); next }
END {
	printf "{\"lines\": %d, \"worker_slow\": %d, \"worker_killed\": %d, \"rule_failures\": %d,\n  \"problems\": [", lines, slow, killed, failed
	for (i = 0; i < kept; i++)
		printf "%s\n   \"%s\"", i ? "," : "", esc(shown[i])
	printf "]}\n"
}
