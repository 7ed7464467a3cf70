// The autograd engine: recording at dispatch, and the iterative backward pass.
#include "core/autograd/autograd.h"

#include <unordered_map>

#include "core/autograd/grad_fn_name.h"
#include "core/autograd/views.h"
#include "core/base/error.h"
#include "core/tensor/autograd_hooks.h"

namespace d2s {

namespace {

bool is_float_tensor(const IValue& v) {
  return v.is_tensor() && v.to_tensor().defined() && v.to_tensor().dtype() == DType::Float32;
}

bool any_requires_grad(const ValueList& args) {
  for (const IValue& a : args) {
    if (a.is_tensor()) {
      if (a.to_tensor().requires_grad()) return true;
    } else if (a.is_list() || a.is_tuple()) {
      for (const IValue& item : a.items()) {
        if (item.is_tensor() && item.to_tensor().requires_grad()) return true;
      }
    }
  }
  return false;
}

// A tensor handle with the same data and no autograd, so that a node does not keep
// its own outputs alive through their grad_fn (a cycle) and sees no later history.
IValue data_only(const IValue& v) {
  if (v.is_tensor() && v.to_tensor().defined()) return IValue(detached(v.to_tensor()));
  if (v.is_list() || v.is_tuple()) {
    ValueList items;
    items.reserve(v.items().size());
    for (const IValue& item : v.items()) items.push_back(data_only(item));
    return v.is_list() ? IValue::list(std::move(items)) : IValue::tuple(std::move(items));
  }
  return v;
}

GradEdge edge_to(const IValue& v) {
  GradEdge e;
  if (!v.is_tensor() || !v.to_tensor().requires_grad()) return e;
  const Tensor& t = v.to_tensor();
  const auto& meta = t.impl()->autograd;
  if (meta && meta->grad_fn) {
    e.fn = meta->grad_fn;
    e.output_nr = meta->output_nr;
  } else {
    e.leaf = t;
  }
  return e;
}

// Bumps the version of every tensor the op wrote into (its `(a!)` arguments).
void bump_written(const OpDef& op, const ValueList& args) {
  for (size_t i : op.schema.written_arguments()) {
    if (i < args.size() && args[i].is_tensor() && args[i].to_tensor().defined()) {
      Tensor t = args[i].to_tensor();
      t.bump_version();
    }
  }
}

bool is_written(const OpDef& op, size_t i) {
  return i < op.schema.arguments.size() && op.schema.arguments[i].alias.is_write;
}

// Remembers the version of each tensor in `v` (a tensor, or the items of a list).
void remember(std::vector<SavedVersion>& saved, const IValue& v, bool is_result) {
  if (v.is_tensor() && v.to_tensor().defined()) {
    saved.push_back({v.to_tensor(), v.to_tensor().version(), is_result});
  } else if (v.is_list() || v.is_tuple()) {
    for (const IValue& item : v.items()) remember(saved, item, is_result);
  }
}

const char* tensor_type_name(DType d) {
  switch (d) {
    case DType::Float32:
      return "torch.FloatTensor";
    case DType::Int64:
      return "torch.LongTensor";
    case DType::Bool:
      break;
  }
  return "torch.BoolTensor";
}

// PyTorch's check before a derivative runs: the data it reads is what the op saw.
void check_saved_versions(const GradNode& node) {
  for (const SavedVersion& s : node.saved) {
    if (s.tensor.version() == s.version) continue;
    throw Error(
        std::string("RuntimeError: one of the variables needed for gradient computation has "
                    "been modified by an inplace operation: [") +
            tensor_type_name(s.tensor.dtype()) + " " + shape_str(s.tensor.shape()) + "]" +
            (s.is_result ? ", which is output 0 of " + grad_fn_name(node) + "," : "") +
            " is at version " + std::to_string(s.tensor.version()) + "; expected version " +
            std::to_string(s.version) + " instead.",
        SourceRange(),
        "the tensor was written in place after " + node.op->schema.name +
            " read it; write it out of place (`y = y + 1`) or clone it first");
  }
}

// Sets the grad_fn of each float tensor of `result` (the op's result, returned to
// the caller) to `node`. Tensor handles alias, so marking a copy marks the result.
void attach(const std::shared_ptr<GradNode>& node, const IValue& result) {
  // A tensor's repr (core/tensor) names its grad_fn from here on.
  static const bool namer_installed = [] {
    set_grad_fn_namer(static_cast<std::string (*)(const Tensor&)>(&grad_fn_name));
    return true;
  }();
  (void)namer_installed;
  size_t k = 0;
  for (Tensor t : float_tensors_of(result)) {
    auto meta = std::make_shared<AutogradMeta>();
    meta->grad_fn = node;
    meta->output_nr = k++;
    t.impl()->autograd = std::move(meta);
    t.set_requires_grad(true);
  }
  node->num_outputs = k;
}

Tensor add_grads(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  NoGradGuard no_grad;
  OpContext ctx;
  return OpRegistry::builtin()
      .call(ctx, "aten::add", {IValue(a), IValue(b)}, {}, SourceRange())
      .to_tensor();
}

void accumulate_leaf(const Tensor& leaf, const Tensor& grad) {
  auto& meta = leaf.impl()->autograd;
  if (!meta) meta = std::make_shared<AutogradMeta>();
  if (grad.shape() != leaf.shape()) {
    throw Error("internal error: gradient of shape " + shape_str(grad.shape()) +
                " for a leaf of shape " + shape_str(leaf.shape()));
  }
  // A fresh tensor: the gradient must not alias a value the program still holds.
  meta->grad = meta->grad.defined() ? add_grads(meta->grad, grad) : grad.clone();
}

// Ops whose result never requires grad, whatever their arguments: detach, and the
// creation ops that only read an argument's shape (zeros_like, ...).
bool cuts_history(const OpDef& op) {
  const std::string& n = op.schema.name;
  // new_zeros/new_ones/new_full/new_empty read only self's dtype, as *_like its shape.
  return n == "aten::detach" || (n.size() > 5 && n.compare(n.size() - 5, 5, "_like") == 0) ||
         n.rfind("aten::new_", 0) == 0;
}

// An op whose arguments are all untyped values, ints, dicts or dict keys (the list ops
// of kernels_list.cpp: append, pop, __getitem__, ...; the dict ops of kernels_dict.cpp)
// cannot compute on tensor data: it moves values between containers, and a tensor it
// gives back is the one it was given, its history kept (as TorchScript's list and dict
// ops are not recorded by the autograd).
bool moves_values(const OpDef& op) {
  for (const Argument& a : op.schema.arguments) {
    if (a.type.rfind("Any", 0) != 0 && a.type != "int" && a.type != "int?" && a.type != "Dict" &&
        a.type != "str")
      return false;
  }
  return true;
}

}  // namespace

GradNode::~GradNode() {
  std::vector<std::shared_ptr<GradNode>> pending;
  auto take_edges = [&](GradNode& n) {
    for (auto& arg_edges : n.edges) {
      for (GradEdge& e : arg_edges) {
        if (e.fn) pending.push_back(std::move(e.fn));
      }
    }
  };
  take_edges(*this);
  while (!pending.empty()) {
    std::shared_ptr<GradNode> n = std::move(pending.back());
    pending.pop_back();
    if (n.use_count() == 1) take_edges(*n);  // the last owner: it dies here, childless
  }
}

namespace {

// The node's view of the op's result. A random op whose derivative reads its result
// (dropout, dropout_: the draw is in the zeros of the value written) keeps a private
// copy, which a later in-place op on the result (nn.ReLU(inplace=True) after dropout)
// does not change, as PyTorch saves dropout's mask rather than its output. Any other
// result is an alias whose version backward checks when the derivative reads it.
void save_result(const OpDef& op, GradNode& node, const IValue& result) {
  if (op.is_random() && op.saved.result && result.is_tensor()) {
    node.result = IValue(result.to_tensor().clone());
    return;
  }
  node.result = data_only(result);
  if (op.saved.result) remember(node.saved, node.result, true);
}

// The kernel call and its recording on the tape.
IValue record_op(const OpDef& op, OpContext& ctx, const ValueList& args) {
  if (!grad_mode_enabled() || !any_requires_grad(args) || moves_values(op)) {
    IValue result = op.kernel(ctx, args);
    if (op.mutates) bump_written(op, args);
    return result;
  }
  if (cuts_history(op)) {
    IValue result = data_only(op.kernel(ctx, args));
    for (Tensor t : float_tensors_of(result)) t.set_requires_grad(false);
    return result;
  }
  for (size_t i : op.schema.written_arguments()) {
    if (i < args.size() && args[i].is_tensor() && args[i].to_tensor().requires_grad() &&
        is_leaf(args[i].to_tensor())) {
      throw Error(
          "RuntimeError: a leaf Variable that requires grad is being used in an in-place "
          "operation.",
          SourceRange(),
          "update it under `with torch.no_grad():`, or work on a copy (`x = x.clone()`)");
    }
  }
  check_read_of_view(args);
  auto node = std::make_shared<GradNode>();
  node->op = &op;
  node->args.reserve(args.size());
  node->edges.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const bool reads = op.saved.argument(i);
    if (is_written(op, i) && args[i].is_tensor()) {
      // The op overwrites this argument: its derivative needs the value before, a
      // private copy (nobody else can write it, so its version is not checked).
      node->args.push_back(reads ? IValue(args[i].to_tensor().clone()) : data_only(args[i]));
    } else {
      node->args.push_back(data_only(args[i]));
      if (reads) remember(node->saved, node->args.back(), false);
      // as_strided reads self's storage: its derivative lays the gradient back through
      // self's strides and offset in that storage (core/autograd/views.h), so self keeps them.
      if (i == 0 && op.is_view && op.schema.name == "aten::as_strided" && args[0].is_tensor() &&
          args[0].to_tensor().defined()) {
        node->args.back().to_tensor().impl()->view = args[0].to_tensor().impl()->view;
      }
    }
    if (args[i].is_list() || args[i].is_tuple()) {
      for (const IValue& item : args[i].items()) node->edges[i].push_back(edge_to(item));
    } else {
      node->edges[i].push_back(edge_to(args[i]));
    }
  }
  IValue result = op.kernel(ctx, args);
  if (op.mutates) bump_written(op, args);
  if (float_tensors_of(result).empty()) return result;  // sizes, indices, masks: no grad
  if (op.mutates) {
    // The written tensor itself gets the node as its grad_fn, so that every handle
    // of it (an alias, a list item, a graph value read later) sees the new history.
    save_result(op, *node, result);
    attach(node, result);
    return result;
  }
  // An op returning its argument itself (contiguous, cpu on d2s's tensors): the same
  // tensor, history included, as PyTorch returns self.
  if (result.is_tensor() && !args.empty() && args[0].is_tensor() &&
      result.to_tensor().is_same(args[0].to_tensor())) {
    return result;
  }
  // Results that alias an argument (view, reshape, contiguous) get their own handle:
  // marking them must not give the argument a grad_fn.
  result = data_only(result);
  save_result(op, *node, result);
  attach(node, result);
  return result;
}

}  // namespace

