"""trace_noguards mode of parity.py: the plain trace against torch.jit.trace.

PyTorch traces the entry on set 0 with torch.jit.trace and runs that graph on every
set; d2s runs `--mode trace --no-guards --trace-inputs SET0` on every set. Wrong
answers must be the same wrong answers. Scalar (int/float/bool) inputs, which
torch.jit.trace cannot take, are fixed at set 0's values (a trace bakes them), and
Python numbers the entry returns become tensors in the traced function and numbers
again for the comparison (a trace bakes them as constants). Where torch.jit.trace's
graph itself fails on a set (another shape, say), d2s must fail too; the case then
passes, saying why. An entry torch.jit.trace cannot trace because it calls
backward() is compared with PyTorch eager on the traced set and skipped on the
others (nothing to compare with).
"""

import contextlib
import inspect
import io
import warnings

from parity_common import (Mismatch, Skipped, check_d2s_outputs, compare, d2s_outputs,
                           entry_of, expected_outputs, first_lines, import_sample, make_value,
                           run_torch, torch, write_set, write_weights)


class JitTrace:
    """The sample's entry traced by torch.jit.trace on one input set, to run on
    others. Scalar inputs are fixed at the traced set's values and returned Python
    numbers become tensors (torch.jit.trace takes and returns tensors only); run()
    turns those back into numbers, so results compare with d2s's outputs."""

    def __init__(self, path, inputs, set_index, seed):
        kind, name = entry_of(path)
        module = import_sample(path)
        args = {k: make_value(v, k, set_index, seed) for k, v in inputs.items()}
        self.state = None
        self.notes = []
        with contextlib.redirect_stdout(io.StringIO()):
            if kind == "class":
                torch.manual_seed(0)
                model = getattr(module, name)()
                self.state = {k: v.detach().clone() for k, v in model.state_dict().items()}
                params = list(inspect.signature(model.forward).parameters)
                fn = model
            else:
                fn = getattr(module, name)
                params = list(inspect.signature(fn).parameters)
        self.tensor_names = [n for n in params if isinstance(args.get(n), torch.Tensor)]
        fixed = {n: v for n, v in args.items() if n not in self.tensor_names}
        if fixed:
            self.notes.append("scalar inputs fixed at the traced set's values: " +
                              ", ".join(f"{k}={v!r}" for k, v in fixed.items()))
        self.pattern = None  # (returned a tuple, [type of each Python number or None])
        names = self.tensor_names

        def call(*tensors):
            return self._to_tensors(fn(**fixed, **dict(zip(names, tensors))))

        if kind == "class":
            class Traced(torch.nn.Module):
                def __init__(self, m):
                    super().__init__()
                    self.m = m  # its parameters stay parameters of the trace

                def forward(self, *tensors):
                    return call(*tensors)

            target = Traced(model)
        else:
            target = call
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # TracerWarnings: what d2s's guards are for
            self.traced = torch.jit.trace(target, tuple(args[n] for n in names),
                                          check_trace=False)
        if self.pattern and any(self.pattern[1]):
            self.notes.append("returned Python numbers baked as tensor constants")

    def _to_tensors(self, out):
        is_tuple = isinstance(out, tuple)
        items = list(out) if is_tuple else [out]
        types = [type(v) if isinstance(v, (bool, int, float)) else None for v in items]
        if self.pattern is None:
            self.pattern = (is_tuple, types)
        conv = [torch.tensor(v) if t else v for v, t in zip(items, types)]
        return tuple(conv) if is_tuple else conv[0]

    def run(self, inputs, set_index, seed):
        missing = [n for n in self.tensor_names if n not in inputs]
        if missing:
            raise Mismatch(f"the set lacks {', '.join(missing)}, a tensor input of the trace")
        tensors = [make_value(inputs[n], n, set_index, seed) for n in self.tensor_names]
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            out = self.traced(*tensors)
        is_tuple, types = self.pattern
        items = list(out) if is_tuple else [out]
        # torch.jit.trace may hand a 0-d tensor back as a number already.
        back = [t(v.item() if isinstance(v, torch.Tensor) else v) if t else v
                for v, t in zip(items, types)]
        return tuple(back) if is_tuple else back[0]


