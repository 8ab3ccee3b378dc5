"""The guest's steps and the topology schema's are one list.

A step named in plan.steps runs guest-tools/initramfs/steps/<step>; the
guest's /init sends its output as the section STEP_SECTIONS names (the
step's own name otherwise), which results.json keeps under that name.
"""

import re

from launchertest import REPO

from blkscale.topology.schema import STEP_SECTIONS, STEPS

INITRAMFS = REPO / "guest-tools" / "initramfs"


def guest_steps(directory):
    return sorted(p.name for p in directory.iterdir() if p.is_file())


def init_sections(text):
    """{step: section} of /init's `case $step in` mapping."""
    block = re.search(r"case \$step in\n(.*?)\n\s*esac", text, re.S)
    assert block, "/init has no case $step mapping"
    cases = dict(re.findall(r"^\s*([a-z_]+)\) section=([a-z_]+) ;;$",
                            block.group(1), re.M))
    assert re.search(r"^\s*\*\) section=\$step ;;$", block.group(1), re.M)
    return cases


def test_guest_steps_are_the_schema_steps():
    assert guest_steps(INITRAMFS / "steps") == sorted(STEPS)


def test_guest_sends_the_sections_the_schema_names():
    assert init_sections((INITRAMFS / "init").read_text()) == STEP_SECTIONS


def test_a_missing_or_extra_step_is_seen(tmp_path):
    for step in STEPS[1:]:
        (tmp_path / step).write_text("#!/bin/sh\n")
    (tmp_path / "extra").write_text("#!/bin/sh\n")
    assert guest_steps(tmp_path) != sorted(STEPS)


def test_a_different_section_is_seen():
    text = ("case $step in\n\tfio) section=fio_raw ;;\n"
            "\tdevtaudit) section=devtaudit ;;\n\t*) section=$step ;;\n"
            "\tesac\n")
    assert init_sections(text) != STEP_SECTIONS
