// Subscripts: Python indexing and slicing of lists, tuples, str, torch.Size and range;
// tensor indexing lowered to aten::select / aten::slice / aten::unsqueeze chains and,
// for tensor, list and mask indices, aten::index, as TorchScript lowers it; item
// assignment (aten::index_put_ for x[mask] = v).
#include <algorithm>

#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

// One step of a tensor subscript, applied to the result of the previous one.
struct IndexStep {
  enum Kind { Select, Slice, Unsqueeze } kind;
  int64_t dim;
  IValue a, b, c;  // select: index; slice: start, end, step
};

std::string seq_kind(const IValue& v) {
  if (v.is_list()) return "list";
  if (v.is_string()) return "string";
  if (as_obj<RangeValue>(v)) return "range object";
  return "tuple";
}

// Python's slice.indices(n) followed by the positions it selects.
std::vector<int64_t> slice_positions(int64_t n, std::optional<int64_t> start,
                                     std::optional<int64_t> stop, int64_t step) {
  const int64_t lower = step > 0 ? 0 : -1;
  const int64_t upper = step > 0 ? n : n - 1;
  auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    return *v < 0 ? std::max(*v + n, lower) : std::min(*v, upper);
  };
  int64_t b = clamp(start, step > 0 ? lower : upper);
  int64_t e = clamp(stop, step > 0 ? upper : lower);
  std::vector<int64_t> out;
  for (int64_t i = b; step > 0 ? i < e : i > e; i += step) out.push_back(i);
  return out;
}

}  // namespace

IValue Interpreter::subscript(const IValue& o, const ValueList& index, const ast::Subscript& e) {
  if (o.is_tensor()) return index_tensor(o, index, e);
  // A typing generic used as a value (`torch.jit.annotate(List[Tensor], [])`): eager
  // Python makes an alias of it that nothing here looks into.
  if (auto* b = as_obj<BuiltinValue>(o); b && b->qualname.rfind("typing.", 0) == 0) return o;
  if (DictValue* d = as_dict(o); d && !d->is_set) {
    return d->get(*this, index.size() == 1 ? index[0] : IValue::tuple(index), e.range);
  }
  const ValueList* items = seq_items(o);
  auto* range_obj = as_obj<RangeValue>(o);
  if (items || o.is_string() || range_obj) {
    const std::string kind = seq_kind(o);
    // Conversions report the index expression itself (`x.size(0)` in `lst[x.size(0)]`).
    const SourceRange& at = e.indices.size() == 1 ? e.indices[0]->range : e.range;
    if (index.size() != 1) {
      fail("TypeError: " + kind + " indices must be integers or slices, not tuple", e.range);
    }
    const int64_t n = items       ? static_cast<int64_t>(items->size())
                      : range_obj ? range_obj->length()
                                  : static_cast<int64_t>(o.to_string().size());
    auto item_at = [&](int64_t i) -> IValue {
      if (items) return (*items)[i];
      if (range_obj) return IValue(range_obj->at(i));
      return IValue(o.to_string().substr(i, 1));
    };
    if (auto* s = as_obj<SliceValue>(index[0])) {
      auto bound = [&](const IValue& v) -> std::optional<int64_t> {
        if (v.is_none()) return std::nullopt;
        return to_index(v, PyConversion::Index, at,
                        "slice indices must be integers or None or have an __index__ method");
      };
      int64_t step = s->step.is_none() ? 1 : *bound(s->step);
      if (step == 0) fail("ValueError: slice step cannot be zero", e.range);
      ValueList out;
      std::string str;
      for (int64_t i : slice_positions(n, bound(s->start), bound(s->stop), step)) {
        if (o.is_string())
          str += o.to_string()[i];
        else
          out.push_back(item_at(i));
      }
      if (o.is_string()) return IValue(str);
      if (o.is_list() || range_obj) return IValue::list(std::move(out));
      if (as_obj<SizeValue>(o)) return make_size(std::move(out));
      return IValue::tuple(std::move(out));
    }
    int64_t i =
        to_index(index[0], PyConversion::Index, at, kind + " indices must be integers or slices");
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail("IndexError: " + kind + " index out of range", e.range);
    return item_at(i);
  }
  if (is_module_dict(o) && index.size() == 1) return module_dict_getitem(o, index[0], e.range);
  if (auto* inst = as_obj<InstanceValue>(o);
      inst && (inst->nn == NnKind::Sequential || inst->nn == NnKind::ModuleList) &&
      index.size() == 1) {
    const int64_t n = static_cast<int64_t>(inst->children.size());
    int64_t i = to_index(index[0], PyConversion::Index, e.range, "module indices must be integers");
    if (i < 0) i += n;
    if (i < 0 || i >= n)
      fail("IndexError: index " + std::to_string(i) + " is out of range", e.range);
    return *inst->get(inst->children[i]);
  }
  fail("TypeError: '" + py_type_name(o) + "' object is not subscriptable", e.value->range);
}

