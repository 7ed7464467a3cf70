// Program: loading, choosing the entry, preparing a run (top level, the entry module,
// weights), binding inputs by parameter name, and running on a large stack.
#include <algorithm>
#include <cstring>
#include <functional>

#include "parse/parser.h"
#include "parse/script_names.h"
#include "trace/big_stack.h"
#include "trace/interp.h"
#include "trace/interpreter.h"
#include "trace/native_value.h"

namespace d2s {

using interp::as_obj;

namespace {

std::optional<IValue> literal_value(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Int:
      return IValue(e.as<ast::IntLit>().value);
    case ast::ExprKind::Float:
      return IValue(e.as<ast::FloatLit>().value);
    case ast::ExprKind::Bool:
      return IValue(e.as<ast::BoolLit>().value);
    case ast::ExprKind::None:
      return IValue();
    case ast::ExprKind::Str:
      return IValue(e.as<ast::StrLit>().value);
    case ast::ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      std::optional<IValue> v = literal_value(*u.operand);
      if (u.op != ast::UnaryOpKind::Neg || !v) return std::nullopt;
      if (v->is_int()) return IValue(-v->to_int());
      if (v->is_double()) return IValue(-v->to_double());
      return std::nullopt;
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const auto& elts =
          e.kind == ast::ExprKind::Tuple ? e.as<ast::TupleExpr>().elts : e.as<ast::ListExpr>().elts;
      ValueList items;
      for (const ast::ExprPtr& x : elts) {
        std::optional<IValue> v = literal_value(*x);
        if (!v) return std::nullopt;
        items.push_back(*v);
      }
      return e.kind == ast::ExprKind::Tuple ? IValue::tuple(items) : IValue::list(items);
    }
    default:
      return std::nullopt;
  }
}

// "Tensor" for both `Tensor` and `torch.Tensor`; the source text otherwise.
std::string annotation_text(const ast::Expr* e) {
  if (!e) return "";
  std::string text = interp::Interpreter::text_of(e->range);
  if (text.rfind("torch.", 0) == 0) text = text.substr(6);
  return text;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

const std::string& def_name(const ast::Stmt& s) {
  return s.kind == ast::StmtKind::FunctionDef ? s.as<ast::FunctionDef>().name
                                              : s.as<ast::ClassDef>().name;
}

}  // namespace

struct Program::State {
  ast::Module module;
  std::unique_ptr<interp::Interpreter> interp;
  EntryInfo entry;
  IValue entry_value;  // the entry function, or the entry module instance
  std::vector<std::pair<std::string, interp::ParamSite>> params;
};

Program::Program(ast::Module module) : state_(std::make_unique<State>()) {
  state_->module = std::move(module);
}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

Program Program::load(const std::string& path) {
  return from_source(SourceFile::load(path));
}

Program Program::from_source(std::shared_ptr<const SourceFile> file) {
  return Program(parse_program(std::move(file)));
}

Program Program::from_string(const std::string& text, const std::string& path) {
  return from_source(std::make_shared<const SourceFile>(path, text));
}

const ast::Module& Program::module() const {
  return state_->module;
}
const std::shared_ptr<const SourceFile>& Program::file() const {
  return state_->module.file;
}

