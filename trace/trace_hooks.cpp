// The tracer's InterpreterHooks: ops → nodes, Python decisions → constants and guards,
// prints, branches, loops and calls → the TraceLog.
#include "trace/trace_hooks.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "core/autograd/autograd.h"

namespace d2s::trace_detail {

namespace {

// Ops whose result a traced graph treats as fixed: the rank and dtype of a tensor are
// pinned by the input types (and the shape guards), as in torch.jit.trace.
bool is_metadata_op(const std::string& name) {
  return name == "aten::dim" || name == "prim::dtype" || name == "aten::is_floating_point";
}

// The source text of a one-line range (what to_python gets as `text`).
std::string text_of(const SourceRange& range) {
  if (!range.file || !range.known()) return {};
  std::string_view line = range.file->line_text(range.line);
  const size_t start = static_cast<size_t>(std::max(range.col - 1, 0));
  if (start >= line.size()) return {};
  return std::string(line.substr(start, static_cast<size_t>(std::max(range.len, 1))));
}

// Conversions that produce a number the program keeps computing with: the tracer hands
// back a baked SymbolicNumber so that later decisions on it know where it came from.
// (Truth values, range() arguments and indices are consumed on the spot.)
bool keeps_number(PyConversion kind) {
  return kind == PyConversion::Int || kind == PyConversion::Float || kind == PyConversion::Item ||
         kind == PyConversion::Len;
}

}  // namespace

TraceHooks::TraceHooks(TraceBuilder& builder, TraceLog& log, bool guards, const ast::Module& module)
    : builder_(builder), log_(log), guards_(guards), headers_(module) {}

// ------------------------------------------------------------------------ ops

void TraceHooks::before_write(const OpDef& op, const ValueList& args, const SourceRange& range) {
  // A buffer written in place (num_batches_tracked.add_(1), batch_norm's running
  // statistics) becomes a constant holding its value before the write; the recorded
  // op then writes that constant when the graph runs, as the program wrote the buffer.
  for (size_t i : op.schema.written_arguments()) {
    if (i < args.size() && args[i].is_tensor() && args[i].to_tensor().defined()) {
      builder_.tensor_value(args[i].to_tensor(), range);
    }
  }
}

IValue TraceHooks::after_op(const OpDef& op, const ValueList& args, const ValueList& given,
                            IValue result, const SourceRange& range) {
  const bool graph_input = std::any_of(given.begin(), given.end(), has_graph_value);
  if (!graph_input && !contains_tensor(result)) {
    // Python arithmetic on plain numbers (`i + 1`): a constant wherever it is used.
    // On a value baked from data it stays marked as such, for the log's provenance.
    if (result.is_number() && std::any_of(given.begin(), given.end(), has_symbolic)) {
      Provenance from = Provenance::Constant;
      for (const IValue& g : given) from = combine(from, provenance_of(g));
      return make_baked(std::move(result), from, range);
    }
    return result;
  }
  const std::string& name = op.schema.name;
  if (is_metadata_op(name)) return result;
  if ((name == "aten::size" || name == "aten::numel") && !given.empty() && given[0].is_tensor() &&
      (given.size() < 2 || !as_symbolic(given[1]))) {
    return sizes(op, args, std::move(result), range);
  }
  if (!contains_tensor(result) && !result.is_number()) {
    bake_inputs(given, range);
    return result;
  }
  return record(op, args, given, std::move(result), range);
}

IValue TraceHooks::sizes(const OpDef& op, const ValueList& args, IValue result,
                         const SourceRange& range) {
  const Tensor& t = args[0].to_tensor();
  ir::Value* tensor = builder_.tensor_value(t, range);
  // A constant tensor's sizes are constants too.
  if (TraceBuilder::is_constant(tensor)) return result;
  auto leaf = [&](int64_t dim, IValue value) {
    auto s = std::make_shared<SymbolicNumber>();
    s->value = std::move(value);
    s->size_of = tensor;
    s->dim = dim;
    s->range = range;
    s->from = Provenance::Shape;
    return make_symbolic(std::move(s));
  };
  if (op.schema.name == "aten::numel") return leaf(SymbolicNumber::kNumel, std::move(result));
  if (op.schema.arguments.size() == 1) {
    // torch.Size: one lazy size per dimension, as torch.jit.trace's x.shape[i].
    ValueList items;
    const ValueList& dims = result.items();
    for (size_t d = 0; d < dims.size(); ++d)
      items.push_back(leaf(static_cast<int64_t>(d), dims[d]));
    return IValue::list(std::move(items));
  }
  int64_t dim = args[1].to_int();
  if (dim < 0) dim += t.dim();
  return leaf(dim, std::move(result));
}

IValue TraceHooks::record(const OpDef& op, const ValueList& args, const ValueList& given,
                          IValue result, const SourceRange& range) {
  const OpSchema& schema = op.schema;
  std::vector<ir::Value*> inputs;
  inputs.reserve(given.size());
  Provenance from = Provenance::Constant;
  for (size_t i = 0; i < given.size(); ++i) {
    const std::string& type = i < schema.arguments.size() ? schema.arguments[i].type : "Any";
    const IValue& concrete = i < args.size() ? args[i] : given[i];
    inputs.push_back(builder_.value_for(given[i], concrete, type, range));
    from = combine(from, provenance_of(given[i]));
  }
  // Several declared returns come back as a tuple, one node output each.
  const size_t returns = schema.returns.size();
  const bool multi = returns > 1 && result.is_tuple() && result.tuple_items().size() == returns;
  ir::Node* node = builder_.insert(schema.name, inputs, multi ? returns : 1, range);
  node->set_overload(schema.overload);
  // Recorded under torch.no_grad(): the graph runs it so (docs/autograd.md).
  if (!grad_mode_enabled()) node->set_attr(ir::kAttrGradEnabled, IValue(false));
  if (!multi) return bind_output(node->output(), std::move(result), from, range);
  ValueList items;
  for (size_t k = 0; k < returns; ++k) {
    items.push_back(bind_output(node->output(k), result.tuple_items()[k], from, range));
  }
  return IValue::tuple(std::move(items));
}

IValue TraceHooks::bind_output(ir::Value* out, IValue value, Provenance from,
                               const SourceRange& range) {
  out->set_type(traced_type(value));
  if (value.is_tensor()) {
    builder_.bind_tensor(value.to_tensor(), out);
    return value;
  }
  if (value.is_number()) {
    // A number computed from tensors or sizes (x.size(0) * 2, x.shape == (2, 3)) stays
    // symbolic: ops use its graph value, and Python decisions on it are guarded.
    auto s = std::make_shared<SymbolicNumber>();
    s->value = std::move(value);
    s->graph = out;
    s->range = range;
    s->from = from;
    return make_symbolic(std::move(s));
  }
  if ((value.is_list() || value.is_tuple()) && contains_tensor(value)) {
    // torch.chunk and friends: the list is unpacked into one value per item, its length
    // fixed by the trace (as torch.jit.trace does). The length may come from a size
    // (`x.split(2)`), so it is guarded.
    const ValueList& items = value.items();
    if (guards_) {
      ir::Node* len = builder_.insert("aten::len", {out}, 1, range);
      len->set_overload("t");
      len->output()->set_type(ir::Type::of_int());
      guard(len->output(), IValue(static_cast<int64_t>(items.size())), "len", text_of(range),
            range);
    }
    ir::Node* unpack = builder_.insert(
        value.is_list() ? ir::kind::ListUnpack : ir::kind::TupleUnpack, {out}, items.size(), range);
    ValueList bound;
    bound.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      bound.push_back(bind_output(unpack->output(i), items[i], from, range));
    }
    return value.is_list() ? IValue::list(std::move(bound)) : IValue::tuple(std::move(bound));
  }
  return value;
}

