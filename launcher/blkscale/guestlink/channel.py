"""The results stream from the guest's org.blkscale.results port.

Records (guest-tools/PROTOCOL.md), one per line:

    BLKSCALE-HELLO 1 <kernel release> <uptime_s>
    BLKSCALE-PHASE <name> <uptime_s>
    BLKSCALE-SECTION <name>
    <JSON text>
    BLKSCALE-END <name> <bytes of the JSON text>
    BLKSCALE-STEP <name> <ok|failed|skipped> <start> <end> <message...>
    BLKSCALE-LOG <name> <bytes>
    <that many bytes of text, as they are>
    BLKSCALE-ASK <request> <uptime_s>
    BLKSCALE-DONE <ok|failed> <uptime_s>

An ASK is a step asking the host to act while it runs (ASKS: remove the
paths the topology names, add them back); the host answers by acting,
and the step sees the effect.

The parser is fed bytes as QEMU writes them (for live progress) and is
strict: anything else, a byte count that does not match, JSON that does
not parse, or a stream that ends before DONE is a broken channel.
"""

import json
import re
from dataclasses import dataclass, field

from ..errors import BlkscaleError

PROTOCOL = 1
_NAME = r"[A-Za-z0-9_.-]+"
_NUM = r"[0-9]+(?:\.[0-9]+)?"
_RECORDS = {
    "HELLO": re.compile(rf"BLKSCALE-HELLO ([0-9]+) (\S+) ({_NUM})"),
    "PHASE": re.compile(rf"BLKSCALE-PHASE ({_NAME}) ({_NUM})"),
    "SECTION": re.compile(rf"BLKSCALE-SECTION ({_NAME})"),
    "STEP": re.compile(rf"BLKSCALE-STEP ({_NAME}) (ok|failed|skipped) "
                       rf"({_NUM}) ({_NUM})(?: (.*))?"),
    "DONE": re.compile(rf"BLKSCALE-DONE (ok|failed) ({_NUM})"),
    "LOG": re.compile(r"BLKSCALE-LOG ([a-z]+) ([0-9]+)"),
    "ASK": re.compile(rf"BLKSCALE-ASK ({_NAME}) ({_NUM})"),
}
# The logs a guest may send; each becomes <name>.log beside console.log.
LOGS = ("dmesg",)
# What a step may ask of the host (the pathfail step).
ASKS = ("paths-down", "paths-up")
_END = re.compile(rf"BLKSCALE-END ({_NAME}) ([0-9]+)")


class ChannelError(BlkscaleError):
    """The results stream is broken: no results.json may be written."""


@dataclass
class Results:
    protocol: int = 0
    release: str = ""
    init_uptime_s: float = None
    phases: list = field(default_factory=list)      # (name, uptime_s)
    sections: dict = field(default_factory=dict)    # name -> JSON value
    steps: list = field(default_factory=list)       # dicts
    done: str = None                                # ok | failed
    done_uptime_s: float = None
    logs: dict = field(default_factory=dict)        # name -> bytes
    asks: list = field(default_factory=list)        # (request, uptime_s)