IValue run_op(const OpDef& op, OpContext& ctx, const ValueList& args) {
  if (!op.is_view && !op.mutates) return record_op(op, ctx, args);
  if (op.mutates)
    check_write_through_view(op, args, grad_mode_enabled() && any_requires_grad(args));
  IValue result = record_op(op, ctx, args);
  if (op.is_view) return register_view(op, args, std::move(result));
  propagate_write(op, args);
  return result;
}

std::vector<Tensor> float_tensors_of(const IValue& v) {
  std::vector<Tensor> out;
  if (is_float_tensor(v)) {
    out.push_back(v.to_tensor());
  } else if (v.is_list() || v.is_tuple()) {
    for (const IValue& item : v.items()) {
      if (is_float_tensor(item)) out.push_back(item.to_tensor());
    }
  }
  return out;
}

Tensor grad_of(const Tensor& t) {
  if (!t.defined() || !t.impl()->autograd) return Tensor();
  return t.impl()->autograd->grad;
}

bool is_leaf(const Tensor& t) {
  return !t.defined() || !t.impl()->autograd || !t.impl()->autograd->grad_fn;
}

void set_requires_grad(Tensor& t, bool on) {
  if (!is_leaf(t)) {
    if (on) return;
    throw Error(
        "RuntimeError: you can only change requires_grad flags of leaf variables. If you want "
        "to use a computed variable in a subgraph that doesn't require differentiation use "
        "var_no_grad = var.detach().");
  }
  if (on && t.dtype() != DType::Float32) {
    throw Error("RuntimeError: only Tensors of floating point dtype can require gradients");
  }
  t.set_requires_grad(on);
}

