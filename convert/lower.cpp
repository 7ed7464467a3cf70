// The parse route's driver: entry, globals, graph inputs, module freezing, outputs,
// then the passes.
#include "convert/lower.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

#include "convert/lowerer.h"
#include "convert/passes.h"
#include "parse/parser.h"
#include "trace/interp.h"
#include "trace/interpreter.h"
#include "trace/py_objects.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

// lower_module.cpp
// lower_module.cpp: runs the top level in the interpreter, then (for a class entry)
// makes the instance; the values of the top level's computed names (Globals::computed)
// that are plain constants go into `globals`.
std::shared_ptr<interp::InstanceValue> build_instance(const ast::Module& module,
                                                      const std::string& class_name,
                                                      const LowerOptions& options,
                                                      const SourceRange& range, Globals* globals);
void take_top_level_values(const ast::Module& module, const LowerOptions& options,
                           Globals* globals);
// lower_buffers.cpp: copies the weights of `m`'s persistent buffers into them;
// returns the other weights.
std::map<std::string, Tensor> load_buffer_weights(const interp::InstanceValue& m,
                                                  const std::map<std::string, Tensor>& weights);
void collect_module_parameters(const interp::InstanceValue& m, const std::string& prefix,
                               std::vector<std::pair<std::string, Tensor>>* out, int depth = 0);

// ------------------------------------------------------------------ Lowerer basics

Lowerer::Lowerer(ir::Graph& graph, Globals& globals, const LowerOptions& options,
                 SourceRange entry_range)
    : graph_(graph), globals_(globals), options_(options), entry_range_(std::move(entry_range)) {}

ir::Value* Lowerer::bool_const(bool value) {
  // Flag constants are shared and live at the top of the graph, where every block
  // sees them (many arms need a `false`).
  ir::Value*& slot = value ? true_ : false_;
  if (!slot) {
    ir::Node* n = graph_.create(ir::kind::Constant, {}, 1, entry_range_);
    n->set_attr("value", IValue(value));
    n->output()->set_type(Type::of_bool());
    ir::Block* top = graph_.block();
    n->insert_before(top->param_node()->next());
    slot = n->output();
  }
  return slot;
}

ir::Value* Lowerer::uninitialized(const Type& type, const SourceRange& range) {
  // TorchScript's placeholder for a value that is never read on this path (an arm
  // that returned, a loop's pending return value).
  ir::Node* n = graph_.insert(ir::kind::Uninitialized, {}, 1, range);
  n->output()->set_type(type);
  return n->output();
}

void Lowerer::fail(const std::string& message, const SourceRange& range,
                   const std::string& hint) const {
  throw Error(message, range, hint);
}

std::string Lowerer::text_of(const SourceRange& range) const {
  if (!range.file || !range.known()) return {};
  std::string_view line = range.file->line_text(range.line);
  size_t col = static_cast<size_t>(std::max(range.col, 1) - 1);
  if (col >= line.size()) return {};
  return std::string(line.substr(col, static_cast<size_t>(std::max(range.len, 1))));
}

