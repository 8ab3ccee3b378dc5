"""A sampling profiler of the guest kernel, driven from the host over QMP.

Under TCG there is no perf in the guest and no host perf that sees guest
symbols, but QEMU's monitor can read every vCPU's registers and memory.
Every interval the launcher reads each vCPU's RIP, RSP, CPL and HLT
("info registers -a"), and for a vCPU running kernel code it scans the top
of its stack for kernel text addresses ("x /Ngx RSP"): a heuristic call
chain that also counts stale return addresses, good enough to see which
caller a hot loop belongs to.  Addresses are resolved against the variant's
System.map (the guest runs without KASLR).

Each sample costs a few monitor round trips, during which the vCPUs are
paused for the register read; at the default 5 samples per second that is
well under 1% of a TCG boot.
"""

import bisect
import contextlib
import json
import re
import time
from collections import Counter

from .qmp import QmpError

STACK_WORDS = 48
# What the simulator, not a real machine, makes the guest pay: samples
# whose RIP is in one of these, as a share of the kernel's samples, so
# that a change that brings either back shows at the top of a profile.
# The clocksource's read (HPET and the ACPI PM timer are emulated MMIO
# and port reads under TCG) ...
CLOCK_SYMBOLS = ("read_hpet", "acpi_pm_read", "acpi_pm_read_verified",
                 "read_tsc", "kvm_clock_get_cycles", "kvm_clock_read",
                 "pvclock_clocksource_read")
# ... and printing to the console: the 8250's port accesses, printk
# itself, and the virtio console's writes.
CONSOLE_SYMBOLS = ("io_serial_out", "io_serial_in", "mem_serial_out",
                   "mem_serial_in", "wait_for_xmitr",
                   "serial8250_console_putchar", "serial8250_console_write",
                   "uart_console_write", "vprintk_emit", "console_unlock",
                   "console_emit_next_record", "hvc_console_print",
                   "put_chars", "__send_to_port")
SHARES = {"clocksource": CLOCK_SYMBOLS, "console": CONSOLE_SYMBOLS}
_CPU = re.compile(r"^CPU#(\d+)", re.M)
_RIP = re.compile(r"RIP=([0-9a-f]{16})")
_RSP = re.compile(r"RSP=([0-9a-f]{16})")
_STATE = re.compile(r"CPL=(\d) .*?HLT=(\d)")
_WORD = re.compile(r"\b(?:0x)?([0-9a-f]{16})\b")


class SymbolMap:
    """Kernel text symbols from a System.map, looked up by address."""

    def __init__(self, path):
        """path None: a kernel without one, where nothing is named."""
        addrs, names, etext = [], [], None
        with open(path) if path else contextlib.nullcontext([]) as f:
            for line in f:
                parts = line.split()
                if len(parts) < 3 or parts[1] not in "tTwW":
                    continue
                if parts[2] == "_etext":
                    etext = int(parts[0], 16)
                addrs.append(int(parts[0], 16))
                names.append(parts[2])
        order = sorted(range(len(addrs)), key=addrs.__getitem__)
        self._addrs = [addrs[i] for i in order]
        self._names = [names[i] for i in order]
        self.text_start = self._addrs[0] if self._addrs else 0
        # Init text lies beyond _etext; the last symbol bounds it.
        self.text_end = self._addrs[-1] if self._addrs else 0
        self._etext = etext

    def is_text(self, addr):
        return self.text_start <= addr < self.text_end

    def name(self, addr):
        i = bisect.bisect_right(self._addrs, addr) - 1
        if i < 0 or not self.is_text(addr):
            return None
        if self._names[i] == "_etext":
            return None         # rodata and data between text and init
        return self._names[i]


def parse_registers(text):
    """Per vCPU of "info registers -a": (cpu, rip, rsp, cpl, halted)."""
    cpus = []
    starts = [(m.start(), int(m.group(1))) for m in _CPU.finditer(text)]
    if not starts:
        starts = [(0, 0)]
    for i, (pos, cpu) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        block = text[pos:end]
        rip, rsp, state = (_RIP.search(block), _RSP.search(block),
                           _STATE.search(block))
        if not (rip and rsp and state):
            continue
        cpus.append((cpu, int(rip.group(1), 16), int(rsp.group(1), 16),
                     int(state.group(1)), state.group(2) == "1"))
    return cpus


