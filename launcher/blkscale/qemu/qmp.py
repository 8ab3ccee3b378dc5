"""A minimal QMP client: greeting, capabilities, commands, events skipped.

QEMU's own python/qemu/qmp is not packaged in Debian; the launcher needs
the greeting (to time QEMU's start), `quit`, a few queries, and batches of
commands that add disks before the guest runs (pipeline()).
"""

import json
import socket
import time


class QmpError(Exception):
    pass


def hmp_arguments(command, cpu_index=None):
    """human-monitor-command's arguments: an HMP command line, run on
    vCPU cpu_index when given (the registers and stack of that vCPU)."""
    args = {"command-line": command}
    if cpu_index is not None:
        args["cpu-index"] = cpu_index
    return args


class Qmp:
    def __init__(self, path):
        self.path = str(path)
        self._sock = None
        self._buf = b""
        self.greeting = None

    def connect(self, deadline, alive=lambda: True):
        """Connect and read the greeting; alive() False stops waiting.

        The socket exists as soon as QEMU has parsed its options; the
        greeting is sent once its main loop runs, after every device is
        created, which is what makes it a measure of QEMU's start-up.
        """
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(self.path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                sock.close()
                if not alive():
                    raise QmpError("QEMU exited before its QMP socket "
                                   "accepted a connection") from None
                if time.monotonic() > deadline:
                    raise QmpError("QMP socket did not appear") from None
                time.sleep(0.02)
        self._sock = sock
        while self.greeting is None:
            msg = self._read(deadline, alive)
            if "QMP" in msg:
                self.greeting = msg
        self.command("qmp_capabilities", deadline=deadline, alive=alive)
        return self.greeting

    def _read(self, deadline, alive):
        while b"\n" not in self._buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise QmpError("QMP timed out")
            self._sock.settimeout(min(remaining, 0.5))
            try:
                chunk = self._sock.recv(65536)
            except socket.timeout:
                if not alive():
                    raise QmpError("QEMU exited during QMP") from None
                continue
            except OSError as e:
                raise QmpError(f"QMP connection: {e}") from None
            if not chunk:
                raise QmpError("QMP connection closed")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except json.JSONDecodeError as e:
            raise QmpError(f"QMP sent invalid JSON: {e}") from None

    def command(self, name, deadline=None, alive=lambda: True, **arguments):
        if self._sock is None:
            raise QmpError("QMP is not connected")
        if deadline is None:
            deadline = time.monotonic() + 10
        msg = {"execute": name}
        if arguments:
            msg["arguments"] = arguments
        try:
            self._sock.sendall(json.dumps(msg).encode() + b"\n")
        except OSError as e:
            raise QmpError(f"QMP connection: {e}") from None
        while True:
            reply = self._read(deadline, alive)
            if "event" in reply:
                continue
            if "error" in reply:
                raise QmpError(f"{name}: {reply['error'].get('desc')}")
            return reply.get("return")

    def pipeline(self, commands, deadline, alive=lambda: True):
        """Send commands (dicts with "execute" and "arguments") at once and
        read their replies; QmpError names the first that failed.

        QEMU queues what it has read and stops reading while its queue is
        full, but keeps answering, so a batch of any size cannot deadlock:
        one write and one read pass per batch instead of a round trip per
        command.
        """
        if self._sock is None:
            raise QmpError("QMP is not connected")
        data = b"".join(json.dumps(dict(c, id=i)).encode() + b"\n"
                        for i, c in enumerate(commands))
        try:
            self._sock.settimeout(max(deadline - time.monotonic(), 0.001))
            self._sock.sendall(data)
        except (socket.timeout, OSError) as e:
            raise QmpError(f"QMP connection: {e}") from None
        failed = None
        for _ in commands:
            reply = self._read(deadline, alive)
            while "event" in reply:
                reply = self._read(deadline, alive)
            if "error" in reply and failed is None:
                cmd = commands[reply.get("id", 0)]
                args = json.dumps(cmd.get("arguments"))
                failed = (f"{cmd['execute']} {args}: "
                          f"{reply['error'].get('desc')}")
        if failed:
            raise QmpError(failed)

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None
