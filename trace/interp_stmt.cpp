// Statements: blocks, if/for/while/with, assignment targets, imports, def and class.
#include <iostream>
#include <optional>
#include <string>

#include "core/autograd/autograd.h"
#include "trace/interp.h"
#include "trace/py_iterators.h"

namespace d2s::interp {

namespace {

// The modules a program may import, by canonical name.
bool importable(const std::string& name) {
  return name == "torch" || name == "torch.nn" || name == "torch.nn.functional" || name == "math" ||
         name == "typing" || name == "torch.jit" || name == "torch.optim" ||
         name == "torch.optim.lr_scheduler" || name == "torch.nn.utils" || name == "dataclasses" ||
         name == "copy" || name == "torch.onnx" || name == "torch.nn.init" || name == "torch.cuda";
}

// PyTorch's internal module paths that published files import public names from
// (`from torch.nn.modules.module import Module`, `from torch.nn.parameter import
// Parameter`): the public namespace that holds the same objects.
std::string canonical_module(const std::string& name) {
  if (name == "torch.nn.modules" || name.rfind("torch.nn.modules.", 0) == 0 ||
      name == "torch.nn.parameter") {
    return "torch.nn";
  }
  return name;
}

IValue make_namespace(const std::string& qualname) {
  return IValue(std::static_pointer_cast<Object>(std::make_shared<NamespaceValue>(qualname)));
}

}  // namespace

Interpreter::Interpreter(const ast::Module& module, const RunOptions& opts)
    : module_(module),
      registry_(OpRegistry::builtin()),
      generator_(opts.seed),
      limits_(opts.limits),
      out_(opts.out ? opts.out : &std::cout),
      compile_hook_(opts.compile_hook),
      export_hook_(opts.export_hook) {
  op_ctx_.generator = &generator_;
  op_ctx_.training = opts.training;
  frames_.push_back(&module_frame_);
  install_builtins();
  // The file runs as an imported module (as the parity suite and PyTorch's tools load
  // it), so `if __name__ == "__main__":` blocks stay out of an entry's run; the
  // <module> entry runs the file as a script (Program sets "__main__").
  std::string stem = module_.file ? module_.file->path() : std::string("model");
  stem = stem.substr(stem.find_last_of('/') + 1);
  if (stem.size() > 3 && stem.compare(stem.size() - 3, 3, ".py") == 0) stem.resize(stem.size() - 3);
  globals_["__name__"] = IValue(stem);
}

void Interpreter::set_out(std::ostream* out) {
  out_ = out ? out : &std::cout;
}

const IValue* Interpreter::global(const std::string& name) const {
  auto it = globals_.find(name);
  return it == globals_.end() ? nullptr : &it->second;
}

Flow Interpreter::exec_block(const ast::Body& body) {
  // A loop, not recursion: a 50,000-statement program costs no stack.
  for (const ast::StmtPtr& s : body) {
    Flow flow = exec_stmt(*s);
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

void Interpreter::exec_module() {
  Flow flow = exec_block(module_.body);
  if (flow == Flow::Return) {
    fail("SyntaxError: 'return' outside function",
         module_.body.empty() ? SourceRange() : module_.body.front()->range);
  }
}

Flow Interpreter::exec_stmt(const ast::Stmt& s) {
  check_stack(s.range);
  switch (s.kind) {
    case ast::StmtKind::Expr:
      eval(*s.as<ast::ExprStmt>().value);
      return Flow::Normal;
    case ast::StmtKind::Assign: {
      const auto& a = s.as<ast::Assign>();
      IValue value = eval(*a.value);
      // a = b = v assigns left to right, as Python does.
      for (const ast::ExprPtr& target : a.targets) assign(*target, value);
      return Flow::Normal;
    }
    case ast::StmtKind::AugAssign:
      exec_aug_assign(s.as<ast::AugAssign>());
      return Flow::Normal;
    case ast::StmtKind::AnnAssign: {
      const auto& a = s.as<ast::AnnAssign>();
      if (a.value) assign(*a.target, eval(*a.value));
      return Flow::Normal;
    }
    case ast::StmtKind::If:
      return exec_if(s.as<ast::If>());
    case ast::StmtKind::For:
      return exec_for(s.as<ast::For>());
    case ast::StmtKind::While:
      return exec_while(s.as<ast::While>());
    case ast::StmtKind::With:
      return exec_with(s.as<ast::With>());
    case ast::StmtKind::Break:
      return Flow::Break;
    case ast::StmtKind::Continue:
      return Flow::Continue;
    case ast::StmtKind::Return: {
      const auto& r = s.as<ast::Return>();
      if (frames_.back()->info == nullptr) {
        fail("SyntaxError: 'return' outside function", s.range);
      }
      frames_.back()->return_value = r.value ? eval(*r.value) : IValue();
      return Flow::Return;
    }
    case ast::StmtKind::Pass:
      return Flow::Normal;
    case ast::StmtKind::Assert:
      exec_assert(s.as<ast::Assert>());
      return Flow::Normal;
    case ast::StmtKind::FunctionDef:
      exec_def(s.as<ast::FunctionDef>());
      return Flow::Normal;
    case ast::StmtKind::ClassDef:
      exec_class(s.as<ast::ClassDef>());
      return Flow::Normal;
    case ast::StmtKind::Import:
      exec_import(s.as<ast::Import>());
      return Flow::Normal;
    case ast::StmtKind::ImportFrom:
      exec_import_from(s.as<ast::ImportFrom>());
      return Flow::Normal;
    case ast::StmtKind::Try:
      return exec_try(s.as<ast::Try>());
    case ast::StmtKind::Raise:
      exec_raise(s.as<ast::Raise>());
      return Flow::Normal;
    case ast::StmtKind::Delete:
      exec_delete(s.as<ast::Delete>());
      return Flow::Normal;
    case ast::StmtKind::Global:
      return Flow::Normal;  // decided when the function's locals are collected
  }
  return Flow::Normal;
}

Flow Interpreter::exec_if(const ast::If& s) {
  bool taken = truthy(eval(*s.test), s.test->range);
  if (hooks_) hooks_->on_if(s, taken);
  return exec_block(taken ? s.body : s.orelse);
}

// with torch.no_grad() / torch.enable_grad(): the body runs in that grad mode, and the
// previous mode comes back however the body leaves (return, break, an error). The
// context managers' __enter__ returns None, which `as NAME` binds.
Flow Interpreter::exec_with(const ast::With& s) {
  std::optional<GradModeGuard> mode;
  for (const ast::WithItem& item : s.items) {
    ast::GradContext kind = ast::grad_context(*item.context);
    if (kind == ast::GradContext::Other) {
      fail(ast::kOtherContextError, item.context->range, ast::kOtherContextHint);
    }
    mode.emplace(kind == ast::GradContext::EnableGrad);
    if (item.target) assign(*item.target, IValue());
  }
  return exec_block(s.body);
}

void Interpreter::count_iteration(const ast::Stmt& loop, int64_t* trips) {
  ++*trips;
  ++total_iterations_;
  if (*trips > limits_.max_loop_iterations) {
    fail("loop at line " + std::to_string(loop.range.line) + " exceeded the iteration limit (" +
             std::to_string(limits_.max_loop_iterations) +
             " iterations); raise it with --max-iterations",
         loop.range, "a loop whose condition never becomes false runs forever");
  }
  if (total_iterations_ > limits_.max_total_iterations) {
    fail("the program exceeded the total iteration limit (" +
             std::to_string(limits_.max_total_iterations) +
             " loop iterations in one run) in the loop at line " + std::to_string(loop.range.line) +
             "; raise it with --max-iterations",
         loop.range);
  }
}

Flow Interpreter::exec_for(const ast::For& s) {
  IValue iterable = eval(*s.iter);
  int64_t trips = 0;
  // Runs one iteration; true when the loop must stop (break or return).
  Flow result = Flow::Normal;
  auto step = [&](const IValue& item) {
    count_iteration(s, &trips);
    assign(*s.target, item);
    Flow flow = exec_block(s.body);
    if (flow == Flow::Return) result = Flow::Return;
    return flow == Flow::Break || flow == Flow::Return;
  };
  if (auto* r = as_obj<RangeValue>(iterable)) {
    // Lazily, so that a long range costs no memory.
    const int64_t n = r->length();
    for (int64_t i = 0; i < n; ++i) {
      if (step(IValue(r->at(i)))) break;
    }
  } else if (IteratorValue* it = as_iterator(iterable)) {
    // Item by item, so that a `break` stops an endless one (itertools.count) and leaves
    // the rest of a finite one for later next() calls, as in Python.
    while (std::optional<IValue> item = it->next(*this, s.iter->range)) {
      if (step(*item)) break;
    }
  } else if (iterable.is_list()) {
    // Python iterates a list by position, seeing appends made by the body.
    for (size_t i = 0; i < iterable.list_items().size(); ++i) {
      IValue item = iterable.list_items()[i];
      if (step(item)) break;
    }
  } else if (iterable.is_tensor() && iterable.to_tensor().dim() > 0 &&
             iterable.to_tensor().size(0) > limits_.max_loop_iterations) {
    // `for row in x` over more rows than a loop may run: row by row (aten::select), so
    // that the iteration limit stops the loop before every row exists. (Fewer rows go
    // through iterate(): x.unbind(0), as Tensor.__iter__ and torch.jit.trace do.)
    const Tensor& t = iterable.to_tensor();
    IValue n = converted(PyConversion::Len, iterable, IValue(t.size(0)), s.iter->range);
    const int64_t rows = n.is_int() ? n.to_int() : t.size(0);
    for (int64_t i = 0; i < rows; ++i) {
      IValue row =
          call_op("aten::select", {iterable, IValue(int64_t{0}), IValue(i)}, {}, s.iter->range);
      if (step(row)) break;
    }
  } else {
    for (const IValue& item : iterate(iterable, s.iter->range)) {
      if (step(item)) break;
    }
  }
  if (hooks_) hooks_->on_loop(s, trips);
  return result;
}

Flow Interpreter::exec_while(const ast::While& s) {
  int64_t trips = 0;
  Flow result = Flow::Normal;
  while (truthy(eval(*s.test), s.test->range)) {
    count_iteration(s, &trips);
    Flow flow = exec_block(s.body);
    if (flow == Flow::Break) break;
    if (flow == Flow::Return) {
      result = Flow::Return;
      break;
    }
  }
  if (hooks_) hooks_->on_loop(s, trips);
  return result;
}

void Interpreter::store_name(const std::string& name, IValue value) {
  Frame& f = *frames_.back();
  if (f.class_ns) {
    (*f.class_ns)[name] = std::move(value);
  } else if (f.info && f.info->slots.count(name)) {
    (*f.locals)[f.info->slots.at(name)] = std::move(value);
  } else {  // the module level, or a name the function declares `global`
    globals_[name] = std::move(value);
  }
}

void Interpreter::assign(const ast::Expr& target, const IValue& value) {
  switch (target.kind) {
    case ast::ExprKind::Name:
      store_name(target.as<ast::Name>().id, value);
      return;
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const auto& elts = target.kind == ast::ExprKind::Tuple ? target.as<ast::TupleExpr>().elts
                                                             : target.as<ast::ListExpr>().elts;
      ValueList items = iterate(value, target.range);
      if (items.size() != elts.size()) {
        if (items.size() > elts.size()) {
          fail("ValueError: too many values to unpack (expected " + std::to_string(elts.size()) +
                   ")",
               target.range);
        }
        fail("ValueError: not enough values to unpack (expected " + std::to_string(elts.size()) +
                 ", got " + std::to_string(items.size()) + ")",
             target.range);
      }
      for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], items[i]);
      return;
    }
    case ast::ExprKind::Attribute: {
      const auto& a = target.as<ast::Attribute>();
      setattr(eval(*a.value), a.attr, value, target.range);
      return;
    }
    case ast::ExprKind::Subscript: {
      const auto& sub = target.as<ast::Subscript>();
      IValue obj = eval(*sub.value);
      setitem(obj, eval_indices(sub), value, sub);
      return;
    }
    default:
      fail("SyntaxError: cannot assign to this expression", target.range,
           "assign to a name, an attribute, a subscript or a tuple of them");
  }
}