void TraceHooks::bake_inputs(const ValueList& given, const SourceRange& range) {
  std::vector<const IValue*> stack;
  for (const IValue& g : given) stack.push_back(&g);
  while (!stack.empty()) {
    const IValue* v = stack.back();
    stack.pop_back();
    if (v->is_list() || v->is_tuple()) {
      for (const IValue& item : v->items()) stack.push_back(&item);
      continue;
    }
    SymbolicNumber* s = as_symbolic(*v);
    if (!s || s->baked()) continue;
    TraceConversion c;
    c.seq = log_.events++;
    c.kind = PyConversion::Scalar;
    c.expr = text_of(s->range);
    c.range = range;
    c.seen = s->value;
    c.source = ConversionSource::Symbolic;
    c.from = s->from;
    if (guards_) {
      ir::Value* now = builder_.number_value(*s);
      if (first_guard(now, c.kind, s->value))
        guard(now, s->value, py_conversion_name(c.kind), c.expr, range);
      c.guarded = true;
    }
    headers_.note(range, c.from);
    log_.conversions.push_back(std::move(c));
  }
}

// ---------------------------------------------------------------- conversions

void TraceHooks::guard(ir::Value* value, const IValue& seen, const std::string& what,
                       const std::string& expr, const SourceRange& range) {
  ir::Node* n = builder_.insert(ir::kind::Guard, {value}, 0, range);
  n->set_attr("seen", seen);
  n->set_attr("expr", IValue(expr));
  n->set_attr("what", IValue(what));
  ++log_.guards;
}