namespace {

// ------------------------------------------------------------------ globals

// The field names of `namedtuple("P", ["a", "b"])` (or "a b", "a, b", a tuple), when
// written as literals; null otherwise (the parse route then refuses to create one).
std::shared_ptr<const std::vector<std::string>> namedtuple_fields(const ast::Call& call) {
  const ast::Expr* spec = call.args.size() >= 2 ? call.args[1].get() : nullptr;
  for (const ast::Keyword& k : call.keywords) {
    if (k.name == "field_names") spec = k.value.get();
  }
  if (!spec) return nullptr;
  auto fields = std::make_shared<std::vector<std::string>>();
  if (spec->kind == ast::ExprKind::Str) {
    std::string text = spec->as<ast::StrLit>().value;
    for (char& c : text) c = c == ',' ? ' ' : c;
    std::istringstream words(text);
    for (std::string w; words >> w;) fields->push_back(w);
    return fields;
  }
  const std::vector<ast::ExprPtr>* elts = nullptr;
  if (spec->kind == ast::ExprKind::List) elts = &spec->as<ast::ListExpr>().elts;
  if (spec->kind == ast::ExprKind::Tuple) elts = &spec->as<ast::TupleExpr>().elts;
  if (!elts) return nullptr;
  for (const ast::ExprPtr& e : *elts) {
    if (e->kind != ast::ExprKind::Str) return nullptr;
    fields->push_back(e->as<ast::StrLit>().value);
  }
  return fields;
}

// A literal (or a tuple of literals) at the top level, usable as a global constant.
std::optional<IValue> literal_value(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Int:
      return IValue(e.as<ast::IntLit>().value);
    case ast::ExprKind::Float:
      return IValue(e.as<ast::FloatLit>().value);
    case ast::ExprKind::Bool:
      return IValue(e.as<ast::BoolLit>().value);
    case ast::ExprKind::Str:
      return IValue(e.as<ast::StrLit>().value);
    case ast::ExprKind::None:
      return IValue();
    case ast::ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      auto v = literal_value(*u.operand);
      if (u.op != ast::UnaryOpKind::Neg || !v) return std::nullopt;
      if (v->is_int()) return IValue(-v->to_int());
      if (v->is_double()) return IValue(-v->to_double());
      return std::nullopt;
    }
    case ast::ExprKind::Tuple: {
      ValueList items;
      for (const auto& x : e.as<ast::TupleExpr>().elts) {
        auto v = literal_value(*x);
        if (!v) return std::nullopt;
        items.push_back(*v);
      }
      return IValue::tuple(std::move(items));
    }
    default:
      return std::nullopt;
  }
}

Sugared module_name(const std::string& qualname) {
  // torch, torch.nn, torch.nn.functional and math are namespaces; anything else
  // imported from them (Tensor, Linear, relu) is a callable known by its full name.
  if (qualname == "torch" || qualname == "torch.nn" || qualname == "torch.nn.functional" ||
      qualname == "math" || qualname == "torch.jit" || qualname == "typing") {
    return Sugared::of_kind(Sugared::Kind::Namespace, qualname);
  }
  return Sugared::of_kind(Sugared::Kind::Builtin, qualname);
}

// The modules d2s implements (the interpreter's list, trace/interp_stmt.cpp); names
// from others are foreign: importable, but an error when used.
bool implemented_module(const std::string& qualname) {
  return qualname == "torch" || qualname == "torch.nn" || qualname == "torch.nn.functional" ||
         qualname == "math" || qualname == "typing" || qualname == "torch.jit" ||
         qualname == "__future__" || qualname == "dataclasses" || qualname == "copy";
}

// Modules d2s implements in part (trace/py_stdlib.cpp): the names it knows resolve.
bool partial_module(const std::string& qualname) {
  return qualname == "numpy" || qualname == "numbers" || qualname == "collections" ||
         qualname == "functools" || qualname == "itertools" || qualname == "warnings";
}

