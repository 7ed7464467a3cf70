// Shape rules of the ops that rearrange or create tensors: transpose/permute,
// view/reshape (with -1 inferred, symbols included), expand, repeat, flatten,
// squeeze/unsqueeze, narrow/select/slice/index_select, cat/stack, and the creation ops.
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

// The dim argument at 1, wrapped into self's rank; nullopt when self's shape or the dim
// is not known.
std::optional<size_t> dim_arg(const Args& a) {
  const Dims* s = a.shape(0);
  auto dim = a.int_at(1);
  return s && dim ? wrap(*dim, s->size()) : std::nullopt;
}

// cat (`stack` false) and stack of a list of tensors along the dim at 1.
Type joined(const Args& a, const ir::Node& n, bool stack) {
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
    const Dims* first =
        items[0]->type().is_tensor() && items[0]->type().shape ? &*items[0]->type().shape : nullptr;
    auto dim = a.int_at(1);
    if (first && dim) {
      if (stack) {
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
  return tensor(d, shape);
}

// zeros/ones/empty/rand/randn and full (size first): the dtype argument when given, else
// `dflt`.
std::optional<std::vector<Type>> sized(const Args& a, std::optional<DType> dflt) {
  std::optional<DType> d = a.dtype_arg();
  return one(tensor(d ? d : dflt, a.dims_at(0)));
}

}  // namespace

void add_layout_rules(RuleTable& t) {
  t.add({"aten::t"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s) {
      shape = *s;
      if (s->size() == 2) std::swap((*shape)[0], (*shape)[1]);
    }
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::transpose"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s) {
      shape = *s;
      auto d0 = a.int_at(1), d1 = a.int_at(2);
      auto w0 = d0 ? wrap(*d0, s->size()) : std::nullopt;
      auto w1 = d1 ? wrap(*d1, s->size()) : std::nullopt;
      if (w0 && w1)
        std::swap((*shape)[*w0], (*shape)[*w1]);
      else
        shape.reset();
    }
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::permute"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s) {
      shape = *s;
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
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::view", "aten::reshape"}, [](const Args& a, const ir::Node&) {
    std::vector<bool> minus_one;
    std::optional<Dims> target = a.dims_at(1, &minus_one);
    if (target) return one(tensor(a.type(0).dtype, reshape(a.shape(0), *target, minus_one)));
    return one(tensor(a.type(0).dtype, std::nullopt));
  });
  t.add({"aten::view_as", "aten::reshape_as", "aten::expand_as"},
        [](const Args& a, const ir::Node&) {
          const Dims* o = a.shape(1);
          return one(tensor(a.type(0).dtype, o ? std::optional<Dims>(*o) : std::nullopt));
        });
  t.add({"aten::expand"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
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
    return one(tensor(a.type(0).dtype, target));
  });
  t.add({"aten::repeat"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
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
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::flatten"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
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
    return one(tensor(a.type(0).dtype, shape));
  });
  // squeeze.dim(dim) removes that dim when it is 1; squeeze() every dim of size 1.
  t.add({"aten::squeeze"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s) {
      if (a.index("dim") != std::string::npos) {
        auto dim = a.int_at(1);
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
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::unsqueeze"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    auto dim = a.int_at(1);
    if (s && dim) {
      if (auto w = wrap(*dim, s->size() + 1)) {
        shape = *s;
        shape->insert(shape->begin() + static_cast<std::ptrdiff_t>(*w), Dim::known(1));
      }
    }
    return one(tensor(a.type(0).dtype, shape));
  });
  // narrow(dim, start, length): the dim becomes `length`.
  t.add({"aten::narrow"}, [](const Args& a, const ir::Node&) {
    std::optional<Dims> shape;
    if (auto w = dim_arg(a)) {
      shape = *a.shape(0);
      auto length = a.int_at(3);
      (*shape)[*w] = length ? Dim::known(*length) : Dim{};
    }
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::select"}, [](const Args& a, const ir::Node&) {
    std::optional<Dims> shape;
    if (auto w = dim_arg(a)) {
      shape = *a.shape(0);
      shape->erase(shape->begin() + static_cast<std::ptrdiff_t>(*w));
    }
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::index_select"}, [](const Args& a, const ir::Node&) {
    std::optional<Dims> shape;
    if (auto w = dim_arg(a)) {
      shape = *a.shape(0);
      const Dims* idx = a.shape(2);
      (*shape)[*w] = idx && idx->size() == 1 ? (*idx)[0] : Dim{};
    }
    return one(tensor(a.type(0).dtype, shape));
  });
  // slice(dim, start, end, step): exact when the bounds are constants and the size is
  // known; the whole dim (start and end None, step 1) keeps its symbol.
  t.add({"aten::slice"}, [](const Args& a, const ir::Node&) {
    std::optional<Dims> shape;
    if (auto w = dim_arg(a)) {
      shape = *a.shape(0);
      const Dim& d = (*a.shape(0))[*w];
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
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::cat"}, [](const Args& a, const ir::Node& n) { return one(joined(a, n, false)); });
  t.add({"aten::stack"}, [](const Args& a, const ir::Node& n) { return one(joined(a, n, true)); });

  // Creation ops: zeros/ones/rand/... (size first), full, arange, eye, tensor.
  t.add({"aten::zeros", "aten::ones", "aten::empty", "aten::rand", "aten::randn"},
        [](const Args& a, const ir::Node&) { return sized(a, DType::Float32); });
  // full(size, fill_value): the fill value's dtype.
  t.add({"aten::full"},
        [](const Args& a, const ir::Node&) { return sized(a, dtype_of(a.type(1))); });
  t.add({"aten::randint"}, [](const Args& a, const ir::Node&) {
    std::optional<DType> d = a.dtype_arg();
    return one(tensor(d ? d : DType::Int64, a.dims_at(a.index("size"))));
  });
  // eye(n) is square; eye.m(n, m) has m columns.
  t.add({"aten::eye"}, [](const Args& a, const ir::Node& n) {
    std::optional<DType> d = a.dtype_arg();
    Dim rows = Args::dim_of_value(n.input(0));
    Dim cols = a.index("m") != std::string::npos && n.inputs().size() > 1
                   ? Args::dim_of_value(n.input(1))
                   : rows;
    return one(tensor(d ? d : DType::Float32, Dims{rows, cols}));
  });
  t.add({"aten::linspace"}, [](const Args& a, const ir::Node& n) {
    std::optional<DType> d = a.dtype_arg();
    return one(tensor(d ? d : DType::Float32, Dims{Args::dim_of_value(n.input(2))}));
  });
  // arange(end) and arange.start_step(start, end, step): the length when the bounds are
  // constants, else end's size; long unless a bound is a float.
  t.add({"aten::arange"}, [](const Args& a, const ir::Node& n) {
    std::optional<DType> d = a.dtype_arg();
    size_t count = a.index("start") != std::string::npos ? 3 : 1;
    std::vector<double> v;
    bool any_float = false;
    for (size_t i = 0; i < count; ++i) {
      if (a.type(i).kind == TypeKind::Float) any_float = true;
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
    return one(tensor(d ? d : any_float ? DType::Float32 : DType::Int64, Dims{len}));
  });
  t.add({"aten::tensor"}, [](const Args& a, const ir::Node& n) {
    std::optional<DType> d = a.dtype_arg();
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
    return one(tensor(d ? d : elem, shape));
  });
}

}  // namespace d2s::convert::shape_detail