// Plans a tensor subscript as PyTorch's applySlicing does: ints select (the dimension
// goes away), slices narrow, None inserts a dimension, and tensors, lists and ranges
// are advanced indices (each counts one dimension, where it stands after the basic
// steps). A full `:` is no op at all.
struct TensorIndexPlan {
  std::vector<IndexStep> steps;
  ValueList advanced;  // aten::index's indices: one per dim, None where not indexed
};

// A list, tuple or range inside a subscript as the index tensor PyTorch makes of it:
// bools give a mask, ints a long tensor (aten::tensor, as TorchScript converts it).
static IValue sequence_index(Interpreter& in, const IValue& v, const SourceRange& at) {
  ValueList items;
  if (auto* r = as_obj<RangeValue>(v)) {
    std::vector<int64_t> positions;
    for (int64_t i = 0; i < r->length(); ++i) positions.push_back(r->at(i));
    items = IValue::int_list(positions).items();
  } else {
    items = v.items();
  }
  bool all_bool = !items.empty();
  for (const IValue& item : items) {
    all_bool = all_bool && item.is_bool();
    if (!item.is_int() && !item.is_bool() && !as_obj<SymbolicValue>(item)) {
      in.fail("IndexError: a list used as a tensor index must hold ints or bools, not " +
                  py_type_name(item),
              at, "index with a tensor of indices, or with one list of ints");
    }
  }
  const int64_t dtype = dtype_scalar_type(all_bool ? DType::Bool : DType::Int64);
  Kwargs kwargs;
  kwargs.emplace_back("dtype", IValue(dtype));
  ValueList args;
  args.push_back(IValue::list(std::move(items)));
  return in.call_op("aten::tensor", std::move(args), std::move(kwargs), at);
}

static bool is_sequence_index(const IValue& v) {
  return v.is_list() || v.is_tuple() || as_obj<RangeValue>(v);
}

static TensorIndexPlan plan_tensor_index(Interpreter& in, const Tensor& t, ValueList index,
                                         const ast::Subscript& e) {
  // NumPy's legacy rule, as PyTorch keeps it: a single list that holds lists, tensors,
  // slices, None or ... is a tuple of indices (`x[[rows, cols]]`).
  std::vector<SourceRange> ranges;
  for (const ast::ExprPtr& ex : e.indices) ranges.push_back(ex->range);
  if (index.size() == 1 && index[0].is_list()) {
    bool as_tuple = false;
    for (const IValue& item : index[0].items()) {
      as_tuple = as_tuple || item.is_list() || item.is_tuple() || item.is_tensor() ||
                 item.is_none() || as_obj<SliceValue>(item) || as_obj<EllipsisValue>(item);
    }
    if (as_tuple) {
      ValueList items = index[0].items();
      index = items;
      ranges.assign(index.size(), e.indices[0]->range);
    }
  }
  int64_t consumed = 0;
  int ellipses = 0;
  for (const IValue& v : index) {
    if (as_obj<EllipsisValue>(v)) {
      if (++ellipses > 1)
        in.fail("IndexError: an index can only have a single ellipsis ('...')", e.range);
    } else if (v.is_tensor() && v.to_tensor().dtype() == DType::Bool) {
      consumed += v.to_tensor().dim();  // a mask stands for its dims
    } else if (!v.is_none()) {
      ++consumed;
    }
  }
  if (consumed > t.dim()) {
    in.fail("IndexError: too many indices for tensor of dimension " + std::to_string(t.dim()),
            e.range);
  }
  TensorIndexPlan plan;
  std::vector<IndexStep>& steps = plan.steps;
  int64_t dim = 0;
  auto record = [&](IValue tensor) {
    plan.advanced.resize(static_cast<size_t>(dim));  // None for the dims before
    plan.advanced.push_back(std::move(tensor));
    ++dim;
  };
  for (size_t k = 0; k < index.size(); ++k) {
    const IValue& v = index[k];
    const SourceRange& at = ranges[k];
    if (as_obj<EllipsisValue>(v)) {  // `...` stands for every dimension the others leave
      dim += t.dim() - consumed;
      continue;
    }
    if (auto* s = as_obj<SliceValue>(v)) {
      auto bound = [&](const IValue& b) -> IValue {
        // A 0-d integer tensor is a Python index (__index__); the rest go to the op.
        if (b.is_tensor()) {
          return IValue(in.to_index(b, PyConversion::Index, at, "slice indices must be integers"));
        }
        return b;
      };
      if (!(s->start.is_none() && s->stop.is_none() && s->step.is_none())) {
        steps.push_back({IndexStep::Slice, dim, bound(s->start), bound(s->stop),
                         s->step.is_none() ? IValue(int64_t{1}) : bound(s->step)});
      }
      ++dim;
    } else if (v.is_none()) {
      steps.push_back({IndexStep::Unsqueeze, dim, {}, {}, {}});
      ++dim;
    } else if (v.is_int() || as_obj<SymbolicValue>(v)) {
      steps.push_back({IndexStep::Select, dim, v, {}, {}});
    } else if (v.is_tensor() && v.to_tensor().dim() == 0 && v.to_tensor().dtype() == DType::Int64) {
      steps.push_back(
          {IndexStep::Select,
           dim,
           IValue(in.to_index(v, PyConversion::Index, at, "tensor indices must be integers")),
           {},
           {}});
    } else if (v.is_tensor()) {
      record(v);
    } else if (is_sequence_index(v)) {
      record(sequence_index(in, v, at));
    } else if (v.is_bool()) {
      in.fail("indexing a tensor with a bool is not supported by d2s", at,
              "index with a bool tensor, or use torch.where");
    } else {
      in.fail(
          "IndexError: only integers, slices (`:`), ellipsis (`...`), None and long or "
          "byte Variables are valid indices (got " +
              py_type_name(v) + ")",
          at);
    }
  }
  return plan;
}