void collect_globals(const ast::Module& module, Globals* g) {
  for (const ast::StmtPtr& s : module.body) {
    switch (s->kind) {
      case ast::StmtKind::Import:
        for (const auto& alias : s->as<ast::Import>().names) {
          if (partial_module(alias.name)) {
            const std::string bound = !alias.asname.empty() ? alias.asname : alias.name;
            g->names[bound] = Sugared::of_kind(Sugared::Kind::Namespace, alias.name);
            g->partial_modules[bound] = {alias.name, alias.range};
            g->foreign.erase(bound);
            continue;
          }
          // `import torch.nn` and `import torch.utils.data` bind `torch`, the package, as
          // Python does: whether d2s implements the submodule matters only where it is used.
          const std::string head = alias.name.substr(0, alias.name.find('.'));
          const std::string module = !alias.asname.empty() ? alias.name : head;
          const std::string bound = !alias.asname.empty() ? alias.asname : head;
          if (!implemented_module(module)) {
            g->foreign[bound] = {head, alias.range};
            g->names.erase(bound);
            continue;
          }
          g->foreign.erase(bound);
          g->names[bound] = module_name(module);
        }
        break;
      case ast::StmtKind::ImportFrom: {
        const auto& imp = s->as<ast::ImportFrom>();
        for (const auto& alias : imp.names) {
          const std::string& bound = alias.asname.empty() ? alias.name : alias.asname;
          if (partial_module(imp.module)) {
            std::optional<IValue> v =
                interp::Interpreter::stdlib_value(imp.module + "." + alias.name);
            if (v && interp::as_obj<interp::BuiltinValue>(*v)) {
              g->names[bound] =
                  Sugared::of_kind(Sugared::Kind::Builtin, imp.module + "." + alias.name);
              g->foreign.erase(bound);
              continue;
            }
            if (v) {
              g->constants[bound] = *v;
              g->names.erase(bound);
              g->foreign.erase(bound);
              continue;
            }
          }
          if (!implemented_module(imp.module)) {
            g->foreign[bound] = {imp.module.substr(0, imp.module.find('.')), alias.range};
            g->names.erase(bound);
            continue;
          }
          g->foreign.erase(bound);
          g->names[alias.asname.empty() ? alias.name : alias.asname] =
              module_name(imp.module + "." + alias.name);
        }
        break;
      }
      case ast::StmtKind::FunctionDef: {
        const auto& fn = s->as<ast::FunctionDef>();
        Sugared f = Sugared::of_kind(Sugared::Kind::Function, fn.name);
        f.fn = &fn;
        g->names[fn.name] = f;
        g->constants.erase(fn.name);
        g->foreign.erase(fn.name);
        break;
      }
      case ast::StmtKind::ClassDef: {
        const auto& cls = s->as<ast::ClassDef>();
        Sugared c = Sugared::of_kind(Sugared::Kind::Class, cls.name);
        c.cls = &cls;
        g->names[cls.name] = c;
        g->classes[cls.name] = &cls;
        g->constants.erase(cls.name);
        g->foreign.erase(cls.name);
        break;
      }
      case ast::StmtKind::Assign: {
        const auto& a = s->as<ast::Assign>();
        auto v = literal_value(*a.value);
        // `Point = namedtuple("Point", ...)`: a class the interpreter makes; the parse
        // route names it in its refusal when converted code creates one.
        bool namedtuple_class = false;
        if (a.value->kind == ast::ExprKind::Call) {
          const ast::Expr& f = *a.value->as<ast::Call>().func;
          if (f.kind == ast::ExprKind::Name) {
            auto it = g->names.find(f.as<ast::Name>().id);
            namedtuple_class = it != g->names.end() && it->second.name == "collections.namedtuple";
          } else if (f.kind == ast::ExprKind::Attribute) {
            const auto& at = f.as<ast::Attribute>();
            auto it = at.value->kind == ast::ExprKind::Name
                          ? g->names.find(at.value->as<ast::Name>().id)
                          : g->names.end();
            namedtuple_class =
                it != g->names.end() && it->second.name == "collections" && at.attr == "namedtuple";
          }
        }
        for (const auto& t : a.targets) {
          if (t->kind != ast::ExprKind::Name) continue;
          const std::string& name = t->as<ast::Name>().id;
          if (namedtuple_class) {
            g->names[name] =
                Sugared::of_kind(Sugared::Kind::Builtin, "collections.namedtuple:" + name);
            g->names[name].fields = namedtuple_fields(a.value->as<ast::Call>());
            g->constants.erase(name);
            continue;
          }
          g->computed.erase(std::remove(g->computed.begin(), g->computed.end(), name),
                            g->computed.end());
          if (v) {
            g->constants[name] = *v;
            g->names.erase(name);
          } else {
            g->constants.erase(name);
            g->computed.push_back(name);
          }
        }
        break;
      }
      default:
        break;
    }
  }
}

