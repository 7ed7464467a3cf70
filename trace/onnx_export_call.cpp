// `torch.onnx.export(model, args, f, ...)` in eager mode (trace/export_hook.h): checks the
// arguments as PyTorch 1.13's signature binds them, puts the model in eval mode (as
// torch.onnx.export's default training=TrainingMode.EVAL does), asks the run's
// ExportHook to write the file, and restores the model's mode with model.train(mode),
// as PyTorch does. Arguments d2s cannot honour are errors at the call's line, not
// silently dropped.
#include <string>
#include <vector>

#include "trace/export_hook.h"
#include "trace/native_value.h"

namespace d2s::interp {

namespace {

constexpr const char* kFn = "torch.onnx.export";

// PyTorch 1.13's parameters, in order.
const char* const kParams[] = {"model",
                               "args",
                               "f",
                               "export_params",
                               "verbose",
                               "training",
                               "input_names",
                               "output_names",
                               "operator_export_type",
                               "opset_version",
                               "do_constant_folding",
                               "dynamic_axes",
                               "keep_initializers_as_inputs",
                               "custom_opsets",
                               "export_modules_as_functions"};
constexpr size_t kNumParams = sizeof(kParams) / sizeof(kParams[0]);

const char* const kSupportedHint =
    "d2s's torch.onnx.export takes model, args, f, input_names, output_names, "
    "opset_version (13 to 17), dynamic_axes, do_constant_folding, export_params=True and "
    "verbose=False (docs/onnx.md)";

struct BoundCall {
  std::vector<IValue> values = std::vector<IValue>(kNumParams);
  std::vector<bool> given = std::vector<bool>(kNumParams, false);
  std::vector<SourceRange> ranges = std::vector<SourceRange>(kNumParams);
};

size_t param_index(const std::string& name) {
  for (size_t i = 0; i < kNumParams; ++i) {
    if (name == kParams[i]) return i;
  }
  return kNumParams;
}

// The range of the call's keyword `name`, or of the call.
SourceRange keyword_range(const ast::Call* site, const std::string& name,
                          const SourceRange& fallback) {
  if (!site) return fallback;
  for (const ast::Keyword& k : site->keywords) {
    if (k.name == name) return k.range;
  }
  return fallback;
}

BoundCall bind(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range,
               const ast::Call* site) {
  BoundCall b;
  if (args.size() > kNumParams) {
    in.fail(std::string("TypeError: ") + kFn + "() takes at most " + std::to_string(kNumParams) +
                " arguments (" + std::to_string(args.size()) + " given)",
            range);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    b.values[i] = std::move(args[i]);
    b.given[i] = true;
    b.ranges[i] = site && i < site->args.size() ? site->args[i]->range : range;
  }
  for (auto& [name, value] : kwargs) {
    const size_t i = param_index(name);
    const SourceRange at = keyword_range(site, name, range);
    if (i == kNumParams) {
      in.fail(
          std::string("TypeError: ") + kFn + "() got an unexpected keyword argument '" + name + "'",
          at, kSupportedHint);
    }
    if (b.given[i]) {
      in.fail(
          std::string("TypeError: ") + kFn + "() got multiple values for argument '" + name + "'",
          at);
    }
    b.values[i] = std::move(value);
    b.given[i] = true;
    b.ranges[i] = at;
  }
  for (size_t i = 0; i < 3; ++i) {
    if (!b.given[i]) {
      in.fail(
          std::string("TypeError: ") + kFn + "() missing required argument '" + kParams[i] + "'",
          range, "torch.onnx.export(model, dummy_input, \"model.onnx\", ...)");
    }
  }
  return b;
}

[[noreturn]] void unsupported(Interpreter& in, const BoundCall& b, size_t i,
                              const std::string& why) {
  in.fail(std::string(kFn) + ": " + kParams[i] + "=" + in.py_repr(b.values[i]) +
              " is not supported by d2s" + (why.empty() ? "" : ": " + why),
          b.ranges[i], kSupportedHint);
}

// A list or tuple of str (input_names / output_names).
std::vector<std::string> names_arg(Interpreter& in, const BoundCall& b, size_t i) {
  std::vector<std::string> out;
  if (!b.given[i] || b.values[i].is_none()) return out;
  const IValue& v = b.values[i];
  if (!v.is_list() && !v.is_tuple()) {
    in.fail(std::string("TypeError: ") + kFn + ": " + kParams[i] + " must be a list of str, not " +
                py_type_name(v),
            b.ranges[i]);
  }
  for (const IValue& item : v.items()) {
    if (!item.is_string()) {
      in.fail(std::string("TypeError: ") + kFn + ": " + kParams[i] +
                  " must be a list of str; it holds a " + py_type_name(item),
              b.ranges[i]);
    }
    out.push_back(item.to_string());
  }
  return out;
}

// dynamic_axes: {name: {dim: label}} or {name: [dim, ...]} (labels then named
// `<name>_dynamic_axes_<k>`, as PyTorch names them). Read through the mapping's own
// items(), so any dict the interpreter has works.
std::map<std::string, std::map<int64_t, std::string>> dynamic_axes_arg(Interpreter& in,
                                                                       const BoundCall& b) {
  const size_t i = param_index("dynamic_axes");
  std::map<std::string, std::map<int64_t, std::string>> out;
  if (!b.given[i] || b.values[i].is_none()) return out;
  const SourceRange& at = b.ranges[i];
  auto items_of = [&](const IValue& mapping, const std::string& what) {
    if (!mapping.is_object()) {
      in.fail(std::string("TypeError: ") + kFn + ": " + what + " must be a dict, not " +
                  py_type_name(mapping),
              at, "dynamic_axes={'input': {0: 'batch_size'}}");
    }
    IValue items = in.call_value(in.getattr(mapping, "items", at), {}, {}, at);
    return in.iterate(items, at);
  };
  for (const IValue& entry : items_of(b.values[i], "dynamic_axes")) {
    if (!entry.is_tuple() || entry.tuple_items().size() != 2 ||
        !entry.tuple_items()[0].is_string()) {
      in.fail(std::string("TypeError: ") + kFn + ": dynamic_axes' keys must be input names (str)",
              at);
    }
    const std::string& name = entry.tuple_items()[0].to_string();
    const IValue& axes = entry.tuple_items()[1];
    std::map<int64_t, std::string>& dims = out[name];
    if (axes.is_list() || axes.is_tuple()) {
      int k = 0;
      for (const IValue& d : axes.items()) {
        if (!d.is_int()) {
          in.fail(std::string("TypeError: ") + kFn + ": dynamic_axes['" + name +
                      "'] must list dims (int)",
                  at);
        }
        dims[d.to_int()] = name + "_dynamic_axes_" + std::to_string(++k);
      }
      continue;
    }
    for (const IValue& dim : items_of(axes, "dynamic_axes['" + name + "']")) {
      if (!dim.is_tuple() || dim.tuple_items().size() != 2 || !dim.tuple_items()[0].is_int() ||
          !dim.tuple_items()[1].is_string()) {
        in.fail(std::string("TypeError: ") + kFn + ": dynamic_axes['" + name +
                    "'] must map dims (int) to labels (str)",
                at, "dynamic_axes={'input': {0: 'batch_size'}}");
      }
      dims[dim.tuple_items()[0].to_int()] = dim.tuple_items()[1].to_string();
    }
  }
  return out;
}

// The options PyTorch has that d2s does not honour must be left at their defaults.
void check_defaults(Interpreter& in, const BoundCall& b) {
  auto at = [&](const char* name) { return param_index(name); };
  if (size_t i = at("export_params");
      b.given[i] && !(b.values[i].is_bool() && b.values[i].to_bool()))
    unsupported(in, b, i, "d2s always writes the parameters as initializers");
  if (size_t i = at("verbose"); b.given[i] && !(b.values[i].is_bool() && !b.values[i].to_bool()))
    unsupported(in, b, i, "d2s prints no export log");
  if (size_t i = at("do_constant_folding"); b.given[i] && !b.values[i].is_bool())
    unsupported(in, b, i, "a bool is expected");
  const std::pair<const char*, const char*> left_default[] = {
      {"training", "d2s exports in eval mode (the default, TrainingMode.EVAL)"},
      {"operator_export_type", "d2s writes ONNX's standard ops only"},
      {"keep_initializers_as_inputs", "d2s writes the parameters as initializers only"},
      {"custom_opsets", "d2s writes ONNX's standard ops only"}};
  for (const auto& [name, why] : left_default) {
    const size_t i = at(name);
    if (b.given[i] && !b.values[i].is_none()) unsupported(in, b, i, why);
  }
  if (size_t i = at("export_modules_as_functions");
      b.given[i] && !(b.values[i].is_bool() && !b.values[i].to_bool()))
    unsupported(in, b, i, "d2s inlines submodules into one graph");
}

}  // namespace

IValue onnx_export_call(Interpreter& in, ExportHook* hook, ValueList args, Kwargs kwargs,
                        const SourceRange& range, const ast::Call* site) {
  BoundCall b = bind(in, std::move(args), std::move(kwargs), range, site);
  if (!hook) {
    in.fail(
        std::string(kFn) + " writes a file only when the program runs in `d2s run` (eager mode)",
        range, "run the program with d2s run, or export with d2s export MODEL.py");
  }
  // The model: a module class of the program (its forward is lowered by the parse route).
  auto* m = as_obj<InstanceValue>(b.values[0]);
  if (!m || !m->is_module || !m->cls) {
    in.fail(std::string("TypeError: ") + kFn + " exports an nn.Module of the program; got " +
                (m && m->is_module ? "the built-in module '" + m->type + "'"
                                   : "a " + py_type_name(b.values[0])),
            b.ranges[0], "pass an instance of a class derived from nn.Module");
  }
  const IValue* fwd = m->cls->lookup("forward");
  auto* fn = fwd ? as_obj<FunctionValue>(*fwd) : nullptr;
  if (!fn) in.fail(std::string(kFn) + ": '" + m->type + "' has no forward method", b.ranges[0]);

  ExportRequest req;
  req.module = &in.module();
  req.file = fn->def->range.file;
  req.forward = fn->def;
  req.self = std::static_pointer_cast<InstanceValue>(b.values[0].to_object());
  req.name = m->type + ".forward";
  req.site = range;
  // args: a tensor or a tuple of tensors.
  const IValue& example = b.values[1];
  if (example.is_tensor()) {
    req.args.push_back(example);
  } else if (example.is_tuple()) {
    req.args = example.tuple_items();
  } else {
    in.fail(std::string("TypeError: ") + kFn +
                ": args must be a tensor or a tuple of tensors, not " + py_type_name(example),
            b.ranges[1]);
  }
  for (size_t i = 0; i < req.args.size(); ++i) {
    if (!req.args[i].is_tensor()) {
      in.fail(std::string(kFn) + ": example input " + std::to_string(i + 1) + " is a " +
                  py_type_name(req.args[i]) + "; d2s exports tensor inputs only",
              b.ranges[1], "pass the example inputs as a tensor or a tuple of tensors");
    }
  }
  if (!b.values[2].is_string()) {
    in.fail(std::string("TypeError: ") + kFn + ": f must be a file name (str), not " +
                py_type_name(b.values[2]),
            b.ranges[2], "d2s writes the model to a path, e.g. \"model.onnx\"");
  }
  req.path = b.values[2].to_string();
  check_defaults(in, b);
  req.input_names = names_arg(in, b, param_index("input_names"));
  req.output_names = names_arg(in, b, param_index("output_names"));
  if (req.input_names.size() > req.args.size()) {
    in.fail(std::string(kFn) + ": " + std::to_string(req.input_names.size()) + " input_names for " +
                std::to_string(req.args.size()) + " example input(s)",
            b.ranges[param_index("input_names")], "name the model's inputs, one name each");
  }
  if (size_t i = param_index("opset_version"); b.given[i] && !b.values[i].is_none()) {
    if (!b.values[i].is_int() || b.values[i].to_int() < 13 || b.values[i].to_int() > 17)
      unsupported(in, b, i, "d2s writes opsets 13 to 17");
    req.opset = static_cast<int>(b.values[i].to_int());
  }
  req.dynamic_axes = dynamic_axes_arg(in, b);

  // Exported in eval mode, then model.train(mode) as torch.onnx.export restores it.
  const IValue* t = m->get("training");
  const bool was_training = !t || !t->is_bool() || t->to_bool();
  in.set_training(*m, false);
  try {
    hook->export_model(req);
  } catch (const Error& e) {
    in.set_training(*m, was_training);
    if (e.range().known()) throw;
    throw Error(std::string(kFn) + ": " + e.message(), range, e.hint(), e.exit_code());
  }
  in.set_training(*m, was_training);
  return IValue();
}

}  // namespace d2s::interp