EntryInfo Program::entry(const std::string& requested) const {
  const ast::Module& m = state_->module;
  std::vector<const ast::Stmt*> defs;
  for (const ast::StmtPtr& s : m.body) {
    if (s->kind == ast::StmtKind::FunctionDef || s->kind == ast::StmtKind::ClassDef)
      defs.push_back(s.get());
  }
  EntryInfo info;
  if (requested == "<module>" || (requested.empty() && defs.empty())) {
    info.kind = EntryInfo::Kind::Module;
    info.name = "<module>";
    info.range = SourceRange(m.file, 1, 1);
    return info;
  }
  const ast::Stmt* chosen = requested.empty() ? defs.back() : nullptr;
  for (const ast::Stmt* d : defs) {
    if (def_name(*d) == requested) chosen = d;  // a later definition rebinds the name
  }
  if (!chosen) {
    std::vector<std::string> names;
    for (const ast::Stmt* d : defs) names.push_back(def_name(*d));
    std::string near = interp::closest_name(requested, names);
    std::string file_name = m.file ? SourceRange(m.file, 1, 1).file_name() : "the program";
    throw Error(
        "entry '" + requested + "' is not defined in " + file_name, SourceRange(m.file, 0, 0),
        !near.empty()   ? "did you mean '" + near + "'?"
        : names.empty() ? "the file defines no function or class; use --entry '<module>'"
                        : "the file defines: " + join(names) + " (or use --entry '<module>')");
  }
  const ast::FunctionDef* fn = nullptr;
  bool skip_self = false;
  if (chosen->kind == ast::StmtKind::FunctionDef) {
    info.kind = EntryInfo::Kind::Function;
    fn = &chosen->as<ast::FunctionDef>();
    info.range = fn->name_range;
  } else {
    const auto& cls = chosen->as<ast::ClassDef>();
    info.kind = EntryInfo::Kind::Class;
    info.cls = &cls;
    info.range = cls.name_range;
    skip_self = true;
    // forward may come from a base class defined in the same file.
    for (const ast::ClassDef* c = &cls; c && !fn;) {
      for (const ast::StmtPtr& s : c->body) {
        if (s->kind == ast::StmtKind::FunctionDef && s->as<ast::FunctionDef>().name == "forward") {
          fn = &s->as<ast::FunctionDef>();
        }
      }
      const ast::ClassDef* base = nullptr;
      for (const ast::ExprPtr& b : c->bases) {
        if (b->kind != ast::ExprKind::Name) continue;
        for (const ast::Stmt* d : defs) {
          if (d->kind == ast::StmtKind::ClassDef && def_name(*d) == b->as<ast::Name>().id &&
              d != c) {
            base = &d->as<ast::ClassDef>();
          }
        }
      }
      c = base;
    }
    if (!fn) {
      throw Error(
          "class '" + cls.name + "' has no forward method", cls.name_range,
          "d2s runs forward(self, ...) of an entry class; define it, or choose another --entry");
    }
    if (fn->params.empty()) {
      throw Error("TypeError: " + cls.name + ".forward() must take self", fn->name_range);
    }
  }
  info.name = def_name(*chosen);
  info.function = fn;
  for (size_t i = skip_self ? 1 : 0; i < fn->params.size(); ++i) {
    const ast::Param& p = fn->params[i];
    // `*args` / `**kwargs` of the entry are not inputs: a caller of forward(x) passes
    // none, so they are empty, as Python binds them.
    if (p.kind == ast::ParamKind::VarArgs || p.kind == ast::ParamKind::VarKw) continue;
    EntryParam ep;
    ep.name = p.name;
    ep.annotation = annotation_text(p.annotation.get());
    ep.has_default = p.default_value != nullptr;
    if (p.default_value) ep.default_value = literal_value(*p.default_value);
    ep.range = p.range;
    info.params.push_back(std::move(ep));
  }
  return info;
}