// ------------------------------------------------------------------ entry inputs

Type type_of_value(const IValue& v) {
  if (v.is_bool()) return Type::of_bool();
  if (v.is_int()) return Type::of_int();
  return Type::of_float();
}

std::string without_spaces(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

// The items of `Head[a, b, ...]` split at the top-level commas.
std::vector<std::string> type_arguments(const std::string& inner) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : inner) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty() || !out.empty()) out.push_back(cur);
  return out;
}

// The type an entry parameter's annotation names (spaces removed), as TorchScript
// reads it: Tensor, int, float, bool, List[T], Tuple[T, ...], Optional[T] and
// Union[T, None]; nullopt for anything else. Nesting is bounded: annotations are
// short, and one deeper than kMaxDepth is refused.
std::optional<Type> annotation_type(std::string a, int depth = 0) {
  constexpr int kMaxDepth = 16;
  if (depth > kMaxDepth) return std::nullopt;
  for (const char* prefix : {"typing.", "torch."}) {
    if (a.rfind(prefix, 0) == 0) a = a.substr(std::string(prefix).size());
  }
  if (a == "int") return Type::of_int();
  if (a == "float") return Type::of_float();
  if (a == "bool") return Type::of_bool();
  if (a.empty() || a == "Tensor") return Type::tensor(DType::Float32);
  const size_t open = a.find('[');
  if (open == std::string::npos || a.back() != ']') return std::nullopt;
  const std::string head = a.substr(0, open);
  const std::vector<std::string> args = type_arguments(a.substr(open + 1, a.size() - open - 2));
  std::vector<Type> types;
  for (const std::string& arg : args) {
    if (arg == "None" || arg == "NoneType") {
      types.push_back(Type::none());
      continue;
    }
    std::optional<Type> t = annotation_type(arg, depth + 1);
    if (!t) return std::nullopt;  // also `...` (Tuple[int, ...] has no fixed length)
    types.push_back(*t);
  }
  auto optional_of = [](const Type& t) {
    return t.kind == TypeKind::Optional ? t : Type::optional(t);
  };
  if (head == "Optional" && types.size() == 1 && types[0].kind != TypeKind::None) {
    return optional_of(types[0]);
  }
  if (head == "Union" && types.size() == 2 &&
      (types[0].kind == TypeKind::None) != (types[1].kind == TypeKind::None)) {
    return optional_of(types[types[0].kind == TypeKind::None ? 1 : 0]);
  }
  for (const Type& t : types) {
    if (t.kind == TypeKind::None) return std::nullopt;
  }
  if ((head == "List" || head == "list") && types.size() == 1) return Type::list(types[0]);
  if (head == "Tuple" || head == "tuple") {
    if (args.size() == 1 && args[0] == "()") return Type::tuple({});  // Tuple[()]
    return Type::tuple(types);
  }
  return std::nullopt;
}

Type param_type(const EntryParam& p) {
  const std::string a = without_spaces(p.annotation);
  // Unannotated: a Tensor, as in TorchScript, unless a number default says otherwise
  // (`def f(x, k=2)` takes an int).
  std::optional<Type> t;
  if (a.empty() && p.default_value && p.default_value->is_number()) {
    t = type_of_value(*p.default_value);
  } else {
    t = annotation_type(a);
  }
  if (!t) {
    throw Error("the annotation '" + a + "' of parameter '" + p.name +
                    "' is not supported by the parse route",
                p.range,
                "annotate entry parameters with Tensor, int, float, bool, List[T], Tuple[T, ...] "
                "(of a fixed length) or Optional[T] of them");
  }
  // A default of None makes the parameter Optional (a T or None, null in an inputs
  // file), refined by `is None` tests: `mask=None` is an Optional[Tensor] and
  // `scale: float = None` an Optional[float], as the default says a PyTorch caller may
  // leave it out.
  if (p.default_value && p.default_value->is_none() && t->kind != TypeKind::Optional) {
    t = Type::optional(*t);
  }
  return *t;
}

