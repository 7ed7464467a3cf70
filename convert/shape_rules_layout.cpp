// Shape rules of the ops that rearrange or create tensors: transpose/permute,
// view/reshape (with -1 inferred, symbols included), expand, repeat, flatten,
// squeeze/unsqueeze, select/slice/index_select, cat/stack, and the creation ops.
#include <cmath>

#include "convert/shape_rules.h"
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

namespace {

std::optional<Dims> reshape(const Dims* input, Dims target, const std::vector<bool>& minus_one) {
  size_t infer = target.size();
  Product part;
  for (size_t i = 0; i < target.size(); ++i) {
    if (i < minus_one.size() && minus_one[i])
      infer = i;
    else
      part.times(target[i]);
  }
  if (infer < target.size()) {
    if (!input) {
      target[infer] = Dim{};
    } else {
      Product all;
      for (const Dim& d : *input) all.times(d);
      target[infer] = quotient(all, part);
    }
  }
  return target;
}

}  // namespace

// Creation ops: zeros/ones/rand/... (size first), full, arange, eye, tensor.
std::optional<Type> creation_rule(std::string_view k, const Args& a, const ir::Node& n) {
  std::optional<DType> d = a.dtype_arg();
  if (in(k, {"zeros", "ones", "empty", "rand", "randn", "full"})) {
    std::optional<DType> dflt = DType::Float32;
    if (k == "full") dflt = dtype_of(a.type(1));
    return tensor(d ? d : dflt, a.dims_at(0));
  }
  if (k == "randint") {
    size_t size_at = a.index("size");
    return tensor(d ? d : DType::Int64, a.dims_at(size_at));
  }
  if (k == "eye") {
    Dim rows = Args::dim_of_value(n.input(0));
    Dim cols = n.overload() == "m" && n.inputs().size() > 1 ? Args::dim_of_value(n.input(1)) : rows;
    return tensor(d ? d : DType::Float32, Dims{rows, cols});
  }
  if (k == "linspace") {
    return tensor(d ? d : DType::Float32, Dims{Args::dim_of_value(n.input(2))});
  }
  if (k == "arange") {
    std::vector<Type> nums;
    size_t count = n.overload() == "start_step" ? 3 : 1;
    std::vector<double> v;
    bool any_float = false;
    for (size_t i = 0; i < count; ++i) {
      const Type& t = a.type(i);
      if (t.kind == TypeKind::Float) any_float = true;
      auto c = a.value(i);
      if (c && c->is_number()) v.push_back(c->to_double());
    }
    Dim len;
    if (v.size() == count) {
      double start = count == 3 ? v[0] : 0, end = count == 3 ? v[1] : v[0],
             step = count == 3 ? v[2] : 1;
      if (step != 0)
        len =
            Dim::known(std::max<int64_t>(0, static_cast<int64_t>(std::ceil((end - start) / step))));
    } else if (count == 1) {
      len = Args::dim_of_value(n.input(0));
    }
    return tensor(d ? d : any_float ? DType::Float32 : DType::Int64, Dims{len});
  }
  if (k == "tensor") {
    // Nested list literals give the shape; element kinds give the dtype.
    Dims shape;
    std::optional<DType> elem;
    ir::Value* v = n.input(0);
    for (int depth = 0; depth < 32; ++depth) {
      if (!ir::is_unchanged_list(*v)) {
        elem = dtype_of(v->type());
        break;
      }
      const auto& items = v->node()->inputs();
      shape.push_back(Dim::known(static_cast<int64_t>(items.size())));
      if (items.empty()) {
        elem = DType::Float32;
        break;
      }
      // The dtype of a list of numbers is the highest category among them.
      std::vector<Type> types;
      for (ir::Value* item : items) types.push_back(item->type());
      if (items[0]->node()->prim() != ir::Prim::ListConstruct) {
        elem = promote(types);
        break;
      }
      v = items[0];
    }
    return tensor(d ? d : elem, shape);
  }
  return std::nullopt;
}