void Interpreter::exec_aug_assign(const ast::AugAssign& s) {
  // Python's order: the target's parts, its current value, then the right side.
  const ast::Expr& target = *s.target;
  switch (target.kind) {
    case ast::ExprKind::Name: {
      IValue old = eval(target);
      IValue rhs = eval(*s.value);
      store_name(target.as<ast::Name>().id, binary(s.op, old, rhs, s.range, /*inplace=*/true));
      return;
    }
    case ast::ExprKind::Attribute: {
      const auto& a = target.as<ast::Attribute>();
      IValue obj = eval(*a.value);
      IValue old = getattr(obj, a.attr, target.range, a.value.get());
      IValue rhs = eval(*s.value);
      setattr(obj, a.attr, binary(s.op, old, rhs, s.range, true), target.range);
      return;
    }
    case ast::ExprKind::Subscript: {
      const auto& sub = target.as<ast::Subscript>();
      IValue obj = eval(*sub.value);
      ValueList index = eval_indices(sub);
      IValue old = subscript(obj, index, sub);
      IValue rhs = eval(*s.value);
      setitem(obj, index, binary(s.op, old, rhs, s.range, true), sub);
      return;
    }
    default:
      fail("SyntaxError: illegal expression for augmented assignment", target.range);
  }
}

