"""blkscale hosts check URI...: can a run go to these libvirt hosts?"""

import json

from ..errors import EXIT_OK, EXIT_STEP_FAILED, UsageError
from ..libvirt.backend import STAGING_MODES, LibvirtBackend


def add_arguments(parser):
    parser.add_argument("action", choices=("check",),
                        help="check: one line per host")
    parser.add_argument("uris", nargs="+", metavar="URI",
                        help="libvirt URI, e.g. qemu:///system or "
                             "qemu+unix:///system?socket=PATH")
    parser.add_argument("--json", action="store_true",
                        help="the facts as a JSON array (for bench)")
    parser.add_argument("--staging", choices=STAGING_MODES,
                        help="how runs would send their files (run "
                        "--staging); default: shared for a daemon on this "
                        "machine, volumes over the network")


def main(args):
    if not args.json:
        # A mistyped URI is a usage error, before any connection.
        for i, uri in enumerate(args.uris):
            wrong = LibvirtBackend.uri_problem(uri)
            if wrong:
                raise UsageError(f"URI[{i}]: {wrong}")
    facts = [LibvirtBackend.host_facts(u, args.staging) for u in args.uris]
    if args.json:
        print(json.dumps(facts, indent=1))
        return EXIT_OK
    for f in facts:
        print(LibvirtBackend.host_line(f))
    return EXIT_OK if all(f["ok"] for f in facts) else EXIT_STEP_FAILED
