// The tracer's values: the tensor → graph value map, symbolic numbers, constants.
#include "trace/trace_values.h"

#include <utility>

#include "core/base/error.h"

namespace d2s::trace_detail {

namespace {

// Lists and tuples in op arguments nest a few levels at most; the interpreter already
// refuses values nested deeper than it can handle, so recursion here is bounded by that.
const ValueList* items_of(const IValue& v) {
  return v.is_list() || v.is_tuple() ? &v.items() : nullptr;
}

bool type_matches(const ir::Type& type, const Tensor& t) {
  if (!type.is_tensor() || !type.dtype || *type.dtype != t.dtype() || !type.shape) return false;
  const std::vector<ir::Dim>& dims = *type.shape;
  if (dims.size() != t.shape().size()) return false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].size != t.shape()[i]) return false;
  }
  return true;
}

}  // namespace

SymbolicNumber* as_symbolic(const IValue& v) {
  return v.is_object() ? dynamic_cast<SymbolicNumber*>(v.to_object().get()) : nullptr;
}

IValue make_symbolic(std::shared_ptr<SymbolicNumber> s) {
  return IValue(std::static_pointer_cast<Object>(std::move(s)));
}

IValue make_baked(IValue value, Provenance from, const SourceRange& range) {
  auto s = std::make_shared<SymbolicNumber>();
  s->value = std::move(value);
  s->from = from;
  s->range = range;
  return make_symbolic(std::move(s));
}

bool has_graph_value(const IValue& v) {
  if (v.is_tensor()) return true;
  if (SymbolicNumber* s = as_symbolic(v)) return !s->baked();
  if (const ValueList* items = items_of(v)) {
    for (const IValue& item : *items) {
      if (has_graph_value(item)) return true;
    }
  }
  return false;
}

bool has_symbolic(const IValue& v) {
  if (as_symbolic(v)) return true;
  if (const ValueList* items = items_of(v)) {
    for (const IValue& item : *items) {
      if (has_symbolic(item)) return true;
    }
  }
  return false;
}

bool contains_tensor(const IValue& v) {
  if (v.is_tensor()) return true;
  if (const ValueList* items = items_of(v)) {
    for (const IValue& item : *items) {
      if (contains_tensor(item)) return true;
    }
  }
  return false;
}

Provenance provenance_of(const IValue& v) {
  if (v.is_tensor()) return Provenance::Data;
  if (SymbolicNumber* s = as_symbolic(v)) return s->from;
  Provenance p = Provenance::Constant;
  if (const ValueList* items = items_of(v)) {
    for (const IValue& item : *items) p = combine(p, provenance_of(item));
  }
  return p;
}

IValue concrete_value(const IValue& v) {
  if (SymbolicNumber* s = as_symbolic(v)) return s->value;
  if (!has_symbolic(v)) return v;
  ValueList out;
  for (const IValue& item : v.items()) out.push_back(concrete_value(item));
  return v.is_list() ? IValue::list(std::move(out)) : IValue::tuple(std::move(out));
}

ir::Type traced_type(const IValue& v) {
  return ir::type_of(concrete_value(v));
}

// ------------------------------------------------------------------- TraceBuilder

TraceBuilder::TraceBuilder(ir::Graph& graph, int64_t max_nodes)
    : graph_(graph), max_nodes_(max_nodes) {}

ir::Node* TraceBuilder::insert(const std::string& kind, const std::vector<ir::Value*>& inputs,
                               size_t num_outputs, const SourceRange& range) {
  if (++nodes_ > max_nodes_) {
    throw Error("trace exceeded " + std::to_string(max_nodes_) + " nodes", range,
                "a trace unrolls every loop and inlines every call; raise the limit with "
                "--max-trace-nodes, or convert this program with `d2s parse`");
  }
  return graph_.insert(kind, inputs, num_outputs, range);
}

ir::Value* TraceBuilder::constant(const IValue& value, const SourceRange& range) {
  ir::Node* n = insert(ir::kind::Constant, {}, 1, range);
  n->set_attr("value", value);
  n->output()->set_type(ir::type_of(value));
  return n->output();
}

void TraceBuilder::bind_tensor(const Tensor& t, ir::Value* v) {
  if (!t.defined()) return;  // an absent optional tensor: nothing to identify
  const TensorImpl* impl = t.impl();
  *tensors_.insert(impl).first = Entry{v, impl->storage.get(), impl->storage};
}

bool TraceBuilder::is_constant(const ir::Value* v) {
  return v->node()->kind() == ir::kind::Constant;
}