// The graph type of an example input value: nullopt for None, an empty list, or a list
// whose items differ in kind (the inputs file then says nothing about the type).
std::optional<Type> example_type(const IValue& v) {
  if (v.is_tensor()) return Type::tensor(v.to_tensor().dtype());
  if (v.is_bool() || v.is_int() || v.is_double()) return type_of_value(v);
  if (v.is_tuple()) {
    std::vector<Type> items;
    for (const IValue& item : v.items()) {
      std::optional<Type> t = example_type(item);
      if (!t) return std::nullopt;
      items.push_back(*t);
    }
    return Type::tuple(std::move(items));
  }
  if (v.is_list() && !v.items().empty()) {
    std::optional<Type> first = example_type(v.items()[0]);
    if (!first || first->kind == TypeKind::Tuple || first->kind == TypeKind::List) {
      return std::nullopt;
    }
    for (const IValue& item : v.items()) {
      std::optional<Type> t = example_type(item);
      if (!t || t->kind != first->kind) return std::nullopt;
    }
    return Type::list(first->is_tensor() ? Type::tensor() : *first);
  }
  return std::nullopt;
}

// Symbolic dims of an entry input: `<input>_<axis>` (x_0, x_1), so that a printed
// type says where a size comes from; a batch dimension stays a symbol.
Type input_type(const EntryParam& p, const LowerOptions& options) {
  Type t = param_type(p);
  // Unannotated and given a tuple, a number or a list by the inputs: that type, not
  // TorchScript's Tensor; its other input sets must give the same kind.
  if (without_spaces(p.annotation).empty() && !(p.default_value && p.default_value->is_number())) {
    if (auto e = options.input_examples.find(p.name); e != options.input_examples.end()) {
      if (std::optional<Type> et = example_type(e->second); et && !et->is_tensor()) {
        return p.default_value && p.default_value->is_none() ? Type::optional(*et) : *et;
      }
    }
  }
  if (!t.is_tensor()) return t;
  if (auto d = options.input_dtypes.find(p.name); d != options.input_dtypes.end()) {
    t.dtype = d->second;
  }
  auto it = options.input_shapes.find(p.name);
  if (it == options.input_shapes.end()) return t;
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < it->second.size(); ++i) {
    dims.push_back(ir::Dim::symbolic(p.name + "_" + std::to_string(i)));
  }
  t.shape = std::move(dims);
  return t;
}

void check_weights(const std::vector<std::pair<std::string, Tensor>>& params,
                   const std::map<std::string, Tensor>& weights) {
  std::unordered_set<std::string> names;
  for (const auto& [name, t] : params) {
    names.insert(name);
    auto it = weights.find(name);
    if (it == weights.end()) {
      throw Error("the weights do not set parameter '" + name + "'", SourceRange(),
                  "a weights file must name every parameter of the module");
    }
    if (it->second.shape() != t.shape()) {
      throw Error("the weights give '" + name + "' the shape " + shape_str(it->second.shape()) +
                      " but the module's parameter has " + shape_str(t.shape()),
                  SourceRange());
    }
  }
  for (const auto& [name, t] : weights) {
    if (!names.count(name)) {
      throw Error("the weights name '" + name + "', which is not a parameter of the module",
                  SourceRange(), "parameters are named as in a PyTorch state_dict");
    }
  }
}

}  // namespace

// ------------------------------------------------------------------ driver