def stack_words(text):
    """The 64-bit words of an "x /Ngx" dump (the address column dropped)."""
    words = []
    for line in text.splitlines():
        _, _, data = line.partition(":")
        words += [int(w, 16) for w in _WORD.findall(data)]
    return words


class GuestProfiler:
    """Collects samples during a run; summary() makes the report."""

    def __init__(self, system_map, interval_s=0.2):
        self.symbols = SymbolMap(system_map)
        self.interval_s = interval_s
        self.samples = []           # (t, phase, cpu, state, self, chain)
        self.errors = 0
        self._next = 0.0

    def write(self, directory):
        """profile.json and profile.txt in `directory` (write() below)."""
        return write(self, directory)

    def due(self, t):
        return t >= self._next

    def sample(self, hmp, t, phase, exited=lambda: False):
        """One sample of every vCPU; hmp(cmd, cpu_index) runs a command.

        A sample that QMP refuses because QEMU is exiting (the guest has
        finished, exited() is true) is no error: it lost a race with the
        guest's reboot."""
        self._next = t + self.interval_s
        try:
            cpus = parse_registers(hmp("info registers -a", None))
            for cpu, rip, rsp, cpl, halted in cpus:
                if halted:
                    self.samples.append((t, phase, cpu, "idle", None, ()))
                    continue
                if cpl == 3:
                    self.samples.append((t, phase, cpu, "user", None, ()))
                    continue
                if self.symbols.name(rip) is None:
                    # Firmware, module text (not in System.map), or data:
                    # its address, which a person can look up.
                    self.samples.append((t, phase, cpu, "other",
                                         f"{rip:#x}", ()))
                    continue
                dump = hmp(f"x /{STACK_WORDS}gx 0x{rsp:x}", cpu)
                chain = []
                for word in stack_words(dump):
                    name = self.symbols.name(word)
                    if name and name not in chain:
                        chain.append(name)
                self.samples.append((t, phase, cpu, "kernel",
                                     self.symbols.name(rip), tuple(chain)))
        except QmpError:
            if not exited():
                self.errors += 1

    def summary(self, top=100, windows=10):
        kernel = [s for s in self.samples if s[3] == "kernel"]
        states = Counter(s[3] for s in self.samples)
        own = Counter(s[4] for s in kernel)
        inclusive = Counter()
        for s in kernel:
            inclusive.update(set((s[4],) + s[5]))
        timeline = []
        if self.samples:
            t0, t1 = self.samples[0][0], self.samples[-1][0]
            width = max((t1 - t0) / windows, 1e-9)
            for i in range(windows):
                lo, hi = t0 + i * width, t0 + (i + 1) * width
                inside = [s for s in kernel
                          if lo <= s[0] < hi or (i == windows - 1
                                                 and s[0] == hi)]
                busiest = Counter(s[4] for s in inside).most_common(3)
                phases = Counter(s[1] for s in self.samples
                                 if lo <= s[0] <= hi)
                timeline.append({
                    "from_s": round(lo, 2), "to_s": round(hi, 2),
                    "phase": phases.most_common(1)[0][0] if phases else None,
                    "kernel_samples": len(inside),
                    "top": [{"symbol": n, "samples": c} for n, c in busiest]})
        return {
            "interval_s": self.interval_s,
            "samples": len(self.samples),
            "sample_errors": self.errors,
            "states": dict(states),
            "shares": shares(own, len(kernel)),
            "self": [{"symbol": n, "samples": c}
                     for n, c in own.most_common(top)],
            "inclusive": [{"symbol": n, "samples": c}
                          for n, c in inclusive.most_common(top)],
            "timeline": timeline,
        }