bool TraceHooks::first_guard(const ir::Value* v, PyConversion kind, const IValue& seen) {
  std::vector<Guarded>& done = guarded_[v];
  for (const Guarded& g : done) {
    if (g.kind == kind && g.seen.type_name() == seen.type_name() && g.seen.repr() == seen.repr())
      return false;
  }
  done.push_back(Guarded{kind, seen});
  return true;
}

ir::Value* TraceHooks::conversion_value(PyConversion kind, ir::Value* tensor,
                                        const IValue& python_value, const SourceRange& range) {
  const char* op = "aten::Int";
  const char* overload = "Tensor";
  switch (kind) {
    case PyConversion::Bool:
      op = "aten::Bool";
      overload = "Any";
      break;
    case PyConversion::Item:
      op = "aten::item";
      overload = "";
      break;
    case PyConversion::Float:
      op = "aten::Float";
      break;
    case PyConversion::Len:
      op = "aten::len";
      break;
    case PyConversion::Int:
    case PyConversion::RangeArg:
    case PyConversion::Index:
    case PyConversion::Scalar:
      break;  // an integer from a one-element tensor: aten::Int
  }
  ir::Node* n = builder_.insert(op, {tensor}, 1, range);
  n->set_overload(overload);
  n->output()->set_type(ir::type_of(python_value));
  return n->output();
}

IValue TraceHooks::to_python(PyConversion kind, const IValue& value, IValue python_value,
                             const SourceRange& range, const std::string& text) {
  TraceConversion c;
  c.seq = log_.events++;
  c.kind = kind;
  c.expr = text;
  c.range = range;
  c.seen = python_value;
  IValue result = python_value;
  if (value.is_tensor()) {
    c.source = ConversionSource::Tensor;
    c.from = kind == PyConversion::Len ? Provenance::Shape : Provenance::Data;
    if (guards_) {
      ir::Value* tensor = builder_.tensor_value(value.to_tensor(), range);
      if (first_guard(tensor, kind, python_value)) {
        ir::Value* now = conversion_value(kind, tensor, python_value, range);
        guard(now, python_value, py_conversion_name(kind), text, range);
      }
      c.guarded = true;
    }
    if (keeps_number(kind)) result = make_baked(python_value, c.from, range);
  } else if (SymbolicNumber* s = as_symbolic(value)) {
    c.from = s->from;
    c.source = s->baked() ? ConversionSource::Baked : ConversionSource::Symbolic;
    if (!s->baked() && guards_) {
      // A truth value is guarded as a truth value (other sizes that decide the same way
      // pass); anything else on the exact number.
      const IValue& seen = kind == PyConversion::Bool ? python_value : s->value;
      ir::Value* now = builder_.number_value(*s);
      if (first_guard(now, kind, seen)) guard(now, seen, py_conversion_name(kind), text, range);
      c.guarded = true;
    }
  } else {
    c.source = ConversionSource::Baked;
    c.from = Provenance::Constant;
  }
  headers_.note(range, c.from);
  log_.conversions.push_back(std::move(c));
  return result;
}

// ---------------------------------------------------------------- the log

void TraceHooks::on_print(const ValueList& args, const std::string& text,
                          const SourceRange& range) {
  (void)args;
  log_.prints.push_back(TracePrint{log_.events++, range, text});
}

void TraceHooks::on_if(const ast::If& stmt, bool taken) {
  TraceIf e;
  e.seq = log_.events++;
  e.range = stmt.range;
  e.test_range = stmt.test->range;
  e.is_elif = stmt.is_elif;
  e.taken = taken;
  e.from = headers_.take(stmt);
  log_.ifs.push_back(std::move(e));
}

void TraceHooks::on_loop(const ast::Stmt& stmt, int64_t trips) {
  TraceLoop e;
  e.seq = log_.events++;
  e.range = stmt.range;
  e.header_range = HeaderIndex::header_of(stmt);
  e.is_while = stmt.kind == ast::StmtKind::While;
  e.trips = trips;
  e.from = headers_.take(stmt);
  log_.loops.push_back(std::move(e));
}

void TraceHooks::on_call_enter(const ast::FunctionDef& fn, const std::string& name,
                               const SourceRange& call_range) {
  log_.calls.push_back(TraceCall{log_.events++, name, call_range, fn.name_range, depth_++});
}

void TraceHooks::on_call_exit(const ast::FunctionDef& fn) {
  (void)fn;
  --depth_;
}

}  // namespace d2s::trace_detail
