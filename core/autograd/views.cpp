// Views kept in step with their base: see views.h.
#include "core/autograd/views.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_set>

#include "core/autograd/autograd.h"
#include "core/autograd/grad_fn_name.h"
#include "core/base/error.h"

namespace d2s {

namespace {

// Set while this file runs ops of its own (write-backs, replays): their views are
// temporaries, never members of a family.
thread_local bool g_inside = false;

struct Inside {
  Inside() : previous_(g_inside) { g_inside = true; }
  ~Inside() { g_inside = previous_; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

 private:
  bool previous_;
};

int64_t wrap(int64_t d, int64_t n) {
  return d < 0 ? d + n : d;
}

bool reshapes(const std::string& name) {
  return name == "aten::view" || name == "aten::reshape" || name == "aten::view_as" ||
         name == "aten::reshape_as" || name == "aten::flatten";
}

int64_t offset_of(const Tensor& t) {
  return t.impl()->view ? t.impl()->view->offset : 0;
}

// The strides and offset PyTorch gives output `index` (-1: the result) of view op
// `op` on `self`, whose result has shape `out`.
void layout_of(const OpDef& op, const ValueList& args, const Tensor& self, int64_t index,
               const IValue& result, const Shape& out, std::vector<int64_t>* strides,
               int64_t* offset) {
  const std::string& name = op.schema.name;
  const Shape& in = self.shape();
  const int64_t n = self.dim();
  std::vector<int64_t> s = strides_of(self);
  int64_t off = offset_of(self);
  auto int_arg = [&](size_t i) { return args[i].to_int(); };
  if (name == "aten::select" || name == "aten::unbind") {
    const int64_t d = wrap(int_arg(1), n);
    int64_t i = name == "aten::select" ? int_arg(2) : index;
    if (i < 0) i += in[d];
    off += i * s[d];
    s.erase(s.begin() + d);
  } else if (name == "aten::slice" || name == "aten::narrow") {
    const int64_t d = wrap(int_arg(1), n);
    int64_t start = 0;
    if (name == "aten::narrow") {
      start = int_arg(2);
    } else if (!args[2].is_none()) {
      start = int_arg(2);
    }
    if (start < 0) start += in[d];
    start = std::clamp<int64_t>(start, 0, in[d]);
    off += start * s[d];
    if (name == "aten::slice") s[d] *= int_arg(4);
  } else if (name == "aten::split" || name == "aten::chunk") {
    const int64_t d = wrap(int_arg(2), n);  // split(self, size, dim), chunk(self, n, dim)
    int64_t start = 0;
    const ValueList& items = result.items();
    for (int64_t k = 0; k < index; ++k) start += items[k].to_tensor().shape()[d];
    off += start * s[d];
  } else if (name == "aten::diagonal") {
    // The diagonal steps by both dims' strides at once, from its first element.
    const int64_t diag = int_arg(1);
    const int64_t d1 = wrap(int_arg(2), n), d2 = wrap(int_arg(3), n);
    if (!out.empty() && out.back() > 0) off += diag >= 0 ? diag * s[d2] : -diag * s[d1];
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < n; ++d) {
      if (d != d1 && d != d2) kept.push_back(s[d]);
    }
    kept.push_back(s[d1] + s[d2]);
    s = kept;
  } else if (name == "aten::as_strided") {
    // The strides and offset asked for, in the root's storage (the offset: self's when None).
    s = args[2].to_int_list();
    if (args.size() > 3 && !args[3].is_none()) off = int_arg(3);
  } else if (name == "aten::transpose") {
    std::swap(s[wrap(int_arg(1), n)], s[wrap(int_arg(2), n)]);
  } else if (name == "aten::t") {
    if (n == 2) std::swap(s[0], s[1]);
  } else if (name == "aten::numpy_T") {
    std::reverse(s.begin(), s.end());
  } else if (name == "aten::permute") {
    std::vector<int64_t> p;
    for (int64_t d : args[1].to_int_list()) p.push_back(s[wrap(d, n)]);
    s = p;
  } else if (name == "aten::unsqueeze") {
    const int64_t d = wrap(int_arg(1), n + 1);
    s.insert(s.begin() + d, d >= n ? 1 : in[d] * s[d]);
  } else if (name == "aten::squeeze") {
    std::vector<int64_t> kept;
    const bool one = args.size() > 1;
    const int64_t only = one && n > 0 ? wrap(int_arg(1), n) : -1;
    for (int64_t d = 0; d < n; ++d) {
      if (in[d] == 1 && (!one || d == only)) continue;
      kept.push_back(s[d]);
    }
    s = kept;
  } else if (name == "aten::expand" || name == "aten::expand_as") {
    std::vector<int64_t> e(out.size());
    for (int64_t i = static_cast<int64_t>(out.size()) - 1; i >= 0; --i) {
      const int64_t d = n - static_cast<int64_t>(out.size()) + i;
      const int64_t size = d >= 0 ? in[d] : 1;
      int64_t stride =
          d >= 0 ? s[d] : (i + 1 < static_cast<int64_t>(out.size()) ? out[i + 1] * e[i + 1] : 1);
      if (size != out[i]) stride = 0;
      e[i] = stride;
    }
    s = e;
  } else if (reshapes(name)) {
    s = compute_stride(in, s, out).value_or(row_major_strides(out));
  } else {
    s = row_major_strides(out);
  }
  *strides = std::move(s);
  *offset = off;
}

void add_member(const Tensor& root, const Tensor& view) {
  auto& family = root.impl()->views;
  if (!family) family = std::make_shared<ViewFamily>();
  family->views.push_back(view.weak());
  if (family->views.size() >= 2 * family->pruned_size + 8) {
    std::erase_if(family->views, [](const std::weak_ptr<TensorImpl>& w) { return w.expired(); });
    family->pruned_size = family->views.size();
  }
}

void make_view(const Tensor& self, const OpDef& op, const ValueList& args, int64_t index,
               const IValue& result, Tensor out) {
  auto meta = std::make_shared<ViewMeta>();
  const ViewMeta* parent = self.impl()->view.get();
  meta->base = parent ? parent->base : self;
  layout_of(op, args, self, index, result, out.shape(), &meta->strides, &meta->offset);
  // as_strided reads the storage wherever self sits in it: one step from the root, with
  // the offset made explicit, takes it again.
  const bool from_root = op.schema.name == "aten::as_strided";
  if (parent && !from_root) meta->steps = parent->steps;
  ViewStep step;
  step.op = &op;
  step.args = args;
  step.args[0] = IValue();  // the replay puts the current tensor here
  if (from_root) {
    step.args.resize(4);
    step.args[3] = IValue(meta->offset);
  }
  step.output_index = index;
  meta->steps.push_back(std::move(step));
  meta->created_in_no_grad = !grad_mode_enabled() || (parent && parent->created_in_no_grad);
  meta->multi_output = index >= 0 || (parent && parent->multi_output);
  out.impl()->view = std::move(meta);
  add_member(out.impl()->view->base, out);
}

// Runs the steps from `from` (the root, or a tensor of its shape) to the view.
Tensor replay(const Tensor& from, const std::vector<ViewStep>& steps) {
  OpContext ctx;
  IValue cur(from);
  for (const ViewStep& step : steps) {
    ValueList args = step.args;
    args[0] = cur;
    IValue r = run_op(*step.op, ctx, args);
    cur = step.output_index >= 0 ? r.items()[step.output_index] : r;
  }
  return cur.to_tensor();
}

IValue call(const char* op, const ValueList& args) {
  OpContext ctx;
  return OpRegistry::builtin().call(ctx, op, args, {}, SourceRange());
}

// The root with the view's elements written at their places, computed by ops the
// autograd records: index_put of the view's elements at the base positions the steps
// take (found by replaying them on the positions themselves).
Tensor written_base(const Tensor& root, const ViewMeta& meta, const Tensor& view) {
  Tensor positions = Tensor::empty({root.numel()}, DType::Int64);
  int64_t* p = positions.data<int64_t>();
  for (int64_t i = 0; i < root.numel(); ++i) p[i] = i;
  {
    NoGradGuard no_grad;
    positions = replay(positions.view_as_shape(root.shape()), meta.steps);
  }
  const IValue flat_shape = IValue::int_list({-1});
  IValue flat = call("aten::reshape", {IValue(root), flat_shape});
  IValue index = call("aten::reshape", {IValue(positions), flat_shape});
  IValue values = call("aten::reshape", {IValue(view), flat_shape});
  IValue put = call("aten::index_put", {flat, IValue::list({index}), values});
  return call("aten::reshape", {put, IValue::int_list(root.shape())}).to_tensor();
}

void copy_elements(const Tensor& from, Tensor& to) {
  const size_t n = static_cast<size_t>(to.numel()) * dtype_size(to.dtype());
  if (n) std::memmove(to.data<std::byte>(), from.data<std::byte>(), n);
}

void take_history(const Tensor& from, Tensor& to) {
  to.impl()->autograd = from.impl()->autograd;
  to.set_requires_grad(from.requires_grad());
}

void propagate_from(Tensor w) {
  const std::shared_ptr<ViewMeta> meta = w.impl()->view;
  Tensor root = meta ? meta->base : w;
  std::vector<Tensor> live;
  if (const auto& family = root.impl()->views) {
    for (const auto& weak : family->views) {
      Tensor v = Tensor::lock(weak);
      if (v.defined()) live.push_back(std::move(v));
    }
  }
  if (!meta && live.empty()) return;
  Inside inside;
  const bool history = grad_mode_enabled() && (w.requires_grad() || root.requires_grad());
  std::unordered_set<const Storage*> bumped{w.impl()->storage.get()};
  auto bump = [&](Tensor& t) {
    if (bumped.insert(t.impl()->storage.get()).second) t.bump_version();
  };
  // The pieces of split/chunk/unbind get the new elements below like any view, but no
  // history PyTorch would accept: their next recorded read is an error (its head says
  // whether the piece had a grad_fn before this write, as PyTorch's does).
  for (Tensor& v : live) {
    ViewMeta& vm = *v.impl()->view;
    if (!vm.multi_output || !vm.stale_head.empty()) continue;
    const auto& am = v.impl()->autograd;
    vm.stale_head = am && am->grad_fn
                        ? "Output " + std::to_string(am->output_nr) + " of " +
                              grad_fn_name(*am->grad_fn) +
                              " is a view and its base or another view of its base has been "
                              "modified inplace."
                        : std::string(
                              "A view was created in no_grad mode and its base or another view "
                              "of its base has been modified inplace with grad mode enabled.");
  }
  if (meta) {
    const bool shared = root.impl()->storage == w.impl()->storage;
    if (!shared || history) {
      Tensor fresh = written_base(root, *meta, w);
      if (!shared) copy_elements(fresh, root);
      if (history) take_history(fresh, root);
    }
    bump(root);
  }
  for (Tensor& v : live) {
    const bool shared = v.impl()->storage == root.impl()->storage;
    if (v.is_same(w) && !history) continue;
    if (!shared || history) {
      Tensor fresh = replay(root, v.impl()->view->steps);
      if (!shared && !v.is_same(w)) copy_elements(fresh, v);
      if (history) take_history(fresh, v);
    }
    bump(v);
  }
}

std::string multi_view_suffix(const ViewMeta& meta) {
  if (meta.multi_output) {
    return " This view is the output of a function that returns multiple views. Such "
           "functions do not allow the output views to be modified inplace. You should "
           "replace the inplace operation by an out-of-place one.";
  }
  return " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
         "clarify your code by moving both the view and the inplace either both inside the "
         "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
         "want the inplace to be tracked).";
}

}  // namespace

void check_write_through_view(const OpDef& op, const ValueList& args, bool recording) {
  for (size_t i : op.schema.written_arguments()) {
    if (i >= args.size() || !args[i].is_tensor() || !args[i].to_tensor().defined()) continue;
    const Tensor& w = args[i].to_tensor();
    const ViewMeta* meta = w.impl()->view.get();
    if (!meta) continue;
    const std::vector<int64_t>& s = meta->strides;
    for (size_t d = 0; d < s.size(); ++d) {
      if (s[d] == 0 && w.shape()[d] > 1) {
        throw Error(
            "RuntimeError: unsupported operation: more than one element of the written-to "
            "tensor refers to a single memory location. Please clone() the tensor before "
            "performing the operation.",
            SourceRange(), "write into a copy: `.clone()` the expanded tensor first");
      }
    }
    // PyTorch's view of a base that requires grad requires grad too, even taken under
    // no_grad (d2s's does not): such a write is recorded there, and so checked here.
    const bool checked = recording || (grad_mode_enabled() && meta->created_in_no_grad &&
                                       meta->base.requires_grad());
    if (!checked) continue;
    if (meta->multi_output || meta->created_in_no_grad) {
      const auto& am = w.impl()->autograd;
      const std::string head = am && am->grad_fn
                                   ? "Output " + std::to_string(am->output_nr) + " of " +
                                         grad_fn_name(*am->grad_fn) +
                                         " is a view and is being modified inplace."
                                   : std::string(
                                         "A view was created in no_grad mode and is being "
                                         "modified inplace with grad mode enabled.");
      throw Error("RuntimeError: " + head + multi_view_suffix(*meta), SourceRange(),
                  meta->multi_output ? "write into a clone of the piece, or build the result "
                                       "out of place (torch.cat)"
                                     : "take the view and write it both inside or both "
                                       "outside the no_grad block");
    }
    if (w.requires_grad() && is_leaf(meta->base) && meta->base.requires_grad()) {
      throw Error(
          "RuntimeError: a view of a leaf Variable that requires grad is being used in an "
          "in-place operation.",
          SourceRange(),
          "update it under `with torch.no_grad():`, or work on a copy (`x = x.clone()`)");
    }
  }
}

void check_read_of_view(const ValueList& args) {
  if (g_inside) return;
  auto check = [](const IValue& v) {
    if (!v.is_tensor() || !v.to_tensor().defined()) return;
    const Tensor& t = v.to_tensor();
    const ViewMeta* meta = t.impl()->view.get();
    if (!meta || meta->stale_head.empty() || !t.requires_grad()) return;
    throw Error("RuntimeError: " + meta->stale_head + multi_view_suffix(*meta), SourceRange(),
                "take the pieces (split, chunk, unbind) after the last in-place write into "
                "their tensor, or write out of place");
  };
  for (const IValue& a : args) {
    if (a.is_list() || a.is_tuple()) {
      for (const IValue& item : a.items()) check(item);
    } else {
      check(a);
    }
  }
}

IValue register_view(const OpDef& op, const ValueList& args, IValue result) {
  if (g_inside || args.empty() || !args[0].is_tensor()) return result;
  const Tensor self = args[0].to_tensor();
  if (!self.defined()) return result;
  if (result.is_tensor()) {
    Tensor out = result.to_tensor();
    if (!out.defined() || out.is_same(self)) return result;
    // reshape of a layout that no view can express copied (the kernel decided alike).
    if (reshapes(op.schema.name) && !view_strides(self, out.shape())) return result;
    make_view(self, op, args, -1, result, out);
  } else if (result.is_list() || result.is_tuple()) {
    const ValueList& items = result.items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].is_tensor() && items[i].to_tensor().defined()) {
        make_view(self, op, args, static_cast<int64_t>(i), result, items[i].to_tensor());
      }
    }
  }
  return result;
}

void propagate_write(const OpDef& op, const ValueList& args) {
  if (g_inside) return;
  for (size_t i : op.schema.written_arguments()) {
    if (i < args.size() && args[i].is_tensor() && args[i].to_tensor().defined()) {
      propagate_from(args[i].to_tensor());
    }
  }
}

}  // namespace d2s
