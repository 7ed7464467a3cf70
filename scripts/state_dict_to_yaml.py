#!/usr/bin/python3
"""Writes a PyTorch state_dict as a d2s weights file (docs/files.md, "Weights").

    /usr/bin/python3 scripts/state_dict_to_yaml.py MODEL.pt -o W.yaml
    /usr/bin/python3 scripts/state_dict_to_yaml.py model.py --class Net -o W.yaml [--seed 0]

The first form reads a file saved with `torch.save(model.state_dict(), "MODEL.pt")`
(a whole pickled module saved with `torch.save(model, ...)` works too: its
state_dict is taken). The second imports model.py, builds `Net()` after
`torch.manual_seed(SEED)` and writes its freshly initialised state_dict, so that
d2s runs with exactly the parameters PyTorch would have.

Each entry becomes `{shape: [...], data: [...]}` (float32), with `dtype: int64` for
integer tensors and `dtype: bool` for bool ones; other float dtypes (float64,
float16, bfloat16) are converted to float32, the dtype d2s computes in. Floats are
written with repr(), which reads back to the same float32. Needs PyTorch: run it
with the Python that has it (Debian's python3-torch: /usr/bin/python3).
"""

import argparse
import importlib.util
import os
import sys


def load_state_dict(args, torch):
    if args.source.endswith(".py"):
        if not args.cls:
            raise SystemExit(f"state_dict_to_yaml.py: {args.source} is a program: name the "
                             "model class with --class NAME")
        name = "d2s_weights_" + os.path.splitext(os.path.basename(args.source))[0]
        spec = importlib.util.spec_from_file_location(name, args.source)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        if not hasattr(module, args.cls):
            raise SystemExit(f"state_dict_to_yaml.py: {args.source} defines no '{args.cls}'")
        torch.manual_seed(args.seed)
        return getattr(module, args.cls)().state_dict()
    obj = torch.load(args.source, map_location="cpu")
    if isinstance(obj, torch.nn.Module):
        return obj.state_dict()
    if isinstance(obj, dict) and "state_dict" in obj and isinstance(obj["state_dict"], dict):
        obj = obj["state_dict"]  # a checkpoint that holds the state_dict under that key
    if not isinstance(obj, dict):
        raise SystemExit(f"state_dict_to_yaml.py: {args.source} holds a {type(obj).__name__}, "
                         "not a state_dict (save one with torch.save(model.state_dict(), path))")
    return obj


def entry(t, torch):
    t = t.detach().cpu().contiguous()
    out = {"shape": list(t.shape)}
    if t.dtype == torch.bool:
        out["dtype"] = "bool"
        values = [bool(v) for v in t.reshape(-1).tolist()]
    elif not t.dtype.is_floating_point:
        out["dtype"] = "int64"
        values = [int(v) for v in t.reshape(-1).tolist()]
    else:
        values = [float(v) for v in t.to(torch.float32).reshape(-1).tolist()]
    out["data"] = values
    return out


def yaml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if v != v:
        return ".nan"
    if v in (float("inf"), float("-inf")):
        return ".inf" if v > 0 else "-.inf"
    text = repr(v)
    return text if ("." in text or "e" in text or "n" in text) else text + ".0"


def to_yaml(state, torch):
    lines = []
    for name, t in state.items():
        if not isinstance(t, torch.Tensor):
            raise SystemExit(f"state_dict_to_yaml.py: entry '{name}' is a "
                             f"{type(t).__name__}, not a tensor")
        e = entry(t, torch)
        head = f"{name}: {{shape: {e['shape']}"
        if "dtype" in e:
            head += f", dtype: {e['dtype']}"
        data = ", ".join(yaml_value(v) for v in e["data"])
        lines.append(f"{head}, data: [{data}]}}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="a .pt/.pth file saved with torch.save, or a model .py")
    ap.add_argument("-o", "--output", required=True, help="the weights file to write (.yaml)")
    ap.add_argument("--class", dest="cls", help="the nn.Module class of a .py source")
    ap.add_argument("--seed", type=int, default=0, help="torch.manual_seed before building it")
    args = ap.parse_args()
    if not args.output.endswith((".yaml", ".yml")):
        raise SystemExit("state_dict_to_yaml.py: the output must be a .yaml or .yml file")
    try:
        import torch
    except ImportError:
        raise SystemExit("state_dict_to_yaml.py: cannot import torch; run it with the Python "
                         "that has PyTorch (/usr/bin/python3 with python3-torch)")
    text = to_yaml(load_state_dict(args, torch), torch)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
