// GraphRunner: binding named inputs and parameters to a graph's inputs, then the
// executor (run_graph.h).
#include "convert/run_graph.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/base/error.h"
#include "core/base/text.h"

namespace d2s::convert {

namespace {

// What a value is, for messages: "a float32 tensor of shape [2, 3]", "the int 3".
std::string describe(const IValue& v) {
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    return std::string("a ") + dtype_name(t.dtype()) + " tensor of shape " + shape_str(t.shape());
  }
  if (v.is_bool() || v.is_int() || v.is_double()) return "the " + v.type_name() + " " + v.repr();
  if (v.is_none()) return "null";
  return "a " + v.type_name();
}

// An example of a value of `type` in the inputs syntax, for hints.
std::string example_value(const ir::Type& type) {
  switch (type.kind) {
    case ir::TypeKind::Int:
      return "3";
    case ir::TypeKind::Float:
      return "0.5";
    case ir::TypeKind::Bool:
      return "true";
    case ir::TypeKind::Optional:
      return type.elements.empty() ? "null" : example_value(type.elements[0]);
    case ir::TypeKind::List:
      // A list in the inputs syntax (docs/files.md): two items of the element type.
      if (type.elements.empty()) return "[]";
      return "[" + example_value(type.elements[0]) + ", " + example_value(type.elements[0]) + "]";
    case ir::TypeKind::Tuple: {
      std::string out = "[";
      for (size_t i = 0; i < type.elements.size(); ++i) {
        out += (i ? ", " : "") + example_value(type.elements[i]);
      }
      return out + "]";
    }
    default:
      break;
  }
  std::string shape = "[...]";
  if (type.is_tensor() && type.shape) {
    shape = "[";
    for (size_t i = 0; i < type.shape->size(); ++i) {
      const ir::Dim& d = (*type.shape)[i];
      shape += (i ? ", " : "") + (d.is_known() ? std::to_string(d.size) : std::string("N"));
    }
    shape += "]";
  }
  std::string dtype;
  if (type.is_tensor() && type.dtype && *type.dtype != DType::Float32) {
    dtype = std::string(", dtype: ") + dtype_name(*type.dtype);
  }
  return "{shape: " + shape + dtype + ", data: [...]}";
}

std::string example_of(const std::string& name, const ir::Type& type) {
  return name + ": " + example_value(type);
}

// The entry's name in the source for `graph.entry`: a class's forward is run by
// naming the class.
std::string entry_name(const std::string& graph_entry) {
  const std::string suffix = ".forward";
  if (graph_entry.size() > suffix.size() &&
      graph_entry.compare(graph_entry.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return graph_entry.substr(0, graph_entry.size() - suffix.size());
  }
  return graph_entry;
}

// True when the shape `s` fits the declared type's shape (unknown rank or dims and
// symbols match anything).
bool shape_fits(const ir::Type& type, const Shape& s) {
  if (!type.shape) return true;
  if (type.shape->size() != s.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const ir::Dim& d = (*type.shape)[i];
    if (d.is_known() && d.size != s[i]) return false;
  }
  return true;
}

SourceRange key_point(const SourceRange& range) {
  SourceRange r = range;
  r.len = 1;
  return r;
}

}  // namespace

GraphRunner::GraphRunner(const ir::Graph& graph, GraphRunOptions options)
    : options_(std::move(options)), route_(graph.route) {
  entry_label_ = "'" + (graph.entry.empty() ? std::string("?") : graph.entry) + "'";
  resolve_entry(graph);
  resolve_parameters(graph);
  generator_ = std::make_unique<Generator>(options_.seed);
  ExecOptions exec;
  exec.generator = generator_.get();
  exec.training = options_.training;
  exec.out = options_.out;
  exec.max_loop_iterations = options_.max_loop_iterations;
  executor_ = std::make_unique<Executor>(graph, exec);
}

GraphRunner::~GraphRunner() = default;

void GraphRunner::resolve_entry(const ir::Graph& graph) {
  // The source program tells which inputs are the entry's arguments (with their
  // defaults) and which are module parameters. A graph file whose program is gone
  // or no longer has the entry still runs when every input is given.
  if (graph.source && !graph.entry.empty()) {
    try {
      program_ = std::make_shared<Program>(Program::from_source(graph.source));
      entry_ = program_->entry(entry_name(graph.entry));
    } catch (const Error&) {
      program_.reset();
      entry_.reset();
    }
  }
  std::set<std::string> weight_names;
  for (const auto& w : options_.weights) weight_names.insert(w.name);
  for (const auto& p : options_.parameters) weight_names.insert(p.first);
  for (const ir::Value* in : graph.inputs()) {
    Slot slot;
    slot.name = in->debug_name();
    slot.type = in->type();
    if (entry_) {
      auto it = std::find_if(entry_->params.begin(), entry_->params.end(),
                             [&](const EntryParam& p) { return p.name == slot.name; });
      slot.role = it == entry_->params.end() ? Role::Parameter : Role::Argument;
      if (it != entry_->params.end()) slot.default_value = it->default_value;
    } else {
      // Without the program: what the weights name, and what no Python parameter can
      // be called (`lin.weight`), are module parameters.
      bool param = weight_names.count(slot.name) || slot.name.find('.') != std::string::npos;
      slot.role = param ? Role::Parameter : Role::Argument;
    }
    slots_.push_back(std::move(slot));
  }
}

void GraphRunner::resolve_parameters(const ir::Graph& graph) {
  std::vector<std::string> names;
  for (Slot& s : slots_) {
    if (s.role != Role::Parameter) continue;
    s.param = params_.size();
    params_.emplace_back(s.name, Tensor());
    names.push_back(s.name);
  }
  auto check_shape = [&](const Slot& s, const Tensor& t, const SourceRange& where) {
    if (!s.type.is_tensor() || !shape_fits(s.type, t.shape()) ||
        (s.type.dtype && *s.type.dtype != t.dtype())) {
      throw Error("weight '" + s.name + "' is " + describe(IValue(t)) +
                      " but the graph's parameter is " + s.type.str(),
                  where, "give the parameter's shape (as load_state_dict requires)");
    }
  };

  if (!options_.weights.empty()) {
    // As load_state_dict(strict=True): every weight names a parameter, and every
    // parameter is given.
    for (const NamedTensor& w : options_.weights) {
      auto it = std::find(names.begin(), names.end(), w.name);
      if (it == names.end()) {
        throw Error("'" + w.name + "' is not a parameter of the graph " + entry_label_, w.range,
                    did_you_mean(w.name, names) +
                        (names.empty() ? "the graph takes no parameters"
                                       : "its parameters are: " + join_names(names)));
      }
      const Slot& s = *std::find_if(slots_.begin(), slots_.end(),
                                    [&](const Slot& x) { return x.name == w.name; });
      check_shape(s, w.tensor, w.range);
      params_[s.param].second = w.tensor;
    }
    for (const auto& [name, t] : params_) {
      if (t.defined()) continue;
      SourceRange where = options_.weights[0].range;
      where.line = 0;  // the whole file: "w.yaml: error: ..."
      const Slot& s = *std::find_if(slots_.begin(), slots_.end(),
                                    [&n = name](const Slot& x) { return x.name == n; });
      throw Error("the weights file lacks parameter '" + name + "' (" + s.type.str() + ")", where,
                  "a weights file names every parameter, as load_state_dict(strict=True); "
                  "d2s run --dump-weights W.yaml writes a complete one");
    }
    return;
  }
  if (params_.empty()) return;

  std::vector<std::pair<std::string, Tensor>> known = options_.parameters;
  if (known.empty() && program_ && entry_ && entry_->kind == EntryInfo::Kind::Class) {
    // Exactly as `d2s run MODEL.py` initialises them: same seed, same training flag;
    // what __init__ prints is not part of the graph's run.
    RunOptions run;
    run.entry = entry_->name;
    run.seed = options_.seed;
    run.training = options_.training;
    std::ostringstream discard;
    run.out = &discard;
    program_->prepare(run);
    known = program_->parameters();
  }
  for (const Slot& s : slots_) {
    if (s.role != Role::Parameter) continue;
    auto it = std::find_if(known.begin(), known.end(),
                           [&](const auto& kv) { return kv.first == s.name; });
    if (it == known.end()) {
      if (!entry_) {
        std::string why = graph.source ? "its program '" + graph.source->path() +
                                             "' cannot be read or lacks the entry"
                                       : "the graph names no program";
        throw Error("the graph " + entry_label_ + " takes a parameter '" + s.name + "' (" +
                        s.type.str() + ") and " + why + ", so its parameters cannot be initialised",
                    SourceRange(), "give every parameter with --weights W.yaml");
      }
      const std::string what =
          ") that is neither an argument of its entry nor a parameter of "
          "its module in ";
      throw Error("the graph " + entry_label_ + " takes an input '" + s.name + "' (" +
                      s.type.str() + what + graph.source->path(),
                  SourceRange(),
                  "give the parameter with --weights W.yaml, or convert the program again if "
                  "it changed since the graph was written");
    }
    if (!s.type.is_tensor() || !shape_fits(s.type, it->second.shape())) {
      throw Error("the module's parameter '" + s.name + "' is " + describe(IValue(it->second)) +
                      " but the graph takes " + s.type.str(),
                  SourceRange(),
                  "the program changed since the graph was written: convert it again, or "
                  "give --weights");
    }
    params_[s.param].second = it->second;
  }
}

std::string GraphRunner::slot_label(const Slot& slot) const {
  return "'" + slot.name + "' (" + slot.type.str() + ")";
}

IValue GraphRunner::bind_argument(const Slot& slot, const NamedInput& given) const {
  const IValue& v = given.value;
  const ir::Type& type = slot.type;
  const bool unannotated =
      route_ == "parse" && entry_ &&
      std::any_of(entry_->params.begin(), entry_->params.end(),
                  [&](const EntryParam& p) { return p.name == slot.name && p.annotation.empty(); });
  auto mismatch = [&](const std::string& why) {
    // An unannotated parameter of another type than Tensor took it from the first
    // input set (convert/lower.cpp input_type): this set gives another kind.
    const std::string typed_from_inputs =
        unannotated && type.kind != ir::TypeKind::Tensor
            ? ": the parse route typed the unannotated parameter from the first input set; "
              "give every set the same kind of value, or annotate it"
            : "";
    return Error("input " + slot_label(slot) + " of the graph " + entry_label_ + " is given " +
                     describe(v) + (why.empty() ? "" : ": " + why),
                 key_point(given.range),
                 "give `" + example_of(slot.name, type) + "`" + typed_from_inputs);
  };
  switch (type.kind) {
    case ir::TypeKind::Tensor: {
      if (!v.is_tensor()) {
        // An unannotated parameter is a Tensor, as in TorchScript, unless the first input
        // set gave it another kind: a number, a list or null given to one in a later set
        // (or to a graph file's) usually means that its annotation is missing.
        const std::string annotated = v.is_none()     ? slot.name + "=None"
                                      : v.is_list()   ? slot.name + ": List[float]"
                                      : v.is_bool()   ? slot.name + ": bool"
                                      : v.is_double() ? slot.name + ": float"
                                      : v.is_int()    ? slot.name + ": int"
                                                      : std::string();
        if (unannotated && !annotated.empty()) {
          throw Error("input " + slot_label(slot) + " of the graph " + entry_label_ + " is given " +
                          describe(v) + ": it takes a tensor",
                      key_point(given.range),
                      "give `" + example_of(slot.name, type) + "`, or annotate the parameter (`" +
                          annotated +
                          "`): the parse route takes an unannotated parameter for a Tensor, as "
                          "torch.jit.script does, unless the first input set gives it another "
                          "kind");
        }
        throw mismatch("it takes a tensor");
      }
      const Tensor& t = v.to_tensor();
      // A parsed graph's Tensor takes any dtype, as TorchScript's does: its kernels
      // decide per call, and its types are those of the example it was specialised
      // for. A trace recorded the ops one dtype took, so it keeps that dtype.
      if (route_ == "trace" && type.dtype && *type.dtype != t.dtype()) {
        throw mismatch(std::string("it takes ") + dtype_name(*type.dtype) + " elements");
      }
      // A trace's shapes are its guards' business (exit 1), or nobody's under
      // --no-guards; a parsed graph states what it accepts.
      if (route_ != "trace" && !shape_fits(type, t.shape())) {
        throw mismatch("the shape does not fit");
      }
      return IValue(t.clone());
    }
    case ir::TypeKind::Int:
      if (v.is_int()) return v;
      if (v.is_bool()) return IValue(v.to_int());
      throw mismatch("it takes an int");
    case ir::TypeKind::Float:
      if (v.is_double()) return v;
      if (v.is_int() || v.is_bool()) return IValue(v.to_double());
      throw mismatch("it takes a float");
    case ir::TypeKind::Bool:
      if (v.is_bool()) return v;
      throw mismatch("it takes a bool (true or false)");
    case ir::TypeKind::Optional: {
      // null, or a value of the element type.
      if (v.is_none() || type.elements.empty()) return v;
      Slot element = slot;
      element.type = type.elements[0];
      return bind_argument(element, given);
    }
    case ir::TypeKind::List:
    case ir::TypeKind::Tuple: {
      // A list of the inputs file (docs/files.md), item by item: a fresh list, so
      // that a graph appending to it leaves the input set as it was; a tuple of a
      // fixed length from a list of that length.
      const bool is_list = type.kind == ir::TypeKind::List;
      const std::string tuple_form =
          "it takes a list of " + std::to_string(type.elements.size()) + " items (a tuple)";
      if (!v.is_list() && !v.is_tuple()) throw mismatch(is_list ? "it takes a list" : tuple_form);
      const ValueList& items = v.items();
      if (!is_list && items.size() != type.elements.size()) throw mismatch(tuple_form);
      ValueList bound;
      for (size_t i = 0; i < items.size(); ++i) {
        Slot item = slot;
        item.name = slot.name + "[" + std::to_string(i) + "]";
        item.type = is_list ? (type.elements.empty() ? ir::Type::any() : type.elements[0])
                            : type.elements[i];
        try {
          bound.push_back(bind_argument(item, NamedInput{item.name, items[i], false, given.range}));
        } catch (const Error& e) {
          // The item's message; the hint shows the whole parameter.
          throw Error(e.message(), e.range(), "give `" + example_of(slot.name, type) + "`");
        }
      }
      return is_list ? IValue::list(std::move(bound)) : IValue::tuple(std::move(bound));
    }
    default:
      return v.is_tensor() ? IValue(v.to_tensor().clone()) : v;
  }
}

IValue GraphRunner::run(const InputSet& set) {
  std::vector<std::string> arg_names;
  for (const Slot& s : slots_) {
    if (s.role == Role::Argument) arg_names.push_back(s.name);
  }
  for (const NamedInput& in : set.values) {
    auto it = std::find_if(slots_.begin(), slots_.end(),
                           [&](const Slot& s) { return s.name == in.name; });
    if (it != slots_.end() && it->role == Role::Argument) continue;
    if (it != slots_.end()) {
      throw Error("'" + in.name + "' is a parameter of the module, not an input of the entry",
                  key_point(in.range), "give parameters with --weights W.yaml");
    }
    bool baked = entry_ && std::any_of(entry_->params.begin(), entry_->params.end(),
                                       [&](const EntryParam& p) { return p.name == in.name; });
    if (baked) continue;
    std::vector<std::string> missing;
    for (const auto& n : arg_names) {
      if (!set.find(n)) missing.push_back(n);
    }
    std::string near = did_you_mean(in.name, missing);
    throw Error("'" + in.name + "' is not an input of the graph " + entry_label_,
                key_point(in.range),
                (near.empty() ? did_you_mean(in.name, arg_names) : near) +
                    (arg_names.empty() ? "the graph takes no inputs"
                                       : "its inputs are: " + join_names(arg_names)));
  }

  ValueList values;
  grad_leaves_.clear();
  // A graph that calls backward() tapes as eager mode does (the inputs the file
  // marks and the parameters require grad); --grad also reports the leaves.
  auto mark = [&](const std::string& name) {
    Tensor t = values.back().is_tensor() ? values.back().to_tensor() : Tensor();
    if (!(options_.grad || executor_->calls_backward()) || !t.defined() ||
        t.dtype() != DType::Float32) {
      return;
    }
    t.set_requires_grad(true);
    if (options_.grad) grad_leaves_.emplace_back(name, t);
  };
  for (const Slot& s : slots_) {
    if (s.role == Role::Parameter) {
      values.push_back(IValue(params_[s.param].second.clone()));
      mark(s.name);
      continue;
    }
    if (const NamedInput* in = set.find(s.name)) {
      values.push_back(bind_argument(s, *in));
      if (in->requires_grad) mark(s.name);
    } else if (s.default_value) {
      values.push_back(bind_argument(s, NamedInput{s.name, *s.default_value, false, {}}));
    } else {
      std::string example = example_of(s.name, s.type);
      SourceRange where = key_point(set.range);
      if (!where.file) where = SourceRange();
      throw Error("this input set has no '" + s.name + "', input " + slot_label(s) +
                      " of the graph " + entry_label_,
                  where,
                  options_.inputs_path.empty()
                      ? "give --inputs IN.yaml holding `" + example + "`"
                      : "add `" + example + "` to " + options_.inputs_path);
    }
  }

  *generator_ = Generator(options_.seed);
  ValueList outs = executor_->run(values);
  if (outs.empty()) return IValue();
  if (outs.size() == 1) return outs[0];
  return IValue::tuple(std::move(outs));
}

IValue GraphRunner::run(const NamedInputs& inputs) {
  InputSet set;
  for (const auto& [name, value] : inputs) {
    const bool wants = value.is_tensor() && value.to_tensor().requires_grad();
    set.values.push_back(NamedInput{name, value, wants, {}});
  }
  return run(set);
}

IValue run_graph(const ir::Graph& graph, const NamedInputs& inputs,
                 const GraphRunOptions& options) {
  GraphRunner runner(graph, options);
  return runner.run(inputs);
}

}  // namespace d2s::convert
