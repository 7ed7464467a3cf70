"""--structure of parity.py: control flow of parsed graphs against torch.jit.script.

For every sample, the number of prim::If and prim::Loop nodes (nested ones included)
in `d2s parse`'s graph against torch.jit.script's graph of the same entry (a class:
the scripted instance's forward), counted with `graph.findAllNodes(kind,
recurse=True)`. Two documented rules of d2s's are applied to TorchScript's graph
first (torch_structure says how): branches on `self.training` are decided as
freezing does, and Ifs that only merge control flags (break/continue/return exit
flags, `c ? True : False`) are not counted. Any other difference fails the sample;
the table at the end shows both counts.
"""

import contextlib
import io
import os
import sys
import tempfile
import warnings

from parity_common import (Mismatch, entry_of, first_lines, import_sample, load_yaml,
                           print_fail, run_d2s, samples_in, torch)


CONTROL_KINDS = ("prim::If", "prim::Loop")


def count_yaml_nodes(nodes, counts):
    """Counts control-flow kinds in an IR file's node list, nested blocks included
    (an explicit stack: nesting depth is the file's business, not Python's)."""
    stack = [nodes or []]
    while stack:
        for node in stack.pop():
            if node.get("kind") in counts:
                counts[node["kind"]] += 1
            for block in node.get("blocks") or []:
                stack.append(block.get("nodes") or [])


def d2s_structure(d2s, sample, tmp):
    graph = os.path.join(tmp, "parsed.yaml")
    p = run_d2s(d2s, ["parse", sample, "-o", graph], tmp)
    if p.returncode != 0:
        raise Mismatch(f"d2s parse exited {p.returncode}: {first_lines(p.stderr)}")
    counts = dict.fromkeys(CONTROL_KINDS, 0)
    count_yaml_nodes(load_yaml(graph).get("nodes"), counts)
    return counts


def torch_structure(sample):
    """torch.jit.script's counts for the sample's entry, made comparable with d2s's:
    (counts, notes). Two differences are expected, each by a rule of d2s's, and
    normalised here rather than skipped:

    - `self.training` (contract §2): d2s decides branches on module attributes at
      conversion time, as freezing a module does. TorchScript's graph gets the same
      treatment: each `prim::GetAttr[name="training"]` becomes the module's value (a
      new module trains, as in the parity runs) and TorchScript's own constant
      propagation folds the Ifs on it.
    - flag Ifs: Ifs whose arms run no op and only merge control flags. TorchScript's
      exit transform makes them for break/continue/return (a flag in each arm, the
      values of the arm that exits `prim::Uninitialized`, and an If on such a flag to
      pick which arm's values go on), and `a and b` makes one where b is a constant
      (`c ? True : False`). d2s carries the same flags as values of the enclosing If
      or Loop and folds `c ? True : False` to c (docs/ir.md), so it has no If there.
      They are not counted; Ifs that choose between ops or between values are.
    """
    kind, name = entry_of(sample)
    module = import_sample(sample)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        if kind == "class":
            torch.manual_seed(0)
            instance = getattr(module, name)()
            scripted = torch.jit.script(instance)
        else:
            instance = None
            scripted = torch.jit.script(getattr(module, name))
    graph = scripted.graph.copy()  # a scripted module's is its forward's
    notes = []
    if instance is not None:
        folded = fold_training(graph, instance.training)
        if folded:
            notes.append(f"{folded} If(s) on self.training decided as d2s does "
                         f"(training={instance.training})")
    counts = dict.fromkeys(CONTROL_KINDS, 0)
    flags = 0
    for k in CONTROL_KINDS:
        for node in graph.findAllNodes(k, recurse=True):
            if k == "prim::If" and is_flag_if(node):
                flags += 1
            else:
                counts[k] += 1
    if flags:
        notes.append(f"{flags} flag If(s) of break/continue/return or a constant `and`/`or` "
                     "not counted")
    return counts, notes


def fold_training(graph, training):
    """Replaces every read of `training` by the constant and runs TorchScript's constant
    propagation; returns how many prim::If nodes that removed."""
    before = len(graph.findAllNodes("prim::If", recurse=True))
    reads = [n for n in graph.findAllNodes("prim::GetAttr", recurse=True)
             if n.s("name") == "training"]
    if not reads:
        return 0
    for node in reads:
        constant = graph.insertConstant(bool(training))
        constant.node().moveBefore(node)
        node.output().replaceAllUsesWith(constant)
        node.destroy()
    torch._C._jit_pass_constant_propagation(graph)
    return before - len(graph.findAllNodes("prim::If", recurse=True))


def is_flag_if(node):
    """Whether a TorchScript prim::If only merges control flags (see torch_structure):
    its arms run no op, and it tests another If's flag, or an arm yields
    prim::Uninitialized, or every output is a constant bool."""
    blocks = list(node.blocks())
    if any(n.kind() != "prim::Constant" for b in blocks for n in b.nodes()):
        return False
    if node.inputsAt(0).node().kind() == "prim::If":
        return True
    outs = [v for b in blocks for v in b.outputs()]
    if any(v.node().kind() == "prim::Uninitialized" for v in outs):
        return True
    return bool(outs) and all(v.node().kind() == "prim::Constant" and str(v.type()) == "bool"
                              for v in outs)


def structure(args):
    passed = failed = 0
    rows = []
    for name in samples_in(args.samples, args.only):
        sample = os.path.join(args.samples, name + ".py")
        mine = theirs = None
        try:
            with tempfile.TemporaryDirectory(prefix="d2s-structure-") as tmp:
                mine = d2s_structure(args.d2s, sample, tmp)
            try:
                theirs, notes = torch_structure(sample)
            except Exception as e:
                raise Mismatch(f"torch.jit.script cannot compile it: {type(e).__name__}: "
                               f"{first_lines(str(e), 1)}")
            why = f" (TorchScript: {'; '.join(notes)})" if notes else ""
            diffs = [f"{k}: d2s {mine[k]}, TorchScript {theirs[k]}"
                     for k in CONTROL_KINDS if mine[k] != theirs[k]]
            if diffs:
                raise Mismatch("; ".join(diffs) + why)
            print(f"PASS {name}: " + ", ".join(f"{mine[k]} {k}" for k in CONTROL_KINDS) + why)
            passed += 1
        except Exception as e:  # a Mismatch, PyTorch or the suite itself
            print_fail(name, e)
            failed += 1
        rows.append((name, mine, theirs))
        sys.stdout.flush()

    def cell(counts, k):
        return "-" if counts is None else str(counts[k])

    print()
    print(f"{'sample':<18} {'If d2s':>7} {'If TS':>6} {'Loop d2s':>9} {'Loop TS':>8}")
    for name, mine, theirs in rows:
        flag = "" if mine is not None and mine == theirs else "  <- differs"
        print(f"{name:<18} {cell(mine, 'prim::If'):>7} {cell(theirs, 'prim::If'):>6} "
              f"{cell(mine, 'prim::Loop'):>9} {cell(theirs, 'prim::Loop'):>8}{flag}")
    print()
    return passed, failed