std::optional<Type> layout_rule(std::string_view k, const Args& a, const ir::Node& n) {
  const Type& self = a.type(0);
  const Dims* s = a.shape(0);
  std::optional<Type> out;
  if (k == "t" || k == "transpose" || k == "permute") {
    std::optional<Dims> shape;
    if (s) {
      shape = *s;
      if (k == "t" && s->size() == 2) std::swap((*shape)[0], (*shape)[1]);
      if (k == "transpose") {
        auto d0 = a.int_at(1), d1 = a.int_at(2);
        auto w0 = d0 ? wrap(*d0, s->size()) : std::nullopt;
        auto w1 = d1 ? wrap(*d1, s->size()) : std::nullopt;
        if (w0 && w1)
          std::swap((*shape)[*w0], (*shape)[*w1]);
        else
          shape.reset();
      }
      if (k == "permute") {
        auto perm = a.dims_at(1);
        if (!perm || perm->size() != s->size()) {
          shape.reset();
        } else {
          for (size_t i = 0; i < perm->size() && shape; ++i) {
            auto w = (*perm)[i].is_known() ? wrap((*perm)[i].size, s->size()) : std::nullopt;
            if (w)
              (*shape)[i] = (*s)[*w];
            else
              shape.reset();
          }
        }
      }
    }
    out = tensor(self.dtype, shape);
  } else if (k == "view" || k == "reshape") {
    std::vector<bool> minus_one;
    std::optional<Dims> target = a.dims_at(1, &minus_one);
    if (target) {
      out = tensor(self.dtype, reshape(s, *target, minus_one));
    } else {
      out = tensor(self.dtype, std::nullopt);
    }
  } else if (k == "view_as" || k == "reshape_as" || k == "expand_as") {
    const Dims* o = a.shape(1);
    out = tensor(self.dtype, o ? std::optional<Dims>(*o) : std::nullopt);
  } else if (k == "expand") {
    std::vector<bool> minus_one;
    std::optional<Dims> target = a.dims_at(1, &minus_one);
    if (target && s && target->size() >= s->size()) {
      size_t off = target->size() - s->size();
      for (size_t i = off; i < target->size(); ++i) {
        if (i < minus_one.size() && minus_one[i]) (*target)[i] = (*s)[i - off];
      }
    } else {
      target.reset();
    }
    out = tensor(self.dtype, target);
  } else if (k == "repeat") {
    std::optional<Dims> reps = a.dims_at(1);
    std::optional<Dims> shape;
    if (reps && s && reps->size() >= s->size()) {
      shape = *reps;
      size_t off = reps->size() - s->size();
      for (size_t i = off; i < reps->size(); ++i) {
        const Dim& r = (*reps)[i];
        const Dim& d = (*s)[i - off];
        if (r.is_known() && r.size == 1)
          (*shape)[i] = d;
        else if (r.is_known() && d.is_known())
          (*shape)[i] = Dim::known(r.size * d.size);
        else
          (*shape)[i] = Dim{};
      }
    }
    out = tensor(self.dtype, shape);
  } else if (k == "flatten") {
    std::optional<Dims> shape;
    if (s) {
      if (s->empty()) {
        shape = Dims{Dim::known(1)};
      } else {
        auto st = a.int_at(1), en = a.int_at(2);
        auto ws = st ? wrap(*st, s->size()) : std::nullopt;
        auto we = en ? wrap(*en, s->size()) : std::nullopt;
        if (ws && we && *ws <= *we) {
          shape = Dims(s->begin(), s->begin() + static_cast<std::ptrdiff_t>(*ws));
          Product p;
          for (size_t i = *ws; i <= *we; ++i) p.times((*s)[i]);
          Dim merged = *ws == *we ? (*s)[*ws] : quotient(p, Product{});
          shape->push_back(merged);
          shape->insert(shape->end(), s->begin() + static_cast<std::ptrdiff_t>(*we) + 1, s->end());
        }
      }
    }
    out = tensor(self.dtype, shape);
  } else if (k == "squeeze") {
    std::optional<Dims> shape;
    if (s) {
      auto dim = n.overload() == "dim" ? a.int_at(1) : std::nullopt;
      if (n.overload() == "dim") {
        auto w = dim ? wrap(*dim, s->size()) : std::nullopt;
        if (s->empty())
          shape = *s;
        else if (w && (*s)[*w].is_known()) {
          shape = *s;
          if ((*s)[*w].size == 1) shape->erase(shape->begin() + static_cast<std::ptrdiff_t>(*w));
        }
      } else {
        // A symbolic dim might be 1: the rank is then unknown.
        bool all_known =
            std::all_of(s->begin(), s->end(), [](const Dim& d) { return d.is_known(); });
        if (all_known) {
          shape = Dims{};
          for (const Dim& d : *s) {
            if (d.size != 1) shape->push_back(d);
          }
        }
      }
    }
    out = tensor(self.dtype, shape);
  } else if (k == "unsqueeze") {
    std::optional<Dims> shape;
    auto dim = a.int_at(1);
    if (s && dim) {
      if (auto w = wrap(*dim, s->size() + 1)) {
        shape = *s;
        shape->insert(shape->begin() + static_cast<std::ptrdiff_t>(*w), Dim::known(1));
      }
    }
    out = tensor(self.dtype, shape);
  } else if (k == "narrow") {
    // narrow(dim, start, length): the dim becomes `length`.
    std::optional<Dims> shape;
    auto dim = a.int_at(1);
    auto w = s && dim ? wrap(*dim, s->size()) : std::nullopt;
    if (w) {
      shape = *s;
      auto length = a.int_at(3);
      (*shape)[*w] = length ? Dim::known(*length) : Dim{};
    }
    out = tensor(self.dtype, shape);
  } else if (k == "select" || k == "slice" || k == "index_select") {
    std::optional<Dims> shape;
    auto dim = a.int_at(1);
    auto w = s && dim ? wrap(*dim, s->size()) : std::nullopt;
    if (w) {
      shape = *s;
      if (k == "select") {
        shape->erase(shape->begin() + static_cast<std::ptrdiff_t>(*w));
      } else if (k == "index_select") {
        const Dims* idx = a.shape(2);
        (*shape)[*w] = idx && idx->size() == 1 ? (*idx)[0] : Dim{};
      } else {
        // slice(dim, start, end, step): exact when the bounds are constants and the
        // size is known; the whole dim (start and end None, step 1) keeps its symbol.
        const Dim& d = (*s)[*w];
        auto start = a.value(2), end = a.value(3);
        auto step = a.int_at(4).value_or(1);
        bool whole = (!start || start->is_none()) && (!end || end->is_none()) && step == 1;
        if (whole) {
          // unchanged
        } else if (d.is_known() && start && end && step > 0 &&
                   (start->is_none() || start->is_int()) && (end->is_none() || end->is_int())) {
          int64_t size = d.size;
          auto clampi = [&](int64_t x) {
            if (x < 0) x += size;
            return std::clamp<int64_t>(x, 0, size);
          };
          int64_t lo = start->is_none() ? 0 : clampi(start->to_int());
          int64_t hi = end->is_none() ? size : clampi(end->to_int());
          (*shape)[*w] = Dim::known(hi > lo ? (hi - lo + step - 1) / step : 0);
        } else {
          (*shape)[*w] = Dim{};
        }
      }
    }
    out = tensor(self.dtype, shape);
  } else if (k == "cat" || k == "stack") {
    ir::Value* list = n.input(0);
    std::optional<Dims> shape;
    std::optional<DType> d;
    if (!ir::is_unchanged_list(*list) && list->type().kind == TypeKind::List &&
        !list->type().elements.empty() && list->type().elements[0].is_tensor()) {
      // A list filled at run time (outs.append(y)): its items' dtype, not their number.
      d = list->type().elements[0].dtype;
    }
    if (ir::is_unchanged_list(*list) && !list->node()->inputs().empty()) {
      const auto& items = list->node()->inputs();
      std::vector<Type> ts;
      for (ir::Value* item : items) ts.push_back(item->type());
      d = promote(ts);
      const Dims* first = items[0]->type().is_tensor() && items[0]->type().shape
                              ? &*items[0]->type().shape
                              : nullptr;
      auto dim = a.int_at(1);
      if (first && dim) {
        if (k == "stack") {
          if (auto w = wrap(*dim, first->size() + 1)) {
            shape = *first;
            for (size_t i = 1; i < items.size() && shape; ++i) {
              const Type& t = items[i]->type();
              if (!t.shape || t.shape->size() != first->size())
                shape.reset();
              else
                shape = broadcast_dims(*shape, *t.shape);  // equal dims stay
            }
            if (shape) {
              shape->insert(shape->begin() + static_cast<std::ptrdiff_t>(*w),
                            Dim::known(static_cast<int64_t>(items.size())));
            }
          }
        } else if (auto w = wrap(*dim, first->size())) {
          shape = *first;
          int64_t total = 0;
          bool all_known = true;
          for (ir::Value* item : items) {
            const Type& t = item->type();
            if (!t.shape || t.shape->size() != first->size()) {
              shape.reset();
              break;
            }
            const Dim& x = (*t.shape)[*w];
            if (x.is_known())
              total += x.size;
            else
              all_known = false;
          }
          if (shape) (*shape)[*w] = all_known ? Dim::known(total) : Dim{};
        }
      }
    }
    out = tensor(d, shape);
  }
  return out;
}

}  // namespace d2s::convert::shape_detail