void Program::prepare(const RunOptions& opts) {
  State& st = *state_;
  st.interp = std::make_unique<interp::Interpreter>(st.module, opts);
  st.entry = entry(opts.entry);
  st.entry_value = IValue();
  st.params.clear();
  interp::Interpreter& in = *st.interp;
  const EntryInfo& info = st.entry;
  if (info.kind != EntryInfo::Kind::Class && !opts.weights.empty()) {
    throw Error(
        "--weights applies to an nn.Module entry, but the entry '" + info.name + "' is " +
            (info.kind == EntryInfo::Kind::Module ? "the module's top level" : "a function"),
        info.range, "weights are matched to an entry class's parameters by state_dict name");
  }
  if (info.kind == EntryInfo::Kind::Module) return;  // its statements run in call_entry
  run_on_big_stack([&](size_t budget) {
    in.set_stack(static_cast<const char*>(__builtin_frame_address(0)), budget);
    in.exec_module();
    const IValue* v = in.global(info.name);
    // An entry decorated with @torch.jit.script / @torch.compile: d2s runs the entry
    // itself in the mode asked for (eager here), so it takes the function underneath.
    if (const IValue* target = v ? interp::compiled_target(*v) : nullptr) v = target;
    const bool ok =
        v && (info.kind == EntryInfo::Kind::Function ? as_obj<interp::FunctionValue>(*v) != nullptr
                                                     : as_obj<interp::ClassValue>(*v) != nullptr);
    if (!ok) {
      throw Error("the entry '" + info.name + "' is no longer a " +
                      (info.kind == EntryInfo::Kind::Function ? "function" : "class") +
                      " after the top-level statements ran",
                  info.range, "do not assign to '" + info.name + "' at the top level");
    }
    if (info.kind == EntryInfo::Kind::Function) {
      st.entry_value = *v;
      return;
    }
    try {
      st.entry_value = in.call_value(*v, {}, {}, info.range);
    } catch (const Error& e) {
      if (e.message().find("__init__() missing") == std::string::npos) throw;
      throw Error(e.message(), e.range(),
                  "d2s builds the entry class '" + info.name +
                      "' with no arguments; give __init__'s parameters defaults");
    }
    auto* inst = as_obj<interp::InstanceValue>(st.entry_value);
    if (!inst->is_module) return;
    // A fresh module is in training mode and __init__ may change that (or any other
    // attribute); only --eval (training = false) overrides what __init__ left.
    if (!opts.training) in.set_training(*inst, false);
    in.collect_parameters(*inst, "", &st.params);
  });
  if (opts.weights.empty()) return;

  // --weights: every name must be a parameter and every parameter must be given, with
  // its exact shape (load_state_dict(strict=True)); the data is copied in place, so
  // the parameter keeps its identity.
  std::vector<std::string> names;
  for (const auto& [name, site] : st.params) names.push_back(name);
  // Persistent buffers (register_buffer) are in a state_dict too: loaded like
  // parameters, and required like them (py_module_state.cpp).
  std::vector<std::pair<std::string, Tensor>> buffers;
  if (auto* inst = as_obj<interp::InstanceValue>(st.entry_value)) {
    in.collect_buffers(*inst, "", true, &buffers);
  }
  for (const auto& [name, t] : buffers) names.push_back(name);
  for (const auto& [name, t] : opts.weights) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string near = interp::closest_name(name, names);
      throw Error("the weights have '" + name + "', which is not a parameter of " + info.name,
                  info.range,
                  !near.empty()   ? "did you mean '" + near + "'?"
                  : names.empty() ? info.name + " has no parameters"
                                  : info.name + "'s parameters are: " + join(names));
    }
  }
  for (auto& [name, site] : st.params) {
    auto it = opts.weights.find(name);
    if (it == opts.weights.end()) {
      throw Error("the weights have no value for parameter '" + name + "'", site.range,
                  "give every parameter of " + info.name + ": " + join(names));
    }
    const Tensor& w = it->second;
    if (w.shape() != site.tensor.shape()) {
      throw Error("parameter '" + name + "' has shape " + shape_str(site.tensor.shape()) +
                      ", but the weights give shape " + shape_str(w.shape()),
                  site.range);
    }
    if (w.dtype() != site.tensor.dtype()) {
      throw Error("parameter '" + name + "' is " + dtype_name(site.tensor.dtype()) +
                      ", but the weights give " + dtype_name(w.dtype()),
                  site.range);
    }
    std::memmove(site.tensor.data<char>(), w.data<char>(),
                 static_cast<size_t>(w.numel()) * dtype_size(w.dtype()));
  }
  for (auto& [name, t] : buffers) {
    auto it = opts.weights.find(name);
    if (it == opts.weights.end()) {
      throw Error(
          "the weights have no value for buffer '" + name + "'", info.range,
          "a state_dict holds every persistent buffer; give " + info.name + ": " + join(names));
    }
    const Tensor& w = it->second;
    if (w.shape() != t.shape() || w.dtype() != t.dtype()) {
      throw Error("buffer '" + name + "' is " + dtype_name(t.dtype()) + " of shape " +
                      shape_str(t.shape()) + ", but the weights give " + dtype_name(w.dtype()) +
                      " of shape " + shape_str(w.shape()),
                  info.range);
    }
    Tensor dst = t;
    std::memmove(dst.data<char>(), w.data<char>(),
                 static_cast<size_t>(w.numel()) * dtype_size(w.dtype()));
  }
}

std::vector<std::pair<std::string, Tensor>> Program::parameters() const {
  std::vector<std::pair<std::string, Tensor>> out;
  for (const auto& [name, site] : state_->params) out.emplace_back(name, site.tensor);
  return out;
}

namespace {

// A script's outputs (docs/language.md, "Scripts"): the names its top-level statements
// assign, in source order, that hold a tensor or a Python number at the end.
IValue script_outputs(const interp::Interpreter& in, const ast::Module& module) {
  ValueList values;
  for (const std::string& name : ast::script_assigned_names(module)) {
    const IValue* v = in.global(name);
    if (!v) continue;  // assigned on a path that did not run, or on none yet
    // A number the trace follows symbolically (from an input's shape) counts as one.
    const auto* sym = as_obj<SymbolicValue>(*v);
    const IValue& concrete = sym ? sym->concrete() : *v;
    if (concrete.is_tensor() || concrete.is_number()) values.push_back(*v);
  }
  return IValue::tuple(std::move(values));
}

}  // namespace

