"""Facts about the host that results and sweep manifests record."""


def host_cpu():
    """The host CPU's model name, or "unknown"."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"