LoweredGraph lower_program(std::shared_ptr<const SourceFile> file, const LowerOptions& options) {
  Program program = Program::from_source(file);
  const ast::Module& module = program.module();
  EntryInfo entry = program.entry(options.entry);

  LoweredGraph out;
  out.graph = std::make_unique<ir::Graph>();
  ir::Graph& g = *out.graph;
  g.route = "parse";
  g.source = file;
  g.entry = entry.kind == EntryInfo::Kind::Class ? entry.name + ".forward" : entry.name;

  Globals globals;
  globals.file = file;
  globals.training = options.training;
  collect_globals(module, &globals);
  // `if __name__ == "__main__":` runs for the <module> entry only (as in eager mode).
  {
    std::string stem = file->path().substr(file->path().find_last_of('/') + 1);
    if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".py") == 0)
      stem.resize(stem.size() - 3);
    globals.constants["__name__"] =
        IValue(entry.kind == EntryInfo::Kind::Module ? std::string("__main__") : stem);
  }
  Lowerer lowerer(g, globals, options, entry.range);

  if (entry.kind == EntryInfo::Kind::Module) {
    lowerer.lower_script(module);
  } else {
    std::vector<Sugared> args;
    std::shared_ptr<interp::InstanceValue> instance;
    if (entry.kind == EntryInfo::Kind::Class) {
      instance = build_instance(module, entry.name, options, entry.range, &globals);
    } else if (!globals.computed.empty()) {
      take_top_level_values(module, options, &globals);
    }
    if (instance) {
      Sugared self = Sugared::of_kind(Sugared::Kind::Module, "");
      self.module = std::make_shared<ModuleRef>(ModuleRef{instance, ""});
      args.push_back(self);
    }
    std::vector<Sugared> inputs;
    for (const EntryParam& p : entry.params) {
      inputs.push_back(Sugared::of(g.add_input(p.name, input_type(p, options))));
      out.argument_defaults.push_back(p.default_value);
    }
    // The function's parameters in order: the inputs, and an entry's `*args` and
    // `**kwargs` empty (they are not inputs: trace/entry.cpp).
    size_t next_input = 0;
    for (size_t i = args.size(); i < entry.function->params.size(); ++i) {
      const ast::Param& p = entry.function->params[i];
      if (p.kind == ast::ParamKind::VarArgs) {
        args.push_back(Sugared::of(lowerer.make_tuple({}, p.range)));
      } else if (p.kind == ast::ParamKind::VarKw) {
        args.push_back(lowerer.make_keywords(p.name, {}, {}));
      } else {
        args.push_back(inputs.at(next_input++));
      }
    }
    out.num_arguments = entry.params.size();
    if (instance) {
      // Parameters follow the arguments, in state_dict order, with their shapes.
      collect_module_parameters(*instance, "", &out.parameters);
      if (!options.weights.empty()) {
        // Buffers are frozen into the graph as constants: their weights are copied into
        // the instance before lowering; the rest must be its parameters.
        const std::map<std::string, Tensor> param_weights =
            load_buffer_weights(*instance, options.weights);
        check_weights(out.parameters, param_weights);
        for (auto& [name, t] : out.parameters) t = param_weights.at(name);
      }
      for (const auto& [name, t] : out.parameters) {
        globals.parameters[name] = g.add_input(name, Type::tensor_of(t.dtype(), t.shape()));
      }
    }
    const ast::FunctionDef& fn = *entry.function;
    std::string qualname =
        entry.kind == EntryInfo::Kind::Class ? entry.name + ".forward" : entry.name;
    Sugared result = lowerer.lower_function(fn, qualname, std::move(args), fn.range);
    if (!result.is_value()) {
      throw Error("the entry returns " + result.describe() + ", which is not a value", fn.range);
    }
    // A returned tuple gives one graph output per item, as the outputs file lists them.
    ir::Value* r = result.value;
    if (r->type().kind == TypeKind::Tuple) {
      for (ir::Value* v : lowerer.tuple_items(r, fn.range)) g.register_output(v);
    } else if (r->type().kind != TypeKind::None) {
      g.register_output(r);
    }
  }
  if (options.run_passes) run_default_passes(g);
  return out;
}

