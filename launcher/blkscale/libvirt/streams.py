"""Console and results from a host that shares no file with the launcher.

libvirt hands a domain's pty console and its results channel over as
streams (virDomainOpenConsole, virDomainOpenChannel).  A StreamPump
copies one stream, as it arrives, into a local file: the same
console.log and results stream the launcher reads when QEMU writes them
itself, so the console watcher and the results parser do not change.
"""

import threading

CHUNK = 64 * 1024
# A non-blocking stream's "nothing yet" (libvirt-python returns -2).
WOULD_BLOCK = -2


class StreamPump:
    """Copies stream -> path in a thread until the stream ends.

    stream: anything with recv(n) -> bytes (b"" at the end, -2 when a
    non-blocking stream has nothing yet, an exception on error) and
    abort().  error holds why the stream ended, if not at its end.
    """

    def __init__(self, stream, path, name):
        self.stream, self.path, self.name = stream, path, name
        self.error = None
        self.received = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"stream-{name}")

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        try:
            with open(self.path, "ab", buffering=0) as out:
                while not self._stop.is_set():
                    data = self.stream.recv(CHUNK)
                    if isinstance(data, int):
                        if data == WOULD_BLOCK:
                            self._stop.wait(0.05)
                            continue
                        raise OSError(f"recv returned {data}")
                    if not data:
                        break
                    out.write(data)
                    self.received += len(data)
        except Exception as e:      # the domain went away under the stream
            if not self._stop.is_set():
                self.error = str(e)

    def done(self):
        return not self._thread.is_alive()

    def join(self, timeout):
        """Wait for the stream's end; True if it ended."""
        self._thread.join(timeout)
        return self.done()

    def stop(self, timeout=5):
        """End the copy now (the domain is gone or going)."""
        self._stop.set()
        self._thread.join(timeout)
        if self._thread.is_alive():
            try:
                self.stream.abort()
            except Exception:
                pass
            self._thread.join(timeout)
