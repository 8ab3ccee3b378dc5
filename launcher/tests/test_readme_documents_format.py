"""topologies/README.md documents every key of the format."""

from blkscale.topology import schema
from launchertest import TOPOLOGIES


def test_every_key_is_documented():
    readme = (TOPOLOGIES / "README.md").read_text()
    missing = [p for p in schema.field_paths() if f"`{p}`" not in readme]
    assert missing == [], f"undocumented keys: {missing}"