def shares(own, kernel):
    """Per SHARES group: percent of the kernel's samples whose RIP is in
    one of its symbols, the samples, and those by symbol."""
    out = {}
    for group, symbols in SHARES.items():
        hits = {s: own[s] for s in symbols if own.get(s)}
        n = sum(hits.values())
        out[group] = {"percent": round(100.0 * n / kernel, 1) if kernel
                      else 0.0, "samples": n, "symbols": hits}
    return out


def render_text(doc, top=30):
    """The profile as a page a person reads (profile.json has more rows)."""
    kernel = doc["states"].get("kernel", 0)
    lines = [f"guest kernel profile: {doc['samples']} vCPU samples every "
             f"{doc['interval_s']} s; " + ", ".join(
                 f"{k} {v}" for k, v in sorted(doc["states"].items())), ""]
    for group, share in doc.get("shares", {}).items():
        names = ", ".join(f"{s} {n}" for s, n in sorted(
            share["symbols"].items(), key=lambda kv: -kv[1])) or "none"
        lines.append(f"{group + ':':13s} {share['percent']:5.1f}% of kernel "
                     f"samples ({names})")
    lines += ["", "self (RIP in):"]
    for row in doc["self"][:top]:
        share = 100.0 * row["samples"] / kernel if kernel else 0
        lines.append(f"  {share:5.1f}%  {row['samples']:6d}  {row['symbol']}")
    lines += ["", "inclusive (function on the sampled stack):"]
    for row in doc["inclusive"][:top]:
        share = 100.0 * row["samples"] / kernel if kernel else 0
        lines.append(f"  {share:5.1f}%  {row['samples']:6d}  {row['symbol']}")
    lines += ["", "timeline (host seconds since QEMU start):"]
    for w in doc["timeline"]:
        tops = ", ".join(f"{t['symbol']} {t['samples']}" for t in w["top"])
        lines.append(f"  {w['from_s']:8.1f}-{w['to_s']:<8.1f} "
                     f"{w['phase'] or '-':10s} {w['kernel_samples']:5d}  "
                     f"{tops}")
    return "\n".join(lines) + "\n"


def write(profiler, directory):
    """profile.json and profile.txt in the variant's results directory."""
    doc = profiler.summary()
    with open(f"{directory}/profile.json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(f"{directory}/profile.txt", "w") as f:
        f.write(render_text(doc))
    return doc


# What a vCPU not running kernel text was doing, as a hang report says it.
_STATE_TEXT = {"idle": "halted (idle: waiting for an interrupt)",
               "user": "in user space",
               "other": "outside the kernel's text (firmware or a module)"}
SNAPSHOT_SAMPLES = 3
SNAPSHOT_GAP_S = 0.2
SNAPSHOT_CHAIN = 8


def snapshot(hmp, system_map, samples=SNAPSHOT_SAMPLES, gap_s=SNAPSHOT_GAP_S):
    """Where each vCPU is, a few samples apart: for a guest about to be
    stopped as hung, the lines that tell a lost wakeup (every vCPU halted)
    from a loop (the same function every time) and name the function;
    and whether a vCPU was running (not halted) in the last sample."""
    prof = GuestProfiler(system_map, gap_s)
    for i in range(samples):
        if i:
            time.sleep(gap_s)
        prof.sample(hmp, i * gap_s, "stopped")
    lines = []
    for t, _, cpu, state, own, chain in prof.samples:
        if state == "kernel":
            callers = [c for c in chain if c != own][:SNAPSHOT_CHAIN]
            where = f"in {own}" + "".join(f" <- {c}" for c in callers)
        else:
            where = _STATE_TEXT.get(state, state)
            if state == "other" and system_map is None:
                # Nothing names kernel text: in a kernel or out of it.
                where = "running, not named"
            if own:
                where += f" at {own}"
        lines.append(f"+{t:.1f} s vCPU {cpu}: {where}")
    if prof.errors:
        lines.append(f"{prof.errors} of {samples} samples could not be read")
    last = {}
    for t, _, cpu, state, _, _ in prof.samples:
        last[cpu] = state
    return lines, any(state != "idle" for state in last.values())