Tensor detached(const Tensor& t) {
  return t.view_as_shape(t.shape());
}

void clear_grad(Tensor& t) {
  if (t.defined() && t.impl()->autograd) t.impl()->autograd->grad = Tensor();
}

std::vector<std::pair<std::string, IValue>> gradients_of_first_output(
    const IValue& outputs, const std::vector<std::pair<std::string, Tensor>>& leaves) {
  const IValue first =
      outputs.is_tuple() && !outputs.tuple_items().empty() ? outputs.tuple_items()[0] : outputs;
  if (!first.is_tensor() || first.to_tensor().dtype() != DType::Float32 ||
      first.to_tensor().numel() != 1) {
    std::string got = first.is_tensor()
                          ? std::string("a ") + dtype_name(first.to_tensor().dtype()) +
                                " tensor of shape " + shape_str(first.to_tensor().shape())
                          : "a " + first.type_name();
    throw Error(
        "--grad needs the first output to be a float tensor of one element (a loss), "
        "but it is " +
            got,
        SourceRange(), "return the loss first, e.g. `return loss, out`");
  }
  for (const auto& [name, leaf] : leaves) {
    Tensor t = leaf;
    clear_grad(t);
  }
  if (first.to_tensor().requires_grad()) backward(first.to_tensor());
  std::vector<std::pair<std::string, IValue>> out;
  for (const auto& [name, leaf] : leaves) {
    Tensor g = grad_of(leaf);
    out.emplace_back(name, g.defined() ? IValue(g) : IValue());
  }
  return out;
}