// The basic steps of a subscript, each view after the previous one (the views chain).
static IValue apply_step(Interpreter& in, const IValue& cur, const IndexStep& s,
                         const SourceRange& range) {
  IValue dim(s.dim);
  switch (s.kind) {
    case IndexStep::Select:
      return in.call_op("aten::select", {cur, dim, s.a}, {}, range);
    case IndexStep::Slice:
      return in.call_op("aten::slice", {cur, dim, s.a, s.b, s.c}, {}, range);
    case IndexStep::Unsqueeze:
      break;
  }
  return in.call_op("aten::unsqueeze", {cur, dim}, {}, range);
}

IValue Interpreter::index_tensor(const IValue& t, const ValueList& index, const ast::Subscript& e) {
  TensorIndexPlan plan = plan_tensor_index(*this, t.to_tensor(), index, e);
  IValue cur = t;
  for (const IndexStep& s : plan.steps) cur = apply_step(*this, cur, s, e.range);
  if (!plan.advanced.empty()) {
    cur = call_op("aten::index", {cur, IValue::list(plan.advanced)}, {}, e.range);
  }
  return cur;
}

void Interpreter::setitem(const IValue& o, const ValueList& index, IValue value,
                          const ast::Subscript& e) {
  if (DictValue* d = as_dict(o); d && !d->is_set) {
    d->put(*this, index.size() == 1 ? index[0] : IValue::tuple(index), std::move(value), e.range);
    return;
  }
  if (is_module_dict(o) && index.size() == 1) {
    module_dict_setitem(o, index[0], std::move(value), e.range);
    return;
  }
  if (o.is_list()) {
    if (index.size() != 1 || as_obj<SliceValue>(index[0])) {
      fail("assigning to a list slice is not supported by d2s", e.range);
    }
    ValueList& items = o.list_items();
    const int64_t n = static_cast<int64_t>(items.size());
    int64_t i =
        to_index(index[0], PyConversion::Index, e.range, "list indices must be integers or slices");
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail("IndexError: list assignment index out of range", e.range);
    items[i] = std::move(value);
    return;
  }
  if (!o.is_tensor()) {
    fail("TypeError: '" + py_type_name(o) + "' object does not support item assignment", e.range);
  }
  // x[idx] = v, functionally: take the views down the chain, put v into the innermost
  // with the *_scatter ops back up the chain, and copy the result into x in place.
  for (const char* op : {"aten::select_scatter", "aten::slice_scatter", "aten::copy_",
                         "aten::full_like", "aten::expand_as", "aten::squeeze"}) {
    if (registry_.overloads(op).empty()) {
      fail("assigning to part of a tensor is not supported by d2s", e.range,
           "build the new tensor with torch.where or torch.cat instead");
    }
  }
  TensorIndexPlan plan = plan_tensor_index(*this, o.to_tensor(), index, e);
  const std::vector<IndexStep>& steps = plan.steps;
  if (steps.empty() && !plan.advanced.empty()) {
    // x[mask] = v, x[idx] = v: one in-place index_put_, as TorchScript writes it.
    call_op("aten::index_put_", {o, IValue::list(plan.advanced), value}, {}, e.range);
    return;
  }
  std::vector<IValue> views{o};
  for (const IndexStep& s : steps) views.push_back(apply_step(*this, views.back(), s, e.range));
  IValue src;
  if (!plan.advanced.empty()) {
    src =
        call_op("aten::index_put", {views.back(), IValue::list(plan.advanced), value}, {}, e.range);
  } else {
    src = value.is_tensor() ? call_op("aten::expand_as", {value, views.back()}, {}, e.range)
                            : call_op("aten::full_like", {views.back(), value}, {}, e.range);
  }
  for (size_t k = steps.size(); k-- > 0;) {
    const IndexStep& s = steps[k];
    IValue dim(s.dim);
    if (s.kind == IndexStep::Select)
      src = call_op("aten::select_scatter", {views[k], src, dim, s.a}, {}, e.range);
    if (s.kind == IndexStep::Slice)
      src = call_op("aten::slice_scatter", {views[k], src, dim, s.a, s.b, s.c}, {}, e.range);
    if (s.kind == IndexStep::Unsqueeze) src = call_op("aten::squeeze", {src, dim}, {}, e.range);
  }
  // The views of the chain are dead now: dropped before the write, so that it has no
  // views of o to keep in step (core/autograd/views.h).
  views.clear();
  call_op("aten::copy_", {o, src}, {}, e.range);
}

}  // namespace d2s::interp