void Interpreter::exec_assert(const ast::Assert& s) {
  if (truthy(eval(*s.test), s.test->range)) return;
  std::string message = "AssertionError";
  // The message is evaluated only when the assertion fails, as in Python.
  if (s.msg) {
    std::string text = py_str(eval(*s.msg));
    if (!text.empty()) message += ": " + text;
  }
  // Exit code 1, as the executor's prim::RaiseException (core/exec/run.cpp): a failed
  // assertion is a check the program made on its input, not an unusable program.
  throw Error(message, s.range,
              "the assertion `" + text_of(s.test->range) + "` at line " +
                  std::to_string(s.range.line) + " failed",
              1);
}

void Interpreter::exec_import(const ast::Import& s) {
  for (const ast::ImportAlias& alias : s.names) {
    const std::string top = alias.name.substr(0, alias.name.find('.'));
    // `import torch.utils.data` binds `torch`, the package, as Python does: whether d2s
    // implements the submodule matters only where it is used, so `torch` stays torch.
    const std::string module = alias.asname.empty() ? top : alias.name;
    const std::string bound = alias.asname.empty() ? top : alias.asname;
    if (importable(canonical_module(module))) {
      store_name(bound, make_namespace(alias.asname.empty() ? top : canonical_module(module)));
    } else {
      // A module d2s does not implement: bound, and an error only when used.
      store_name(bound, IValue(std::static_pointer_cast<Object>(
                            std::make_shared<ForeignValue>(module, alias.range))));
    }
  }
}