IValue Program::call_entry(const NamedInputs& inputs, const RunOptions& opts) {
  if (!state_->interp) prepare(opts);
  State& st = *state_;
  interp::Interpreter& in = *st.interp;
  const EntryInfo& info = st.entry;
  const std::string shown =
      info.kind == EntryInfo::Kind::Class ? info.name + ".forward" : info.name;

  if (info.kind == EntryInfo::Kind::Module && !inputs.empty()) {
    throw Error(
        "the entry <module> takes no inputs, but the inputs have '" + inputs.front().first + "'",
        info.range, "choose a function or class with --entry, or drop the inputs");
  }
  std::vector<std::string> names;
  for (const EntryParam& p : info.params) names.push_back(p.name);
  interp::Kwargs kwargs;
  for (const EntryParam& p : info.params) {
    auto it = std::find_if(inputs.begin(), inputs.end(),
                           [&](const auto& kv) { return kv.first == p.name; });
    if (it == inputs.end()) {
      if (p.has_default) continue;
      std::vector<std::string> given;
      for (const auto& [n, v] : inputs) given.push_back(n);
      throw Error(shown + " needs the input '" + p.name + "', but the inputs have " +
                      (given.empty() ? "none" : "only " + join(given)),
                  p.range, "add '" + p.name + "' to the inputs file");
    }
    IValue v = it->second;
    auto mismatch = [&]() {
      throw Error("input '" + p.name + "' of " + shown + " is annotated " + p.annotation +
                      ", but the inputs give " +
                      (v.is_tensor() ? "a Tensor" : "a " + v.type_name()),
                  p.range,
                  p.annotation == "Tensor" ? "give it as {shape: [...], data: [...]}"
                                           : "give it as a plain number");
    };
    // None where the default is None (`scale: float = None`): the default's value, as
    // Python takes it (and the parse route types the parameter Optional).
    const bool default_none = v.is_none() && p.default_value && p.default_value->is_none();
    if (default_none) {
      kwargs.emplace_back(p.name, v);
      continue;
    }
    if (p.annotation == "Tensor" && !v.is_tensor()) mismatch();
    if (p.annotation == "int") {
      if (!v.is_int() && !v.is_bool()) mismatch();
      v = IValue(v.to_int());
    }
    if (p.annotation == "float") {
      if (!v.is_number()) mismatch();
      v = IValue(v.to_double());  // an int is fine where a float is expected
    }
    if (p.annotation == "bool" && !v.is_bool()) mismatch();
    kwargs.emplace_back(p.name, std::move(v));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& n = inputs[i].first;
    if (std::find(names.begin(), names.end(), n) == names.end()) {
      std::string near = interp::closest_name(n, names);
      throw Error("input '" + n + "' is not a parameter of " + shown +
                      " (its parameters: " + (names.empty() ? "none" : join(names)) + ")",
                  info.range, near.empty() ? "" : "did you mean '" + near + "'?");
    }
    for (size_t j = 0; j < i; ++j) {
      if (inputs[j].first == n) throw Error("input '" + n + "' is given twice", info.range);
    }
  }

  // Hooks and the output stream belong to this call only.
  struct Reset {
    interp::Interpreter& in;
    ~Reset() { in.set_hooks(nullptr); }
  } reset{in};
  in.set_out(opts.out);
  in.set_hooks(opts.hooks);
  IValue result;
  run_on_big_stack([&](size_t budget) {
    in.set_stack(static_cast<const char*>(__builtin_frame_address(0)), budget);
    if (info.kind == EntryInfo::Kind::Module) {
      in.set_global("__name__", IValue(std::string("__main__")));  // run as a script
      in.exec_module();
      result = script_outputs(in, st.module);
      return;
    }
    result = in.call_value(st.entry_value, {}, std::move(kwargs), info.range);
  });
  IValue output = interp::output_value(result, shown, info.range);
  result = IValue();
  // What the call made and only cycles still hold (a recursive nested function, an
  // object that refers to itself) is freed now, not when the program is.
  collect_cycles();
  return output;
}

IValue Program::run(const NamedInputs& inputs, const RunOptions& opts) {
  prepare(opts);
  return call_entry(inputs, opts);
}

const char* py_conversion_name(PyConversion kind) {
  switch (kind) {
    case PyConversion::Bool:
      return "bool";
    case PyConversion::Int:
      return "int";
    case PyConversion::Float:
      return "float";
    case PyConversion::Item:
      return "item";
    case PyConversion::Len:
      return "len";
    case PyConversion::RangeArg:
      return "range";
    case PyConversion::Index:
      return "index";
    case PyConversion::Scalar:
      return "scalar";
  }
  return "?";
}

}  // namespace d2s