LoweredGraph lower_live_function(const LiveFunction& f) {
  LoweredGraph out;
  out.graph = std::make_unique<ir::Graph>();
  ir::Graph& g = *out.graph;
  g.route = "parse";
  g.source = f.file;
  g.entry = f.name;

  LowerOptions options;
  options.training = f.training;
  Globals globals;
  globals.file = f.file;
  globals.training = f.training;
  collect_globals(*f.module, &globals);
  Lowerer lowerer(g, globals, options, f.function->range);

  std::vector<Sugared> args;
  if (f.self) {
    Sugared self = Sugared::of_kind(Sugared::Kind::Module, "");
    self.module = std::make_shared<ModuleRef>(ModuleRef{f.self, ""});
    args.push_back(self);
  }
  const std::vector<ast::Param>& params = f.function->params;
  const size_t first = f.self ? 1 : 0;
  if (params.size() < first + f.arg_shapes.size()) {
    throw Error("'" + f.name + "' takes " + std::to_string(params.size() - first) +
                    " arguments but was called with " + std::to_string(f.arg_shapes.size()),
                f.function->range);
  }
  for (size_t i = 0; i < f.arg_shapes.size(); ++i) {
    const std::string& pname = params[first + i].name;
    Type t = Type::tensor(f.arg_dtypes[i]);
    std::vector<ir::Dim> dims;
    for (size_t d = 0; d < f.arg_shapes[i].size(); ++d) {
      if (!f.arg_free_dims) {
        dims.push_back(ir::Dim::symbolic(pname + "_" + std::to_string(d)));
        continue;
      }
      const auto& free =
          i < f.arg_free_dims->size() ? (*f.arg_free_dims)[i] : std::map<int64_t, std::string>{};
      auto it = free.find(static_cast<int64_t>(d));
      dims.push_back(it != free.end() ? ir::Dim::symbolic(it->second)
                                      : ir::Dim::known(f.arg_shapes[i][d]));
    }
    t.shape = std::move(dims);
    args.push_back(Sugared::of(g.add_input(pname, t)));
  }
  out.num_arguments = f.arg_shapes.size();
  if (f.self) {
    collect_module_parameters(*f.self, "", &out.parameters);
  } else {
    // Modules held by globals: callable by name, their parameters qualified by it.
    for (const auto& [name, m] : f.modules) {
      Sugared s = Sugared::of_kind(Sugared::Kind::Module, name);
      s.module = std::make_shared<ModuleRef>(ModuleRef{m, name});
      globals.names[name] = s;
      globals.constants.erase(name);
      collect_module_parameters(*m, name + ".", &out.parameters);
    }
  }
  for (const auto& [name, t] : out.parameters) {
    globals.parameters[name] = g.add_input(name, Type::tensor_of(t.dtype(), t.shape()));
  }
  Sugared result = lowerer.lower_function(*f.function, f.name, std::move(args), f.function->range);
  if (!result.is_value()) {
    throw Error("'" + f.name + "' returns " + result.describe() + ", which is not a value",
                f.function->range);
  }
  ir::Value* r = result.value;
  if (r->type().kind == TypeKind::Tuple) {
    for (ir::Value* v : lowerer.tuple_items(r, f.function->range)) g.register_output(v);
  } else if (r->type().kind != TypeKind::None) {
    g.register_output(r);
  }
  run_default_passes(g);
  return out;
}

LoweredGraph lower_file(const std::string& path, const LowerOptions& options) {
  return lower_program(SourceFile::load(path), options);
}

LoweredGraph lower_string(const std::string& text, const LowerOptions& options,
                          const std::string& path) {
  return lower_program(std::make_shared<const SourceFile>(path, text), options);
}

}  // namespace d2s::convert
