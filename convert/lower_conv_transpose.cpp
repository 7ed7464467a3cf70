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

namespace {

std::string placeholders(size_t n, const std::string& open, const std::string& close) {
  std::string s = open;
  for (size_t i = 0; i < n; ++i) s += i ? ", {}" : "{}";
  if (n == 1 && open == "(") s += ",";
  return s + close;
}

}  // namespace

ir::Value* Lowerer::conv_transpose_output_padding(const interp::InstanceValue& inst, ir::Value* x,
                                                  ir::Value* output_size,
                                                  const SourceRange& range) {
  const int64_t spatial = inst.type.find("1d") != std::string::npos ? 1 : 2;
  auto c = [&](int64_t v) { return constant(IValue(v), range); };
  // output_size's last `spatial` items (what PyTorch keeps of a full-length one), its
  // length, and how Python prints it (a list, a tuple, a torch.Size).
  std::vector<ir::Value*> items;
  ir::Value* length = nullptr;
  std::string open = "[", close = "]";
  const Type& st = output_size->type();
  if (st.kind == TypeKind::Tuple) {
    items = tuple_items(output_size, range);
    open = "(";
    close = ")";
  } else if (auto listed = static_list_items(output_size, range)) {
    items = *listed;
  } else if (std::optional<IValue> k = constant_value(output_size); k && k->is_list()) {
    for (const IValue& item : k->list_items()) items.push_back(constant(item, range));
  } else if (st.kind == TypeKind::List) {
    // A list known when the graph runs (y.size(), y.shape): its length then.
    length = emit_op("aten::len", {output_size}, range);
    for (int64_t d = 0; d < spatial; ++d) {
      items.push_back(list_item_at(output_size, c(d - spatial), range));
    }
    if (output_size->node()->kind() == "aten::size") {
      open = "torch.Size([";
      close = "])";
    }
  } else {
    fail("TypeError: ConvTranspose" + std::to_string(spatial) +
             "d's output_size must be a list or tuple of ints, not " + st.str(),
         range);
  }
  if (!length) {
    if (items.size() < static_cast<size_t>(spatial) ||
        items.size() > static_cast<size_t>(spatial + 2)) {
      const std::string n = std::to_string(spatial);
      fail("ValueError: ConvTranspose" + n + "D: output_size must have " + n + " or " +
               std::to_string(spatial + 2) + " elements (got " + std::to_string(items.size()) + ")",
           range);
    }
    length = c(static_cast<int64_t>(items.size()));
    items.erase(items.begin(), items.end() - spatial);
  }
  // PyTorch's length check: `spatial` items, or one per dim of the input.
  ir::Value* dim = emit_op("aten::dim", {x}, range);
  ir::Value* batched = emit_op("aten::eq", {dim, c(spatial + 2)}, range);
  ir::Value* with_batch = c(spatial + 2);
  ir::Value* without_batch = c(spatial + 1);
  ir::Node* full_if = graph_.insert(ir::kind::If, {batched}, 1, range);
  full_if->add_block()->register_output(with_batch);
  full_if->add_block()->register_output(without_batch);
  ir::Value* full = full_if->output();
  full->set_type(Type::of_int());
  ir::Value* bad_length = emit_op("aten::__and__",
                                  {emit_op("aten::ne", {length, c(spatial)}, range),
                                   emit_op("aten::ne", {length, full}, range)},
                                  range);
  auto raise_if = [&](ir::Value* cond, const std::string& text,
                      const std::vector<ir::Value*>& values) {
    ir::Value* format = constant(IValue(text), range);
    ir::Node* check = graph_.insert(ir::kind::If, {cond}, 0, range);
    ir::Block* raise_block = check->add_block();
    check->add_block();
    ir::WithInsertPoint guard(graph_, raise_block);
    std::vector<ir::Value*> args{format};
    args.insert(args.end(), values.begin(), values.end());
    ir::Value* message = emit_op("aten::format", args, range);
    ir::Node* raise = graph_.insert(ir::kind::RaiseException, {message}, 0, range);
    raise->set_attr("kind", IValue(std::string("ValueError")));
  };
  const std::string n = std::to_string(spatial);
  raise_if(bad_length,
           "ConvTranspose" + n + "D: for {}D input, output_size must have " + n +
               " or {} elements (got {})",
           {dim, full, length});
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
  std::vector<ir::Value*> min_sizes, max_sizes, result;
  ir::Value* bad = nullptr;
  for (int64_t d = 0; d < spatial; ++d) {
    // (size - 1) * stride - 2 * padding + dilation * (kernel - 1) + 1, the spatial dims
    // counted from the end.
    ir::Value* size = emit_op("aten::size", {x, c(d - spatial)}, range);
    ir::Value* reach =
        emit_op("aten::mul", {emit_op("aten::sub", {size, c(1)}, range), c(stride[d])}, range);
    ir::Value* lo = emit_op("aten::add",
                            {reach, c(-2 * padding[d] + dilation[d] * (kernel[d] - 1) + 1)}, range);
    ir::Value* hi = emit_op("aten::add", {lo, c(stride[d] - 1)}, range);
    min_sizes.push_back(lo);
    max_sizes.push_back(hi);
    ir::Value* want = items[static_cast<size_t>(d)];
    ir::Value* out_of_range = emit_op(
        "aten::__or__",
        {emit_op("aten::lt", {want, lo}, range), emit_op("aten::gt", {want, hi}, range)}, range);
    bad = bad ? emit_op("aten::__or__", {bad, out_of_range}, range) : out_of_range;
    result.push_back(emit_op("aten::sub", {want, lo}, range));
  }
  // PyTorch's range error, the lists printed item by item; input.size()[2:] whole.
  ir::Value* input_sizes = emit_op("aten::slice", {emit_op("aten::size", {x}, range), c(2)}, range);
  std::vector<ir::Value*> values = items;
  values.insert(values.end(), min_sizes.begin(), min_sizes.end());
  values.insert(values.end(), max_sizes.begin(), max_sizes.end());
  values.push_back(input_sizes);
  raise_if(bad,
           "requested an output size of " + placeholders(items.size(), open, close) +
               ", but valid sizes range from " + placeholders(min_sizes.size(), "[", "]") + " to " +
               placeholders(max_sizes.size(), "[", "]") + " (for an input of torch.Size({}))",
           values);
  return make_list(result, range);
}

}  // namespace d2s::convert
