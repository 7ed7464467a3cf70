// The statement writer of the code generator (codegen.h): names values, walks the
// blocks with an explicit work list, and writes one statement per node.
#include "convert/codegen.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "convert/codegen_internal.h"
#include "core/base/error.h"
#include "core/ir/effects.h"

namespace d2s::convert {

namespace {

using codegen::guard_condition;
using codegen::guard_message;
using codegen::node_expression;
using codegen::python_literal;

const IValue* constant_of(const ir::Value* v) {
  return v->node()->kind() == ir::kind::Constant ? v->node()->attr("value") : nullptr;
}

bool is_true_constant(const ir::Value* v) {
  const IValue* c = constant_of(v);
  return c && c->is_bool() && c->to_bool();
}

bool is_no_trip_count(const ir::Value* v) {
  const IValue* c = constant_of(v);
  return c && c->is_int() && c->to_int() == std::numeric_limits<int64_t>::max();
}

// Python identifiers for the graph's values: from the IR's names where there are
// any (`s.1` → `s`, then `s_1`, ...), else from the op that made the value.
class Namer {
 public:
  Namer() {
    for (const char* word :
         {"False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
          "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
          "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
          "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield",    "torch",
          "math",  "self",     "print", "range",  "len",  "int",    "float",  "bool",     "str",
          "min",   "max",      "abs",   "round",  "list", "tuple",  "super",  "Tensor"}) {
      used_.insert(word);
    }
  }

  std::string fresh(const std::string& wanted) {
    std::string base = sanitize(wanted);
    if (used_.insert(base).second) return base;
    int& n = next_[base];
    for (;;) {
      std::string candidate = base + "_" + std::to_string(++n);
      if (used_.insert(candidate).second) return candidate;
    }
  }

  // Names `v` (once): from its debug name, else `fallback`.
  const std::string& name(const ir::Value* v, const std::string& fallback) {
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    return names_[v] = fresh(v->debug_name().empty() ? fallback : v->debug_name());
  }
  void alias(const ir::Value* v, const std::string& name) { names_[v] = name; }
  const std::string* find(const ir::Value* v) const {
    auto it = names_.find(v);
    return it == names_.end() ? nullptr : &it->second;
  }

