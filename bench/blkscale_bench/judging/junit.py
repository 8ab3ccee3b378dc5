"""The nightly verdict as JUnit XML, the format CI systems read: one
testsuite per topology and variant, one testcase per figure and one per
planned run (`run repeat K`).

A regression or a missing figure is a <failure>; a run that did not end
ok is an <error> with its outcome, message and console tail; an
undecided gating figure is an <error type="inconclusive"> (a CI system
that wants it green can say so through the nightly's exit status 3);
every failing case lists the figure's value in each repeat."""

import socket
import xml.etree.ElementTree as ET

from blkscale.figures.compare import (INCONCLUSIVE, MISSING, NO_BASELINE, REGRESSION,
                      RUN_FAILED, WARN, limit_text, power_text)


def _by_repeat(check):
    values = (check.spread or {}).get("values") or {}
    if not values:
        return ""
    said = ", ".join(f"{k}: {v:.4g}" for k, v in
                     sorted(values.items(), key=lambda kv: int(kv[0])))
    return f"\nvalues by repeat: {said}"


def _power(check):
    if check.repeats is None:
        return ""
    power = power_text(check)
    return f"\nrepeats: {check.repeats}" + (f"; {power}" if power else "")


def _suite_name(topo, variant):
    return f"nightly.{topo}.{variant}"


def document(run_id, checks, timestamp, properties=None):
    """An ElementTree of the checks."""
    root = ET.Element("testsuites", name="blkscale-nightly")
    suites = {}
    for c in checks:
        key = (c.topology, c.variant)
        if key not in suites:
            suite = ET.SubElement(root, "testsuite",
                                  name=_suite_name(*key),
                                  timestamp=timestamp or "",
                                  hostname=socket.gethostname())
            props = ET.SubElement(suite, "properties")
            for name, value in [("run", run_id)] + \
                    sorted((properties or {}).items()):
                ET.SubElement(props, "property", name=name,
                              value="" if value is None else str(value))
            suites[key] = suite
        case = ET.SubElement(suites[key], "testcase",
                             classname=_suite_name(*key), name=c.metric,
                             time="0")
        if c.status in (REGRESSION, MISSING):
            node = ET.SubElement(case, "failure", type=c.status,
                                 message=c.message)
            node.text = (f"baseline {c.baseline}, current {c.current}, "
                         f"threshold {limit_text(c.limit)}"
                         + _by_repeat(c) + _power(c))
        elif c.status == RUN_FAILED:
            node = ET.SubElement(case, "error", type=c.status,
                                 message=c.message)
            if c.detail:
                node.text = "console tail:\n" + c.detail
        elif c.status == NO_BASELINE:
            ET.SubElement(case, "skipped", message=c.message)
        elif c.status == INCONCLUSIVE and \
                not (c.limit or {}).get("gate", True):
            out = ET.SubElement(case, "system-out")
            out.text = f"INCONCLUSIVE, advisory ({limit_text(c.limit)}): " \
                f"{c.message}"
        elif c.status == INCONCLUSIVE:
            # Not a pass: the figure, its repeats and what would decide.
            node = ET.SubElement(case, "error", type=c.status,
                                 message=f"INCONCLUSIVE {c.topology} "
                                 f"{c.variant} {c.message}")
            node.text = f"threshold {limit_text(c.limit)}" + \
                _by_repeat(c) + _power(c)
        elif c.status == WARN:
            # JUnit has no warning: a passing case that says so.
            out = ET.SubElement(case, "system-out")
            out.text = f"WARNING ({limit_text(c.limit)}): {c.message}"
        else:
            out = ET.SubElement(case, "system-out")
            out.text = c.message
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root:
        cases = suite.findall("testcase")
        counts = {
            "tests": len(cases),
            "failures": sum(1 for t in cases if t.find("failure") is not None),
            "errors": sum(1 for t in cases if t.find("error") is not None),
            "skipped": sum(1 for t in cases if t.find("skipped") is not None),
        }
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
    for k, v in totals.items():
        root.set(k, str(v))
    return ET.ElementTree(root)


def write(path, tree):
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)
