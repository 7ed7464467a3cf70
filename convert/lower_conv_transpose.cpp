// The parse route's ConvTranspose{1,2}d.forward(x, output_size): the output_padding
// PyTorch's _ConvTransposeNd._output_padding computes, lowered as graph arithmetic on
// the input's sizes (they may be symbolic), with its out-of-range ValueError raised when
// the graph runs (prim::RaiseException with PyTorch's message), as TorchScript inlines it.
#include "convert/lowerer.h"
#include "trace/nn_layers.h"
#include "trace/py_objects.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

ir::Value* Lowerer::conv_transpose_output_padding(const interp::InstanceValue& inst, ir::Value* x,
                                                  ir::Value* output_size,
                                                  const SourceRange& range) {
  const int64_t spatial = inst.type.find("1d") != std::string::npos ? 1 : 2;
  const Type& xt = x->type();
  if (!xt.is_tensor() || !xt.shape) {
    fail("ConvTranspose" + std::to_string(spatial) +
             "d's output_size= needs the rank of the input in the parse route",
         range, "eager and trace modes run it");
  }
  const int64_t dim = static_cast<int64_t>(xt.shape->size());
  const int64_t non_spatial = dim == spatial + 2 ? 2 : 1;
  // output_size's items, and how Python prints it (a list, a tuple, a torch.Size).
  std::vector<ir::Value*> sizes;
  std::string open = "[", close = "]";
  const Type& st = output_size->type();
  if (st.kind == TypeKind::Tuple) {
    sizes = tuple_items(output_size, range);
    open = "(";
    close = ")";
  } else if (auto items = static_list_items(output_size, range)) {
    sizes = *items;
  } else if (std::optional<IValue> c = constant_value(output_size); c && c->is_list()) {
    for (const IValue& item : c->list_items()) sizes.push_back(constant(item, range));
  } else if (ir::Node* p = output_size->node();
             p->kind() == "aten::size" && p->inputs().size() == 1 &&
             p->input(0)->type().is_tensor() && p->input(0)->type().shape) {
    // y.size() / y.shape passed on whole: one aten::size per dim, printed as torch.Size.
    const size_t rank = p->input(0)->type().shape->size();
    for (size_t i = 0; i < rank; ++i) {
      sizes.push_back(emit_op(
          "aten::size", {p->input(0), constant(IValue(static_cast<int64_t>(i)), range)}, range));
    }
    open = "torch.Size([";
    close = "])";
  } else {
    fail("ConvTranspose" + std::to_string(spatial) +
             "d's output_size= must be a list, tuple or size of known length in the parse route",
         range, "pass y.shape, y.size(), or the sizes written out");
  }
  const size_t given = sizes.size();
  if (static_cast<int64_t>(given) == non_spatial + spatial) {
    sizes.erase(sizes.begin(), sizes.begin() + non_spatial);
  }
  if (static_cast<int64_t>(sizes.size()) != spatial) {
    const std::string n = std::to_string(spatial);
    fail("ValueError: ConvTranspose" + n + "D: for " + std::to_string(dim) +
             "D input, output_size must have " + n + " or " +
             std::to_string(non_spatial + spatial) + " elements (got " + std::to_string(given) +
             ")",
         range);
  }
  auto ints = [&](const char* name) {
    const IValue* v = inst.get(name);
    std::vector<int64_t> out;
    if (v) {
      for (const IValue& item : v->items()) out.push_back(item.to_int());
    }
    return out;
  };
  const std::vector<int64_t> stride = ints("stride"), padding = ints("padding"),
                             dilation = ints("dilation"), kernel = ints("kernel_size");
  auto c = [&](int64_t v) { return constant(IValue(v), range); };
  std::vector<ir::Value*> min_sizes, max_sizes, result;
  ir::Value* bad = nullptr;
  for (int64_t d = 0; d < spatial; ++d) {
    // (size - 1) * stride - 2 * padding + dilation * (kernel - 1) + 1
    ir::Value* size = emit_op("aten::size", {x, c(d + non_spatial)}, range);
    ir::Value* reach =
        emit_op("aten::mul", {emit_op("aten::sub", {size, c(1)}, range), c(stride[d])}, range);
    ir::Value* lo = emit_op("aten::add",
                            {reach, c(-2 * padding[d] + dilation[d] * (kernel[d] - 1) + 1)}, range);
    ir::Value* hi = emit_op("aten::add", {lo, c(stride[d] - 1)}, range);
    min_sizes.push_back(lo);
    max_sizes.push_back(hi);
    ir::Value* want = sizes[static_cast<size_t>(d)];
    ir::Value* out_of_range = emit_op(
        "aten::__or__",
        {emit_op("aten::lt", {want, lo}, range), emit_op("aten::gt", {want, hi}, range)}, range);
    bad = bad ? emit_op("aten::__or__", {bad, out_of_range}, range) : out_of_range;
    result.push_back(emit_op("aten::sub", {want, lo}, range));
  }
  // PyTorch's ValueError, its lists printed item by item.
  ir::Node* check = graph_.insert(ir::kind::If, {bad}, 0, range);
  ir::Block* raise_block = check->add_block();
  check->add_block();
  {
    ir::WithInsertPoint guard(graph_, raise_block);
    auto placeholders = [](size_t n, const std::string& o, const std::string& cl) {
      std::string s = o;
      for (size_t i = 0; i < n; ++i) s += i ? ", {}" : "{}";
      if (n == 1 && o == "(") s += ",";
      return s + cl;
    };
    std::vector<ir::Value*> args;
    std::vector<ir::Value*> input_sizes;
    for (int64_t d = 2; d < dim; ++d)
      input_sizes.push_back(emit_op("aten::size", {x, c(d)}, range));
    const std::string text =
        "requested an output size of " + placeholders(sizes.size(), open, close) +
        ", but valid sizes range from " + placeholders(min_sizes.size(), "[", "]") + " to " +
        placeholders(max_sizes.size(), "[", "]") + " (for an input of " +
        placeholders(input_sizes.size(), "torch.Size([", "])") + ")";
    args.push_back(constant(IValue(text), range));
    for (auto* group : {&sizes, &min_sizes, &max_sizes, &input_sizes}) {
      args.insert(args.end(), group->begin(), group->end());
    }
    ir::Value* message = emit_op("aten::format", args, range);
    ir::Node* raise = graph_.insert(ir::kind::RaiseException, {message}, 0, range);
    raise->set_attr("kind", IValue(std::string("ValueError")));
  }
  return make_list(result, range);
}

}  // namespace d2s::convert