class ResultsParser:
    def __init__(self):
        self.results = Results()
        self._buf = bytearray()
        self._line = 0
        self._section = None        # (name, bytearray) while inside one
        self._log = None            # (name, bytes still due) inside a log
        self._hello = False
        self._asks_taken = 0

    @property
    def phase(self):
        """The guest's latest phase, for the progress line."""
        r = self.results
        if r.done:
            return "done"
        if r.phases:
            return r.phases[-1][0]
        return "init" if self._hello else None

    @property
    def complete(self):
        return self.results.done is not None

    def feed(self, data):
        """Take more bytes; complete lines are parsed at once."""
        self._buf += data
        while True:
            if self._log:
                if not self._take_log():
                    return
                continue
            end = self._buf.find(b"\n")
            if end < 0:
                return
            line = bytes(self._buf[:end + 1])
            del self._buf[:end + 1]
            self._line += 1
            self._take(line)

    def take_asks(self):
        """The requests that arrived since the last call, in order."""
        new = self.results.asks[self._asks_taken:]
        self._asks_taken = len(self.results.asks)
        return new

    def finish(self):
        """The stream has ended: the Results, or ChannelError."""
        if self._buf:
            self._fail("the stream ends inside a line (truncated)")
        if self._section:
            self._fail(f"the stream ends inside section {self._section[0]} "
                       "(truncated)")
        if self._log:
            self._fail(f"the stream ends inside log {self._log[0]} "
                       f"({self._log[1]} bytes missing)")
        if not self._hello:
            self._fail("no BLKSCALE-HELLO: the guest never reported")
        if self.results.done is None:
            self._fail("no BLKSCALE-DONE: the guest did not finish its plan")
        return self.results

    def _fail(self, problem):
        raise ChannelError(f"results stream, line {self._line}: {problem}")

    def _take(self, raw):
        if self._section:
            m = _END.fullmatch(raw.rstrip(b"\n").decode("utf-8", "replace"))
            if m:
                self._end_section(m.group(1), int(m.group(2)))
            else:
                self._section[1].extend(raw)
            return
        try:
            line = raw.rstrip(b"\n").decode("utf-8")
        except UnicodeDecodeError:
            self._fail("not UTF-8 text")
        if self.results.done is not None:
            self._fail("data after BLKSCALE-DONE")
        for kind, pattern in _RECORDS.items():
            m = pattern.fullmatch(line)
            if m:
                break
        else:
            shown = line if len(line) <= 60 else line[:57] + "..."
            self._fail(f"not a record: {shown!r}")
        if kind != "HELLO" and not self._hello:
            self._fail("the first record must be BLKSCALE-HELLO")
        getattr(self, "_record_" + kind.lower())(*m.groups())

    def _record_hello(self, version, release, uptime):
        if self._hello:
            self._fail("a second BLKSCALE-HELLO")
        if int(version) != PROTOCOL:
            self._fail(f"protocol {version}, expected {PROTOCOL}")
        self._hello = True
        r = self.results
        r.protocol, r.release = int(version), release
        r.init_uptime_s = float(uptime)

    def _record_phase(self, name, uptime):
        self.results.phases.append((name, float(uptime)))

    def _record_section(self, name):
        if name in self.results.sections:
            self._fail(f"section {name} sent twice")
        self._section = (name, bytearray())

    def _end_section(self, name, count):
        opened, text = self._section
        if name != opened:
            self._fail(f"BLKSCALE-END {name} closes section {opened}")
        if count != len(text):
            self._fail(f"section {name}: {len(text)} bytes received, "
                       f"{count} announced")
        try:
            value = json.loads(text.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            self._fail(f"section {name}: invalid JSON: {e}")
        self.results.sections[name] = value
        self._section = None

    def _record_step(self, name, verdict, start, end, message):
        self.results.steps.append({
            "name": name, "verdict": verdict, "start_s": float(start),
            "end_s": float(end), "message": message or ""})

    def _record_log(self, name, count):
        if name not in LOGS:
            self._fail(f"log {name}: unknown (known: {', '.join(LOGS)})")
        if name in self.results.logs:
            self._fail(f"log {name} sent twice")
        self.results.logs[name] = b""
        self._log = (name, int(count))

    def _take_log(self):
        """Move a log's bytes out of the buffer; True once it is whole."""
        name, due = self._log
        part = bytes(self._buf[:due])
        del self._buf[:due]
        self.results.logs[name] += part
        self._log = (name, due - len(part))
        if self._log[1]:
            return False
        self._line += self.results.logs[name].count(b"\n")
        self._log = None
        return True

    def _record_ask(self, request, uptime):
        if request not in ASKS:
            self._fail(f"ask {request}: unknown (known: {', '.join(ASKS)})")
        self.results.asks.append((request, float(uptime)))

    def _record_done(self, status, uptime):
        self.results.done = status
        self.results.done_uptime_s = float(uptime)


def parse(data):
    """Parse a whole stream at once."""
    parser = ResultsParser()
    parser.feed(data)
    return parser.finish()