 private:
  static std::string sanitize(const std::string& wanted) {
    std::string s = wanted;
    // `s.1`, `s.2`: the IR's own uniquing; ours replaces it.
    const size_t dot = s.rfind('.');
    if (dot != std::string::npos && dot + 1 < s.size() &&
        s.find_first_not_of("0123456789", dot + 1) == std::string::npos) {
      s.erase(dot);
    }
    for (char& c : s) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    }
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
    return s;
  }
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, int> next_;
  std::unordered_map<const ir::Value*, std::string> names_;
};

// The name an unnamed result gets: its op (`mm`, `add`), or what a prim node makes.
std::string op_stem(const ir::Node& n) {
  const std::string& k = n.kind();
  if (k == ir::kind::TupleConstruct) return "tup";
  if (k == ir::kind::ListConstruct) return "lst";
  if (k == ir::kind::TupleIndex || k == ir::kind::TupleUnpack || k == ir::kind::ListUnpack) {
    return "item";
  }
  if (k == ir::kind::Constant) return "const";
  if (k == ir::kind::If) return "res";
  if (k == ir::kind::Loop) return "carried";
  if (k.rfind("grad::", 0) == 0) return "grads_" + k.substr(6);
  std::string s = k.substr(k.find("::") == std::string::npos ? 0 : k.find("::") + 2);
  while (!s.empty() && s.back() == '_') s.pop_back();
  while (!s.empty() && s.front() == '_') s.erase(0, 1);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s.empty() ? "v" : s;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string type_annotation(const ir::Type& t) {
  switch (t.kind) {
    case ir::TypeKind::Optional: {
      // `bias: typing.Optional[torch.Tensor]` (the file imports typing then).
      const std::string inner = t.elements.empty() ? "" : type_annotation(t.elements[0]);
      if (inner.empty()) return "";
      return ": typing.Optional[" + inner.substr(2) + "]";
    }
    case ir::TypeKind::List: {
      // A List[T] / Tuple[...] entry parameter keeps its annotation, so that the parse
      // route reads the code back with the same input types.
      const std::string inner = t.elements.empty() ? "" : type_annotation(t.elements[0]);
      if (inner.empty()) return "";
      return ": typing.List[" + inner.substr(2) + "]";
    }
    case ir::TypeKind::Tuple: {
      std::string items;
      for (const ir::Type& e : t.elements) {
        const std::string a = type_annotation(e);
        if (a.empty()) return "";
        items += (items.empty() ? "" : ", ") + a.substr(2);
      }
      return ": typing.Tuple[" + (items.empty() ? std::string("()") : items) + "]";
    }
    case ir::TypeKind::Tensor:
      return ": torch.Tensor";
    case ir::TypeKind::Int:
      return ": int";
    case ir::TypeKind::Float:
      return ": float";
    case ir::TypeKind::Bool:
      return ": bool";
    default:
      return "";
  }
}

// An `if` whose then arm is empty and whose else arm only raises (after the
// constants of its message): a lowered assert. Returns the raise.
const ir::Node* lowered_assert(const ir::Node& n) {
  if (n.kind() != ir::kind::If || !n.outputs().empty()) return nullptr;
  ir::IfView v(const_cast<ir::Node*>(&n));
  if (!v.then_block()->empty()) return nullptr;
  const ir::Node* raise = nullptr;
  for (const ir::Node* inner : v.else_block()->nodes()) {
    if (raise ||
        (inner->kind() != ir::kind::Constant && inner->kind() != ir::kind::RaiseException)) {
      return nullptr;
    }
    if (inner->kind() == ir::kind::RaiseException) raise = inner;
  }
  return raise;
}

// Whether a graph holds the grad:: nodes of a backward graph (d2s grad), at any depth.
bool has_gradient_nodes(const ir::Graph& graph) {
  std::vector<const ir::Block*> blocks = {graph.block()};
  while (!blocks.empty()) {
    const ir::Block* b = blocks.back();
    blocks.pop_back();
    for (const ir::Node* n : b->nodes()) {
      if (n->kind().rfind("grad::", 0) == 0) return true;
      for (const ir::Block* inner : n->blocks()) blocks.push_back(inner);
    }
  }
  return false;
}

class Writer {
 public:
  explicit Writer(const CodegenOptions& options) : options_(options) {}

  std::string write(const ir::Graph& graph) {
    std::string fn = options_.function_name;
    if (fn.empty()) {
      fn = graph.entry.empty() || graph.entry == "<module>" ? "module" : graph.entry;
      if (fn.size() > 8 && fn.compare(fn.size() - 8, 8, ".forward") == 0) fn.resize(fn.size() - 8);
    }
    fn = namer_.fresh(fn);

    std::vector<std::string> params;
    bool uses_typing = false;
    std::vector<std::string> state_names;
    const size_t num_args = options_.num_arguments < 0
                                ? graph.inputs().size()
                                : static_cast<size_t>(options_.num_arguments);
    for (size_t i = 0; i < graph.inputs().size(); ++i) {
      const ir::Value* in = graph.inputs()[i];
      const std::string& name = namer_.name(in, "arg");
      std::string param = name + type_annotation(in->type());
      // Python takes no default before a parameter without one: a module's state comes
      // after its arguments, so their defaults are written for a function entry only.
      if (i < num_args && num_args == graph.inputs().size() &&
          i < options_.argument_defaults.size() && options_.argument_defaults[i]) {
        param += " = " + python_literal(*options_.argument_defaults[i]);
      }
      uses_typing = uses_typing || param.find("typing.") != std::string::npos;
      params.push_back(param);
      if (i >= num_args) state_names.push_back("#   " + name + ": " + in->debug_name());
    }

    std::string head = "# Written by `d2s code` from the " +
                       (graph.route.empty() ? std::string("d2s") : graph.route) + " graph of " +
                       (graph.entry.empty() ? std::string("the program") : graph.entry);
    if (graph.source) head += " (" + graph.source->path() + ")";
    head += ".\n# `# line N`: the source line a statement came from.\nimport math\n" +
            std::string(uses_typing ? "import typing\n" : "") + "\nimport torch\n\n\n";
    if (!state_names.empty()) {
      head += "# Module parameters, by state_dict name:\n";
      for (const auto& s : state_names) head += s + "\n";
    }
    has_gradients_ = has_gradient_nodes(graph);
    if (has_gradients_) head += std::string(codegen::kVjpHelper);
    head += "def " + fn + "(" + join(params) + "):\n";

    emit_block(graph.block(), 1);
    run();
    std::vector<std::string> outs;
    for (const ir::Value* v : graph.outputs()) outs.push_back(ref(v));
    if (!outs.empty()) line(1, "return " + join(outs));
    if (lines_ == 0) line(1, "pass");
    return head + body_;
  }

 private:
  struct Task {
    enum Kind { Node, Line, Arm, Assign, CondAssign, BreakIf, PassIfEmpty } kind;
    const ir::Node* node = nullptr;
    const ir::Block* block = nullptr;
    int indent = 0;
    std::string text;
    std::vector<const ir::Value*> dst, src;
    size_t mark = 0;
  };

  bool has_gradients_ = false;

  std::string ref(const ir::Value* v) {
    if (const IValue* c = constant_of(v); c && !c->is_tensor()) return python_literal(*c);
    if (const std::string* name = namer_.find(v)) return *name;
    return namer_.name(v, op_stem(*v->node()));
  }

  void line(int indent, const std::string& text, const ir::Node* from = nullptr,
            const char* label = nullptr) {
    body_ += std::string(static_cast<size_t>(indent) * 4, ' ') + text;
    if (from && from->range().known()) {
      body_ +=
          std::string("  # ") + (label ? label : "") + "line " + std::to_string(from->range().line);
    }
    body_ += "\n";
    ++lines_;
  }

  void emit_block(const ir::Block* b, int indent) {
    std::vector<Task> tasks;
    for (const ir::Node* n : b->nodes())
      tasks.push_back(Task{Task::Node, n, nullptr, indent, {}, {}, {}, 0});
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) stack_.push_back(std::move(*it));
  }

  // Pushes tasks to run in the given order.
  void push(std::vector<Task> tasks) {
    for (auto it = tasks.rbegin(); it != tasks.rend(); ++it) stack_.push_back(std::move(*it));
  }

  void run() {
    while (!stack_.empty()) {
      Task t = std::move(stack_.back());
      stack_.pop_back();
      switch (t.kind) {
        case Task::Node:
          node(*t.node, t.indent);
          break;
        case Task::Line:
          line(t.indent, t.text, t.node);
          break;
        case Task::Arm: {
          // The arm's nodes, then its results into the If's (or loop's) variables,
          // then `pass` when it wrote nothing.
          push({Task{Task::PassIfEmpty, nullptr, nullptr, t.indent, {}, {}, {}, lines_}});
          push({Task{Task::Assign, nullptr, nullptr, t.indent, {}, t.dst, t.src, 0}});
          emit_block(t.block, t.indent);
          break;
        }
        case Task::Assign:
          assign(t.indent, t.dst, t.src);
          break;
        case Task::CondAssign:  // a loop's condition variable
          line(t.indent, t.text + " = " + ref(t.src.at(0)));
          break;
        case Task::BreakIf:  // `if c: break` (text "not " to negate c)
          line(t.indent, "if " + t.text + ref(t.src.at(0)) + ":", t.node);
          line(t.indent + 1, "break");
          break;
        case Task::PassIfEmpty:
          if (lines_ == t.mark) line(t.indent, "pass");
          break;
      }
    }
  }

  // dst[i] = src[i] for each i, as one parallel assignment where one would read a
  // variable another has already overwritten (a loop swapping two values).
  void assign(int indent, const std::vector<const ir::Value*>& dst,
              const std::vector<const ir::Value*>& src) {
    std::vector<std::string> lhs, rhs;
    std::unordered_set<std::string> targets;
    for (size_t i = 0; i < dst.size(); ++i) {
      std::string l = ref(dst[i]);
      std::string r = ref(src[i]);
      if (l == r) continue;
      lhs.push_back(l);
      rhs.push_back(r);
      targets.insert(l);
    }
    bool parallel = false;
    for (size_t i = 0; i < rhs.size() && !parallel; ++i) {
      for (size_t j = 0; j < i && !parallel; ++j) parallel = rhs[i] == lhs[j];
    }
    if (parallel) {
      line(indent, join(lhs) + " = " + join(rhs));
      return;
    }
    for (size_t i = 0; i < lhs.size(); ++i) line(indent, lhs[i] + " = " + rhs[i]);
  }

  void node(const ir::Node& n, int indent) {
    if (skip_.count(&n)) return;
    const std::string& k = n.kind();
    if (k == ir::kind::Constant) {
      const IValue* c = n.attr("value");
      if (c && c->is_tensor()) {
        line(indent, namer_.name(n.output(), "const") + " = " + python_literal(*c), &n);
      }
      return;
    }
    if (k == ir::kind::If) return if_node(n, indent);
    if (k == ir::kind::Loop) return loop_node(n, indent);
    if (k == ir::kind::Guard) {
      line(indent,
           "assert " + guard_condition(n, [this](const ir::Value* v) { return ref(v); }) + ", " +
               guard_message(n),
           &n, "guard, ");
      return;
    }
    if (k == ir::kind::RaiseException) {
      line(indent, "assert False, " + ref(n.input(0)), &n);
      return;
    }
    if (has_gradients_ && k == "aten::backward") {
      // A backward graph computes the gradients itself, in the grad nodes below.
      line(indent, "# " + ref(n.input(0)) + ".backward(): its gradients are computed below", &n);
      return;
    }
    const std::string expr = node_expression(n, [this](const ir::Value* v) { return ref(v); });
    std::vector<std::string> outs;
    for (const ir::Value* v : n.outputs()) outs.push_back(namer_.name(v, op_stem(n)));
    // `outs.append(y)`, `xs.__setitem__(i, v)`: a write into a list whose result (the
    // list itself) nothing reads is a statement, as the program wrote it.
    const bool unused_write = n.outputs().size() == 1 && !n.output()->has_uses() &&
                              n.overload() == "t" && ir::mutates_inputs(n);
    if (outs.empty() || unused_write) {
      line(indent, expr, &n);
    } else if ((k == ir::kind::TupleUnpack || k == ir::kind::ListUnpack) && outs.size() == 1) {
      line(indent, outs[0] + ", = " + expr, &n);
    } else {
      line(indent, join(outs) + " = " + expr, &n);
    }
  }

  void if_node(const ir::Node& n, int indent) {
    if (const ir::Node* raise = lowered_assert(n)) {
      line(indent, "assert " + ref(n.input(0)) + ", " + ref(raise->input(0)), &n);
      return;
    }
    ir::IfView v(const_cast<ir::Node*>(&n));
    std::vector<const ir::Value*> outs(n.outputs().begin(), n.outputs().end());
    for (const ir::Value* o : outs) namer_.name(o, "res");
    const auto& then_out = v.then_block()->outputs();
    const auto& else_out = v.else_block()->outputs();
    std::vector<Task> tasks;
    tasks.push_back(Task{Task::Line, &n, nullptr, indent, "if " + ref(v.cond()) + ":", {}, {}, 0});
    tasks.push_back(Task{Task::Arm,
                         nullptr,
                         v.then_block(),
                         indent + 1,
                         {},
                         outs,
                         {then_out.begin(), then_out.end()},
                         0});
    if (!v.else_block()->empty() || !outs.empty()) {
      tasks.push_back(Task{Task::Line, nullptr, nullptr, indent, "else:", {}, {}, 0});
      tasks.push_back(Task{Task::Arm,
                           nullptr,
                           v.else_block(),
                           indent + 1,
                           {},
                           outs,
                           {else_out.begin(), else_out.end()},
                           0});
    }
    push(std::move(tasks));
  }

  void loop_node(const ir::Node& n, int indent) {
    ir::LoopView v(const_cast<ir::Node*>(&n));
    const std::vector<ir::Value*> init = v.carried_inputs();
    const std::vector<ir::Value*> body_in = v.body_carried_inputs();
    const std::vector<ir::Value*> body_out = v.body_carried_outputs();
    // One variable per carried value: set before the loop, reassigned at the end of
    // the body; after the loop it holds the loop's result.
    std::vector<const ir::Value*> vars;
    for (size_t i = 0; i < body_in.size(); ++i) {
      const std::string wanted = !body_in[i]->debug_name().empty()    ? body_in[i]->debug_name()
                                 : !n.output(i)->debug_name().empty() ? n.output(i)->debug_name()
                                                                      : "carried";
      namer_.alias(n.output(i), namer_.name(body_in[i], wanted));
      vars.push_back(body_in[i]);
    }
    assign(indent, vars, {init.begin(), init.end()});

    const bool for_range = !is_no_trip_count(v.max_trip_count());
    const bool cond_true = is_true_constant(v.initial_cond()) && is_true_constant(v.body_cond());
    const ir::Value* index = v.trip_index();
    const std::vector<const ir::Value*> src(body_out.begin(), body_out.end());
    auto line_task = [&](int at, std::string text, const ir::Node* from = nullptr) {
      return Task{Task::Line, from, nullptr, at, std::move(text), {}, {}, 0};
    };
    // `var = <the body's condition>`, written once the body has named it.
    auto cond_task = [&](const std::string& var) {
      return Task{Task::CondAssign, nullptr, nullptr, indent + 1, var, {}, {v.body_cond()}, 0};
    };
    std::vector<Task> tasks;
    if (for_range && cond_true) {
      const std::string i = index->has_uses() ? namer_.name(index, "i") : "_";
      tasks.push_back(
          line_task(indent, "for " + i + " in range(" + ref(v.max_trip_count()) + "):", &n));
      tasks.push_back(Task{Task::Arm, nullptr, v.body(), indent + 1, {}, vars, src, 0});
    } else if (for_range && is_true_constant(v.initial_cond())) {
      // A counted loop that a `break` may end: the body, then the test. A condition
      // that is `not c` (what `if c: break` lowers to) is written as that `if`.
      const std::string i = index->has_uses() ? namer_.name(index, "i") : "_";
      tasks.push_back(
          line_task(indent, "for " + i + " in range(" + ref(v.max_trip_count()) + "):", &n));
      tasks.push_back(Task{Task::Arm, nullptr, v.body(), indent + 1, {}, vars, src, 0});
      const ir::Node* test = v.body_cond()->node();
      if (test->kind() == "aten::__not__" && test->owning_block() == v.body() &&
          test->input(0)->node() != v.body()->param_node() && v.body_cond()->uses().size() == 1) {
        skip_.insert(test);
        tasks.push_back(
            Task{Task::BreakIf, test, nullptr, indent + 1, "", {}, {test->input(0)}, 0});
      } else {
        tasks.push_back(
            Task{Task::BreakIf, nullptr, nullptr, indent + 1, "not ", {}, {v.body_cond()}, 0});
      }
    } else if (for_range) {
      // A counted loop that can also stop on its condition (a `break`), checked
      // before each trip as prim::Loop checks it.
      const std::string c = namer_.fresh("go_on");
      line(indent, c + " = " + ref(v.initial_cond()));
      const std::string i = index->has_uses() ? namer_.name(index, "i") : "_";
      tasks.push_back(
          line_task(indent, "for " + i + " in range(" + ref(v.max_trip_count()) + "):", &n));
      tasks.push_back(line_task(indent + 1, "if not " + c + ":"));
      tasks.push_back(line_task(indent + 2, "break"));
      tasks.push_back(Task{Task::Arm, nullptr, v.body(), indent + 1, {}, vars, src, 0});
      tasks.push_back(cond_task(c));
    } else {
      // A while loop: its condition in a variable, set before and at the end of
      // each trip (and a counter when the body reads the trip index).
      const std::string c = namer_.fresh("go_on");
      line(indent, c + " = " + ref(v.initial_cond()));
      if (index->has_uses()) line(indent, namer_.name(index, "i") + " = 0");
      tasks.push_back(line_task(indent, "while " + c + ":", &n));
      tasks.push_back(Task{Task::Arm, nullptr, v.body(), indent + 1, {}, vars, src, 0});
      tasks.push_back(cond_task(c));
      if (index->has_uses()) {
        const std::string i = ref(index);
        tasks.push_back(line_task(indent + 1, i + " = " + i + " + 1"));
      }
    }
    push(std::move(tasks));
  }

  const CodegenOptions& options_;
  Namer namer_;
  std::vector<Task> stack_;
  std::unordered_set<const ir::Node*> skip_;  // written as part of another statement
  std::string body_;
  size_t lines_ = 0;
};

}  // namespace

std::string generate_python(const ir::Graph& graph, const CodegenOptions& options) {
  return Writer(options).write(graph);
}

}  // namespace d2s::convert
