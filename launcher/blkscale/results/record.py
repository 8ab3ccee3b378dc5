"""What the three documents have in common: a frozen record over the
document as written, its schema's name checked and its version known.

A record keeps the document whole, in its order, so that to_json()
gives back what from_json() was given and a document written from a
record is byte for byte the one the builder made.  Fields the project
reads are the subclass's properties; the sections copied verbatim from
the guest are read by name, as from any mapping.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import InputError
from .atomic import write_json_atomic

# Documents written before the schema carried a version are version 1.
UNVERSIONED = 1


class Unreadable(InputError):
    """A file that could not be read or parsed; `reason` says why."""

    def __init__(self, path, what, reason):
        self.reason = reason
        super().__init__(path, None, f"unreadable {what}: {reason}")


@dataclass(frozen=True, eq=False)
class Record(Mapping):
    body: Mapping
    version: int = UNVERSIONED
    where: str = None           # the file it was read from, if any

    SCHEMA = None               # {"name": ..., "version": ...}

    @classmethod
    def from_json(cls, doc, where=None, untagged=False):
        """The record of a parsed document; InputError naming `where` and
        the field when it is not one of this schema's.  untagged: an
        object without any `schema` is taken for version 1 (readers that
        never asked for one)."""
        schema = doc.get("schema") if isinstance(doc, Mapping) else None
        if untagged and isinstance(doc, Mapping) and "schema" not in doc:
            return cls(MappingProxyType(dict(doc)), UNVERSIONED, where)
        name = cls.SCHEMA["name"]
        if not isinstance(schema, Mapping) or schema.get("name") != name:
            raise InputError(where, "schema.name", f"is not {name}")
        version = schema.get("version", UNVERSIONED)
        newest = cls.SCHEMA["version"]
        if isinstance(version, bool) or not isinstance(version, int) or \
                not 1 <= version <= newest:
            raise InputError(where, "schema.version",
                             f"{version!r}: only versions 1 to {newest} "
                             "are read")
        return cls(MappingProxyType(dict(doc)), version, where)

    @classmethod
    def read(cls, path, what, untagged=False):
        """The record of the file at path, or None if there is none."""
        try:
            with open(path) as f:
                doc = json.load(f)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise Unreadable(path, what, e) from None
        return cls.from_json(doc, str(path), untagged)

    def to_json(self):
        """The document as a dict, its keys in the order written."""
        return dict(self.body)

    def write(self, path):
        """Written whole or not at all (atomic.py)."""
        write_json_atomic(path, self.to_json())

    def __getitem__(self, key):
        return self.body[key]

    def __iter__(self):
        return iter(self.body)

    def __len__(self):
        return len(self.body)

    def part(self, key):
        """A top-level object of the document, {} when absent or not an
        object."""
        value = self.body.get(key)
        return value if isinstance(value, Mapping) else {}