void backward(const Tensor& root, const Tensor& grad) {
  if (!root.defined() || !root.requires_grad()) {
    throw Error(
        "RuntimeError: element 0 of tensors does not require grad and does not have a "
        "grad_fn",
        SourceRange(),
        "mark an input with requires_grad=True (requires_grad: true in the inputs file)");
  }
  Tensor seed = grad;
  if (!seed.defined()) {
    if (root.numel() != 1) {
      throw Error("RuntimeError: grad can be implicitly created only for scalar outputs",
                  SourceRange(), "call backward(gradient) with a tensor of the output's shape");
    }
    seed = Tensor::full(root.shape(), 1.0);
  } else if (seed.shape() != root.shape()) {
    throw Error("RuntimeError: Mismatch in shape: grad_output[0] has a shape of " +
                shape_str(seed.shape()) + " and output[0] has a shape of " +
                shape_str(root.shape()) + ".");
  } else {
    seed = seed.to(DType::Float32);
  }
  NoGradGuard no_grad;  // derivatives run untaped
  const auto& root_meta = root.impl()->autograd;
  if (!root_meta || !root_meta->grad_fn) {
    accumulate_leaf(root, seed);
    return;
  }

  // Pass 1: the nodes reachable from the root and how many edges reach each, by an
  // explicit-stack walk (a tape as long as the program must not overflow the stack).
  std::unordered_map<GradNode*, size_t> pending;
  std::vector<std::shared_ptr<GradNode>> stack = {root_meta->grad_fn};
  pending[root_meta->grad_fn.get()] = 0;
  while (!stack.empty()) {
    std::shared_ptr<GradNode> node = std::move(stack.back());
    stack.pop_back();
    for (const auto& arg_edges : node->edges) {
      for (const GradEdge& e : arg_edges) {
        if (!e.fn) continue;
        auto [it, fresh] = pending.emplace(e.fn.get(), 0);
        ++it->second;
        if (fresh) stack.push_back(e.fn);
      }
    }
  }

  // Pass 2: Kahn's order; a node runs once every node that feeds it gradient has.
  std::unordered_map<GradNode*, std::vector<Tensor>> buffers;
  buffers[root_meta->grad_fn.get()].assign(root_meta->grad_fn->num_outputs, Tensor());
  buffers[root_meta->grad_fn.get()][root_meta->output_nr] = seed;
  std::vector<std::shared_ptr<GradNode>> ready = {root_meta->grad_fn};
  while (!ready.empty()) {
    std::shared_ptr<GradNode> node = std::move(ready.back());
    ready.pop_back();
    std::vector<Tensor> grads = std::move(buffers[node.get()]);
    buffers.erase(node.get());
    std::vector<Tensor> outputs = float_tensors_of(node->result);
    grads.resize(outputs.size());
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (!grads[k].defined()) grads[k] = Tensor::zeros(outputs[k].shape());
    }
    if (!node->op->derivative) {
      throw Error(node->op->schema.name + " is not differentiable in d2s", SourceRange(),
                  "compute it under torch.no_grad() or on .detach()ed tensors, or see "
                  "docs/autograd.md for the ops that are");
    }
    check_saved_versions(*node);
    ValueList input_grads = node->op->derivative(GradInputs{node->args, node->result, grads});
    for (size_t i = 0; i < node->edges.size(); ++i) {
      const auto& arg_edges = node->edges[i];
      if (i >= input_grads.size() || input_grads[i].is_none()) {
        for (const GradEdge& e : arg_edges) {
          if (e.fn && --pending[e.fn.get()] == 0) ready.push_back(e.fn);
        }
        continue;
      }
      const IValue& g = input_grads[i];
      for (size_t j = 0; j < arg_edges.size(); ++j) {
        const GradEdge& e = arg_edges[j];
        Tensor gj = g.is_tensor()                                      ? g.to_tensor()
                    : j < g.items().size() && g.items()[j].is_tensor() ? g.items()[j].to_tensor()
                                                                       : Tensor();
        if (e.leaf.defined()) {
          if (gj.defined()) accumulate_leaf(e.leaf, gj);
        } else if (e.fn) {
          if (gj.defined()) {
            std::vector<Tensor>& buf = buffers[e.fn.get()];
            buf.resize(e.fn->num_outputs);
            buf[e.output_nr] = add_grads(buf[e.output_nr], gj);
          }
          if (--pending[e.fn.get()] == 0) ready.push_back(e.fn);
        }
      }
    }
  }
}

}  // namespace d2s