ir::Value* TraceBuilder::tensor_value(const Tensor& t, const SourceRange& range) {
  if (const Entry* found = tensors_.find(t.impl())) {
    const Entry& e = *found;
    // The address may belong to a newer tensor than the one bound: accept the entry only
    // while its storage lives and is this tensor's, with the same dtype and shape —
    // then it holds the very data the bound value stands for.
    if (e.storage == t.impl()->storage.get() && !e.alive.expired() &&
        type_matches(e.value->type(), t)) {
      return e.value;
    }
  }
  // Not made by a recorded op: a module-level tensor, an attribute, a tensor built by
  // Python code. Its value now is a constant of the trace (a copy, so that later
  // in-place updates of the program's tensor do not change the graph).
  ir::Value* v = constant(IValue(t.defined() ? t.clone() : t), range);
  if (t.defined()) bind_tensor(t, v);
  return v;
}

ir::Value* TraceBuilder::number_value(SymbolicNumber& s) {
  if (s.graph) return s.graph;
  if (!s.size_of) return constant(s.value, s.range);  // baked: a constant of the trace
  ir::Value*& cached = sizes_[SizeKey{s.size_of, s.dim}];
  if (!cached) {
    ir::Node* n;
    if (s.dim == SymbolicNumber::kNumel) {
      n = insert("aten::numel", {s.size_of}, 1, s.range);
    } else {
      ir::Value* dim = constant(IValue(s.dim), s.range);
      n = insert("aten::size", {s.size_of, dim}, 1, s.range);
      n->set_overload("int");
    }
    n->output()->set_type(ir::Type::of_int());
    cached = n->output();
  }
  s.graph = cached;
  return s.graph;
}

ir::Value* TraceBuilder::whole_size(const ValueList& items, const SourceRange& range) {
  if (items.empty()) return nullptr;
  ir::Value* tensor = nullptr;
  for (size_t i = 0; i < items.size(); ++i) {
    SymbolicNumber* s = as_symbolic(items[i]);
    if (!s || !s->size_of || s->dim != static_cast<int64_t>(i)) return nullptr;
    if (tensor && s->size_of != tensor) return nullptr;
    tensor = s->size_of;
  }
  const ir::Type& type = tensor->type();
  if (!type.shape || type.shape->size() != items.size()) return nullptr;
  ir::Node* n = insert("aten::size", {tensor}, 1, range);
  n->output()->set_type(ir::Type::list(ir::Type::of_int()));
  return n->output();
}

ir::Value* TraceBuilder::sequence_value(const ValueList& given, const ValueList& concrete,
                                        bool as_list, const SourceRange& range) {
  if (as_list) {
    if (ir::Value* sizes = whole_size(given, range)) return sizes;
  }
  std::vector<ir::Value*> items;
  std::vector<ir::Type> types;
  items.reserve(given.size());
  for (size_t i = 0; i < given.size(); ++i) {
    const IValue& c = i < concrete.size() ? concrete[i] : given[i];
    items.push_back(value_for(given[i], c, "Any", range));
    types.push_back(items.back()->type());
  }
  ir::Node* n =
      insert(as_list ? ir::kind::ListConstruct : ir::kind::TupleConstruct, items, 1, range);
  if (as_list) {
    ir::Type elem = types.empty() ? ir::Type::any() : types.front();
    for (const ir::Type& t : types) {
      if (!(t == elem))
        elem = t.is_tensor() && elem.is_tensor() ? ir::Type::tensor() : ir::Type::any();
    }
    n->output()->set_type(ir::Type::list(std::move(elem)));
  } else {
    n->output()->set_type(ir::Type::tuple(std::move(types)));
  }
  return n->output();
}

ir::Value* TraceBuilder::value_for(const IValue& given, const IValue& concrete,
                                   const std::string& arg_type, const SourceRange& range) {
  if (SymbolicNumber* s = as_symbolic(given)) {
    // A baked value is a constant of the trace, as the kernel got it (converted to the
    // argument's type), placed where it was baked.
    if (s->baked()) return constant(concrete, s->range);
    // `torch.zeros(n)`: binding made the int an int[]; the graph says so too.
    if (concrete.is_list()) return sequence_value({given}, concrete.items(), true, range);
    return number_value(*s);
  }
  if (given.is_tensor()) return tensor_value(given.to_tensor(), range);
  if (const ValueList* items = items_of(given); items && has_graph_value(given)) {
    // An int[] argument given as a tuple is still a list to the op, as in TorchScript.
    const bool as_list = given.is_list() || arg_type.find("[]") != std::string::npos;
    const ValueList* c = items_of(concrete);
    return sequence_value(*items, c ? *c : *items, as_list, range);
  }
  // Plain values, and lists of plain and baked values: the value the kernel got.
  return constant(has_symbolic(concrete) ? concrete_value(concrete) : concrete, range);
}

}  // namespace d2s::trace_detail
