# udevadm monitor --kernel --udev, one line per event:
#   KERNEL[12.345678] add      /devices/.../block/sda (block)
#   UDEV  [12.456789] add      /devices/.../block/sda (block)
# Prints the events as JSON: counts by source and subsystem, the disks'
# add events (a devpath ending in /block/<name>: a disk, not one of its
# partitions), the first and last of them, the last event of each
# source (udev's last one is when it had handled everything that
# arrived, settle then found its queue empty), and writes each disk's
# latency from its kernel uevent to udev's event, in ms, to file `lat`.
function json_counts(a, sep, k, out) {
	out = "{"; sep = ""
	for (k in a) { out = out sep "\"" k "\": " a[k]; sep = ", " }
	return out "}"
}
function seconds(have, t) { return have ? sprintf("%.6f", t) : "null" }
/^(KERNEL|UDEV) *\[/ {
	src = ($0 ~ /^KERNEL/) ? "kernel" : "udev"
	t = $0; sub(/^[A-Z]* *\[/, "", t); sub(/\].*/, "", t); t += 0
	rest = $0; sub(/^[^]]*\] */, "", rest)
	split(rest, f, " ")
	action = f[1]; devpath = f[2]; subsys = f[3]
	gsub(/[()]/, "", subsys)
	events[src]++
	if (t > last[src]) last[src] = t
	bysub[src "/" subsys]++
	if (action != "add" || subsys != "block" || devpath !~ /\/block\/[^\/]+$/)
		next
	name = devpath; sub(/.*\//, "", name)
	if (name !~ /^(sd|vd|nullb)/)
		next
	if (src == "kernel") {
		if (!(name in kt)) { kt[name] = t; disks_k++ }
		if (first_k == "" || t < first_k) first_k = t
		if (t > last_k) last_k = t
	} else {
		if (!(name in ut)) { ut[name] = t; disks_u++ }
		if (t > last_u) last_u = t
	}
}
END {
	for (name in ut)
		if (name in kt)
			printf "%.3f\n", (ut[name] - kt[name]) * 1000 > lat
	for (k in bysub) {
		split(k, p, "/")
		if (p[1] == "kernel") kb[p[2]] = bysub[k]; else ub[p[2]] = bysub[k]
	}
	printf "{\"kernel_events\": %d, \"udev_events\": %d,\n", events["kernel"], events["udev"]
	printf "  \"kernel_by_subsystem\": %s,\n  \"udev_by_subsystem\": %s,\n", json_counts(kb), json_counts(ub)
	printf "  \"disk_adds_kernel\": %d, \"disk_adds_udev\": %d,\n", disks_k, disks_u
	printf "  \"first_disk_kernel_s\": %s, \"last_disk_kernel_s\": %s, \"last_disk_udev_s\": %s,\n", \
		seconds(disks_k, first_k), seconds(disks_k, last_k), seconds(disks_u, last_u)
	printf "  \"last_kernel_s\": %s, \"last_udev_s\": %s}\n", \
		seconds(events["kernel"], last["kernel"]), seconds(events["udev"], last["udev"])
}
