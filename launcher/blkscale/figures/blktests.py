"""A verdict for every blktests test from both kernels' runs again.

The guest runs every test that failed again `plan.blktests.reruns` times
(results.json `blktests.reruns`); a test that failed only on the other
kernel gets its reruns in a second boot of that kernel (see pending():
`blkscale run` with run id `second-boot-<variant>` under the run, so
`<run>/second-boot-<variant>/<variant>/results.json`, which reports'
blktestsruns.py reads).  Which tests are judged: every test whose first
status differs between the kernels, and every test that failed on
either.  From their reruns:

- regression: fails on the other kernel in every rerun, passes on the
  reference in every rerun (and so did the first runs);
- fixed: the reverse;
- fails on both: fails on both in every rerun, with blktests' own reason;
- flaky: mixed results on either kernel, a first run included: a failure
  that never came back is a flake too;
- not run: the test did not run on a kernel in every rerun;
- not rerun: a kernel has no reruns of it (reruns off, stopped by an oops,
  or its second boot missing): nothing can be said.

A test outside that set is a plain pass, or not run on both.
"""

from dataclasses import dataclass, field


def _key(entry):
    return (entry["test"], entry.get("serial") or entry.get("device") or "")


def _section(doc):
    section = (doc or {}).get("blktests") or {}
    return section if isinstance(section.get("tests"), list) else None


def first_runs(doc):
    """{(test, disk): entry} of a document's first run of the suite."""
    section = _section(doc) or {}
    return {_key(t): t for t in section["tests"]
            if isinstance(t, dict) and t.get("test")} if section else {}


def reruns(docs):
    """{(test, disk): [run entry, ...]} over the documents in order."""
    out = {}
    for doc in docs:
        for run in ((_section(doc) or {}).get("reruns") or {}).get("runs") \
                or []:
            out.setdefault(_key(run), []).append(run)
    return out


@dataclass
class Verdict:
    test: str
    disk: str
    verdict: str
    reference: str
    other: str
    first: dict                       # {variant: first run's status}
    passed: dict = field(default_factory=dict)   # {variant: passes}
    runs: dict = field(default_factory=dict)     # {variant: reruns}
    reason: str = None                # why it fails on both / was not rerun

    def counts(self):
        """"stock 5/5, patched 4/5 passed", or None without reruns."""
        if not any(self.runs.values()):
            return None
        return ", ".join(f"{v} {self.passed.get(v, 0)}/{self.runs.get(v, 0)}"
                         for v in (self.reference, self.other)) + " passed"

    def summary(self):
        """Counts, verdict and why: "stock 5/5, patched 4/5 passed: flaky"."""
        text = ""
        counts = self.counts()
        if counts:
            text += counts
            firsts = [v for v in (self.reference, self.other)
                      if self.first.get(v) == "failed"
                      and self.passed.get(v) == self.runs.get(v)]
            if self.verdict == "flaky" and firsts:
                text += ", first run failed on " + " and ".join(firsts)
            text += ": "
        text += self.verdict
        return text + (f" ({self.reason})" if self.reason else "")

    def line(self):
        """One line for people: test, disk, then summary()."""
        return self.test + (f" on {self.disk}" if self.disk else "") + \
            ": " + self.summary()


def judged(first):
    """Whether a test with these first statuses gets reruns and a verdict."""
    statuses = list(first.values())
    return "failed" in statuses or len(set(statuses)) > 1


def _one_status(statuses):
    return statuses[0] if len(set(statuses)) == 1 else None


def _reason(entries):
    reasons = sorted({e.get("reason") for e in entries
                      if e.get("status") == "failed" and e.get("reason")})
    return ", ".join(reasons) or None


def _why_not_rerun(docs, variant):
    runs = [(_section(d) or {}).get("reruns") for d in docs]
    stopped = [r["stopped"] for r in runs if r and r.get("stopped")]
    if stopped:
        return f"{variant}: {stopped[-1]}"
    if not any(r and r.get("requested") for r in runs):
        return f"{variant}: reruns off (plan.blktests.reruns)"
    return f"{variant}: no second boot ran it"


def verdict_of(key, first, runs, docs, reference, other):
    """The Verdict of one (test, disk)."""
    v = Verdict(key[0], key[1], "pass", reference, other,
                {k: (e or {}).get("status") for k, e in first.items()})
    if not judged(v.first):
        v.verdict = "pass" if v.first[reference] == "passed" else \
            (v.first[reference] or "missing")
        return v
    statuses = {}
    for variant in (reference, other):
        mine = runs[variant]
        v.runs[variant] = len(mine)
        v.passed[variant] = sum(1 for r in mine if r.get("status") == "passed")
        statuses[variant] = [r.get("status") for r in mine]
    missing = [x for x in (reference, other) if not statuses[x]]
    if missing:
        v.verdict = "not rerun"
        v.reason = "; ".join(_why_not_rerun(docs[x], x) for x in missing)
        return v
    # A kernel's first run counts toward "mixed" where the test ran then.
    every = {x: statuses[x] + ([v.first[x]] if v.first[x] else [])
             for x in (reference, other)}
    ref, new = _one_status(every[reference]), _one_status(every[other])
    if ref is None or new is None:
        v.verdict = "flaky"
    elif (ref, new) == ("passed", "failed"):
        v.verdict = "regression"
    elif (ref, new) == ("failed", "passed"):
        v.verdict = "fixed"
    elif (ref, new) == ("failed", "failed"):
        v.verdict = "fails on both"
        v.reason = _reason(runs[reference] + runs[other]
                           + [e for e in first.values() if e])
    else:
        v.verdict = "not run"
        v.reason = "; ".join(
            f"{x}: {_reason_any(runs[x])}" for x in (reference, other)
            if every[x][0] == "not run")
    return v


def _reason_any(entries):
    return next((e["reason"] for e in entries if e.get("reason")), "not run")


def judge(docs, reference, other):
    """[Verdict] of every test; docs: {variant: [results.json document,
    ...]}, the main run first, then its second boots."""
    firsts = {x: first_runs(docs[x][0] if docs[x] else None)
              for x in (reference, other)}
    again = {x: reruns(docs[x]) for x in (reference, other)}
    keys = sorted(set(firsts[reference]) | set(firsts[other]))
    return [verdict_of(k, {x: firsts[x].get(k) for x in (reference, other)},
                       {x: again[x].get(k, []) for x in (reference, other)},
                       docs, reference, other) for k in keys]


def pending(docs, reference, other):
    """{variant: [test, ...]}: the tests a second boot of that kernel must
    run again, judged tests with no reruns there, where reruns are on."""
    out = {}
    for v in judge(docs, reference, other):
        if v.verdict != "not rerun":
            continue
        for x in (reference, other):
            asked = any(((_section(d) or {}).get("reruns") or {})
                        .get("requested") for d in docs[x])
            if asked and not v.runs.get(x):
                out.setdefault(x, set()).add(v.test)
    return {x: sorted(tests) for x, tests in out.items()}