def torch_error_text(e):
    """One line for an exception of PyTorch: the TorchScript interpreter's errors start
    with boilerplate and end with the message that matters."""
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    if len(lines) > 1 and lines[0].startswith("The following operation failed"):
        return lines[-1]
    return f"{type(e).__name__}: {lines[0] if lines else '(no message)'}"


def noguards_sample(d2s, name, sample, sets, seed, tmp):
    """torch.jit.trace on set 0 against `d2s run --mode trace --no-guards` traced on
    set 0, on every set: yields (set index, None or a Mismatch, a note)."""
    try:
        jt = JitTrace(sample, sets[0], 0, seed)
    except Exception as e:
        if "requires grad as a constant" in str(e):
            # The entry calls backward(): torch.jit.trace would have to bake the
            # gradients as constants and refuses. With no torch.jit.trace graph to
            # compare with, the plain trace must still be right on the set it was
            # traced on; on other sets nothing says what it should give.
            yield from noguards_without_reference(d2s, sample, sets, seed, tmp)
            return
        for i in range(len(sets)):
            yield i, Mismatch(f"torch.jit.trace cannot trace the entry: {type(e).__name__}: "
                              f"{first_lines(str(e), 1)}"), ""
        return
    if jt.notes:
        print(f"NOTE {name}: torch.jit.trace: {'; '.join(jt.notes)}")
    trace_path = write_set(tmp, "trace.yaml", sets[0], 0, seed)
    common = ["--mode", "trace", "--no-guards", "--trace-inputs", trace_path]
    if seed:
        common += ["--seed", str(seed)]
    if jt.state is not None:
        common += ["--weights", write_weights(tmp, jt.state)]
    for i, inputs in enumerate(sets):
        try:
            in_path = write_set(tmp, "inputs.yaml", inputs, i, seed)
            try:
                expected, torch_error = jt.run(inputs, i, seed), None
            except Mismatch:
                raise
            except Exception as e:
                expected, torch_error = None, torch_error_text(e)
            p, outputs = d2s_outputs(d2s, ["run", sample, "--inputs", in_path] + common, tmp)
            if torch_error is not None:
                if outputs is not None:
                    raise Mismatch(f"torch.jit.trace's graph fails on this set ({torch_error}) "
                                   "but d2s's trace gives outputs")
                yield i, None, (f"both fail, comparison skipped: torch.jit.trace's graph: "
                                f"{torch_error}; d2s: {first_lines(p.stderr, 1)}")
                continue
            if outputs is None:
                raise Mismatch(f"d2s exited {p.returncode}: {first_lines(p.stderr)}")
            compare(expected_outputs(expected), outputs, "outputs")
            yield i, None, ""
        except Mismatch as e:
            yield i, e, ""


def noguards_without_reference(d2s, sample, sets, seed, tmp):
    why = ("torch.jit.trace cannot trace the entry (it calls backward(), whose gradients "
           "it refuses to bake as constants)")
    try:
        expected, _, state = run_torch(sample, sets[0], 0, seed)
        trace_path = write_set(tmp, "trace.yaml", sets[0], 0, seed)
        args = ["run", sample, "--inputs", trace_path, "--mode", "trace", "--no-guards",
                "--trace-inputs", trace_path]
        check_d2s_outputs(d2s, args, expected, state, seed, tmp)
        yield 0, None, f"{why}: compared with PyTorch eager on the traced set"
    except Mismatch as e:
        yield 0, e, ""
    for i in range(1, len(sets)):
        yield i, Skipped(f"{why}: no reference for other sets"), ""