void Interpreter::exec_import_from(const ast::ImportFrom& s) {
  if (s.module == "__future__") return;  // `from __future__ import annotations`
  const std::string module = canonical_module(s.module);
  if (!importable(module)) {
    for (const ast::ImportAlias& alias : s.names) {
      // `from collections import OrderedDict`: a piece d2s implements, or a foreign name.
      std::optional<IValue> known = stdlib_value(s.module + "." + alias.name);
      store_name(alias.asname.empty() ? alias.name : alias.asname,
                 known ? *known
                       : IValue(std::static_pointer_cast<Object>(std::make_shared<ForeignValue>(
                             s.module + "." + alias.name, alias.range))));
    }
    return;
  }
  for (const ast::ImportAlias& alias : s.names) {
    std::string qualname = module + "." + alias.name;
    IValue value = importable(qualname) ? make_namespace(qualname)
                                        : resolve_qualified(qualname, qualname, alias.range);
    store_name(alias.asname.empty() ? alias.name : alias.asname, std::move(value));
  }
}

void Interpreter::exec_def(const ast::FunctionDef& s) {
  Frame& frame = *frames_.back();
  auto fn = make_function(s, frame.class_ns ? frame.class_name + "." + s.name : s.name);
  store_name(s.name, apply_compile_decorators(s, IValue(std::static_pointer_cast<Object>(fn))));
}

void Interpreter::exec_class(const ast::ClassDef& s) {
  Frame& outer = *frames_.back();
  if (outer.info || outer.class_ns) {
    fail("classes inside functions or classes are not supported by d2s", s.name_range,
         "define '" + s.name + "' at the top level of the file");
  }
  auto cls = std::make_shared<ClassValue>();
  cls->def = &s;
  cls->name = s.name;
  for (const ast::ExprPtr& base_expr : s.bases) {
    IValue base = eval(*base_expr);
    if (auto* b = as_obj<BuiltinValue>(base); b && b->qualname == "torch.nn.Module") {
      cls->is_module = true;
    } else if (auto* bb = as_obj<BuiltinValue>(base);
               bb &&
               (bb->qualname == "torch.nn.Sequential" || bb->qualname == "torch.nn.ModuleList" ||
                bb->qualname == "torch.nn.ModuleDict")) {
      // class Block(nn.Sequential): its instances are containers (py_classes.cpp).
      cls->is_module = true;
      cls->nn_base = bb->qualname == "torch.nn.Sequential"   ? NnKind::Sequential
                     : bb->qualname == "torch.nn.ModuleList" ? NnKind::ModuleList
                                                             : NnKind::ModuleDict;
    } else if (auto* c = as_obj<ClassValue>(base)) {
      if (cls->base) {
        fail("multiple inheritance is not supported by d2s", base_expr->range,
             "derive '" + s.name + "' from one class");
      }
      cls->base = std::static_pointer_cast<ClassValue>(base.to_object());
      cls->is_module = cls->is_module || c->is_module;
      cls->nn_base = c->nn_base;
    } else if (!(as_obj<BuiltinValue>(base) && as_obj<BuiltinValue>(base)->qualname == "object")) {
      fail("class '" + s.name + "' derives from " + text_of(base_expr->range) +
               ", which d2s does not support",
           base_expr->range, "derive model classes from nn.Module");
    }
  }
  // The body runs in its own namespace: its defs become methods.
  Frame frame;
  frame.class_ns = &cls->attrs;
  frame.class_name = s.name;
  frame.owner = cls;
  frames_.push_back(&frame);
  try {
    Flow flow = exec_block(s.body);
    if (flow != Flow::Normal) fail("SyntaxError: 'return' outside function", s.range);
  } catch (...) {
    frames_.pop_back();
    throw;
  }
  frames_.pop_back();
  apply_dataclass(*cls, s);
  store_name(s.name, IValue(std::static_pointer_cast<Object>(cls)));
}

}  // namespace d2s::interp
