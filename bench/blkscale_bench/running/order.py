"""The order of a sweep's runs: topology by topology, every repeat of a
topology's variants back to back, the variants' order reversed on every
other repeat (stock, patched, patched, stock, stock, patched, ...), so
that a host whose speed drifts during a topology's runs slows both
variants alike instead of always the one that runs second."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Planned:
    topology: object         # sweepfile.Topology
    variant: str
    repeat: int              # 1..n


def plan(topologies, variants, repeat):
    out = []
    for topo in topologies:
        for r in range(1, repeat + 1):
            order = variants if r % 2 else list(reversed(variants))
            out += [Planned(topo, v, r) for v in order]
    return out


def out_rel(topology_name, variant, repeat, repeats):
    """A run's directory under the sweep: <topology>/<variant>/ for a
    single repeat (the layout of earlier sweeps), <topology>/<variant>/
    <repeat>/ otherwise."""
    parts = [topology_name, variant]
    if repeats > 1:
        parts.append(str(repeat))
    return "/".join(parts)
