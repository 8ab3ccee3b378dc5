"""A writer for the newc ("070701") cpio format, as the kernel unpacks it.

The standard library reads many archive formats but writes no cpio.  newc
is small: a 110-byte ASCII header of 13 hex fields, the NUL-terminated
name, and the data, each padded to 4 bytes; a "TRAILER!!!" entry ends
the archive (Documentation/driver-api/early-userspace/buffer-format.rst).
"""

import stat

MAGIC = b"070701"
TRAILER = "TRAILER!!!"


def _pad4(n):
    return (4 - n % 4) % 4


class NewcWriter:
    """Collects entries, then to_bytes() returns the whole archive.

    Entries are written in the order added, with uid/gid 0 and mtime 0 so
    that the same plan always gives the same bytes.
    """

    def __init__(self):
        self._entries = []
        self._ino = 0x1000      # away from the base image's inode numbers

    def add_dir(self, name, mode=0o755):
        self._add(name, stat.S_IFDIR | mode, b"", nlink=2)

    def add_file(self, name, data, mode=0o644):
        if isinstance(data, str):
            data = data.encode()
        self._add(name, stat.S_IFREG | mode, data, nlink=1)

    def _add(self, name, mode, data, nlink):
        name = name.lstrip("/")
        if not name or "\0" in name:
            raise ValueError(f"bad cpio entry name {name!r}")
        self._ino += 1
        self._entries.append((name, mode, data, nlink, self._ino))

    @staticmethod
    def _entry(name, mode, data, nlink, ino):
        encoded = name.encode() + b"\0"
        fields = (ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0,
                  len(encoded), 0)
        header = MAGIC + b"".join(b"%08x" % f for f in fields)
        out = header + encoded + b"\0" * _pad4(len(header) + len(encoded))
        return out + data + b"\0" * _pad4(len(data))

    def to_bytes(self):
        parts = [self._entry(*e) for e in self._entries]
        parts.append(self._entry(TRAILER, 0, b"", 1, 0))
        return b"".join(parts)


def concatenate(parts, extra, out_path):
    """The archives in `parts` (paths), in order, then the bytes `extra`.

    The kernel unpacks concatenated archives in order, a later file
    replacing an earlier one; each must start on a 4-byte boundary, so
    every part is padded with zeros if needed.
    """
    with open(out_path, "wb") as dst:
        for part in parts:
            size = 0
            with open(part, "rb") as src:
                while True:
                    chunk = src.read(1 << 20)
                    if not chunk:
                        break
                    dst.write(chunk)
                    size += len(chunk)
            dst.write(b"\0" * _pad4(size))
        dst.write(extra)
