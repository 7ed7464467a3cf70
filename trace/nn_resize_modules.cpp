// nn.ConvTranspose1d/2d, nn.Upsample (and the older UpsamplingNearest2d and
// UpsamplingBilinear2d), nn.PixelShuffle/PixelUnshuffle and the padding modules
// (ZeroPad2d, ConstantPad1d/2d, ReflectionPad1d/2d, ReplicationPad1d/2d) on the layer
// mechanism (nn_layers.h): PyTorch 1.13's constructor signatures, checks, attributes,
// default initialisation and extra_repr, and the op each forward runs (TorchScript's:
// aten::conv_transpose2d, aten::upsample_bilinear2d, aten::pixel_shuffle, aten::pad).
#include <cmath>

#include "core/ops/interpolate.h"
#include "trace/nn_layers.h"
#include "trace/py_objects.h"

namespace d2s::interp {

namespace {

const char* const kResizeLayers[] = {
    "ConvTranspose1d",      "ConvTranspose2d", "Upsample",        "UpsamplingNearest2d",
    "UpsamplingBilinear2d", "PixelShuffle",    "PixelUnshuffle",  "ZeroPad2d",
    "ConstantPad1d",        "ConstantPad2d",   "ReflectionPad1d", "ReflectionPad2d",
    "ReplicationPad1d",     "ReplicationPad2d"};

bool starts(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

IValue get(const InstanceValue& m, const char* name) {
  const IValue* v = m.get(name);
  return v ? *v : IValue();
}

int spatial_of(const std::string& type) {
  return type.find("1d") != std::string::npos ? 1 : 2;
}

LayerArg input() {
  return LayerArg{LayerArg::Kind::Input, "", IValue()};
}
LayerArg attr(const char* name) {
  return LayerArg{LayerArg::Kind::Attr, name, IValue()};
}
LayerArg constant(IValue v) {
  return LayerArg{LayerArg::Kind::Const, "", std::move(v)};
}

// _single / _pair / _quadruple: an int repeated n times, a sequence kept, as a tuple.
IValue ntuple(Interpreter& in, const IValue& v, int n, const char* what, const SourceRange& range) {
  ValueList items;
  if (v.is_list() || v.is_tuple()) {
    for (const IValue& item : v.items())
      items.push_back(IValue(in.to_index(item, PyConversion::Scalar, range, what)));
  } else {
    const IValue one(in.to_index(v, PyConversion::Scalar, range, what));
    items.assign(static_cast<size_t>(n), one);
  }
  return IValue::tuple(std::move(items));
}

IValue int_list(const IValue& v) {
  std::vector<int64_t> items;
  for (const IValue& item : v.items()) items.push_back(item.to_int());
  return IValue::int_list(items);
}

void construct_conv_transpose(Interpreter& in, const IValue& self, const std::string& type,
                              ValueList args, Kwargs kwargs, const SourceRange& range) {
  const int spatial = spatial_of(type);
  ValueList a = bind_args("nn." + type,
                          {{"in_channels", std::nullopt},
                           {"out_channels", std::nullopt},
                           {"kernel_size", std::nullopt},
                           {"stride", IValue(int64_t{1})},
                           {"padding", IValue(int64_t{0})},
                           {"output_padding", IValue(int64_t{0})},
                           {"groups", IValue(int64_t{1})},
                           {"bias", IValue(true)},
                           {"dilation", IValue(int64_t{1})},
                           {"padding_mode", IValue(std::string("zeros"))},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  if (!a[9].is_string() || a[9].to_string() != "zeros") {
    in.fail("ValueError: Only \"zeros\" padding mode is supported for " + type, range);
  }
  const int64_t cin = in.to_index(a[0], PyConversion::Scalar, range, "in_channels");
  const int64_t cout = in.to_index(a[1], PyConversion::Scalar, range, "out_channels");
  const int64_t groups = in.to_index(a[6], PyConversion::Scalar, range, "groups");
  if (groups <= 0) in.fail("ValueError: groups must be a positive integer", range);
  if (cin % groups != 0) in.fail("ValueError: in_channels must be divisible by groups", range);
  if (cout % groups != 0) in.fail("ValueError: out_channels must be divisible by groups", range);
  if (a[4].is_string()) {
    in.fail("padding='" + a[4].to_string() + "' is not supported by " + type, range,
            "give the padding as an int or a tuple of ints");
  }
  const IValue kernel = ntuple(in, a[2], spatial, "kernel_size", range);
  for (const IValue& k : kernel.items()) {
    if (k.to_int() <= 0) in.fail("RuntimeError: kernel_size must be positive", range);
  }
  set("in_channels", IValue(cin));
  set("out_channels", IValue(cout));
  set("kernel_size", kernel);
  set("stride", ntuple(in, a[3], spatial, "stride", range));
  set("padding", ntuple(in, a[4], spatial, "padding", range));
  set("dilation", ntuple(in, a[8], spatial, "dilation", range));
  set("transposed", IValue(true));
  set("output_padding", ntuple(in, a[5], spatial, "output_padding", range));
  set("groups", IValue(groups));
  set("padding_mode", a[9]);
  // The weight is [in, out / groups, k...]; kaiming_uniform_(a=sqrt(5)) and the bias
  // both draw from U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with PyTorch's fan_in of that
  // weight: its dim 1 times the kernel, out / groups * k.
  Shape wshape{cin, cout / groups};
  int64_t fan_in = cout / groups;
  for (const IValue& k : kernel.items()) {
    wshape.push_back(k.to_int());
    fan_in *= k.to_int();
  }
  const float bound =
      fan_in > 0 ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(fan_in))) : 0.0f;
  set("weight", uniform_parameter(in, wshape, bound, range));
  set("bias", in.truthy(a[7], range) ? uniform_parameter(in, {cout}, bound, range) : IValue());
}

void construct_upsample(Interpreter& in, const IValue& self, const std::string& type,
                        ValueList args, Kwargs kwargs, const SourceRange& range) {
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  IValue size, scale, mode, align_corners, recompute;
  if (type == "Upsample") {
    ValueList a = bind_args("nn.Upsample",
                            {{"size", IValue()},
                             {"scale_factor", IValue()},
                             {"mode", IValue(std::string("nearest"))},
                             {"align_corners", IValue()},
                             {"recompute_scale_factor", IValue()}},
                            std::move(args), std::move(kwargs), range);
    size = a[0];
    scale = a[1];
    mode = a[2];
    align_corners = a[3];
    recompute = a[4];
  } else {
    ValueList a = bind_args("nn." + type, {{"size", IValue()}, {"scale_factor", IValue()}},
                            std::move(args), std::move(kwargs), range);
    size = a[0];
    scale = a[1];
    const bool bilinear = type == "UpsamplingBilinear2d";
    mode = IValue(std::string(bilinear ? "bilinear" : "nearest"));
    align_corners = bilinear ? IValue(true) : IValue();
  }
  // Upsample keeps size as given and makes scale_factor a float (each item of a tuple).
  if (!scale.is_none()) {
    if (scale.is_list() || scale.is_tuple()) {
      ValueList items;
      for (const IValue& v : scale.items()) {
        std::optional<IValue> n = in.to_number(v, PyConversion::Scalar, range);
        if (!n) in.fail("TypeError: scale_factor must hold numbers", range);
        items.push_back(IValue(n->to_double()));
      }
      scale = IValue::tuple(std::move(items));
    } else {
      std::optional<IValue> n = in.to_number(scale, PyConversion::Scalar, range);
      if (!n) in.fail("TypeError: float() argument must be a number", range);
      scale = IValue(n->to_double());
    }
  }
  set("name", IValue(type));
  set("size", size);
  set("scale_factor", scale);
  set("mode", mode);
  set("align_corners", align_corners);
  set("recompute_scale_factor", recompute);
}

void construct_pad(Interpreter& in, const IValue& self, const std::string& type, ValueList args,
                   Kwargs kwargs, const SourceRange& range) {
  const bool constant_mode = starts(type, "Constant");
  std::vector<ParamSpec> params{{"padding", std::nullopt}};
  if (constant_mode) params.push_back({"value", std::nullopt});
  ValueList a = bind_args("nn." + type, params, std::move(args), std::move(kwargs), range);
  const int n = 2 * spatial_of(type);
  in.setattr(self, "padding", ntuple(in, a[0], n, "padding", range), range);
  if (constant_mode) {
    std::optional<IValue> v = in.to_number(a[1], PyConversion::Scalar, range);
    if (!v) in.fail("TypeError: value must be a number, not " + py_type_name(a[1]), range);
    in.setattr(self, "value", a[1], range);
  } else if (type == "ZeroPad2d") {
    in.setattr(self, "value", IValue(0.0), range);
  }
}

}  // namespace

bool is_resize_layer_class(const std::string& type) {
  for (const char* n : kResizeLayers) {
    if (type == n) return true;
  }
  return false;
}

const std::vector<std::string>& resize_layer_class_names() {
  static const std::vector<std::string> names(std::begin(kResizeLayers), std::end(kResizeLayers));
  return names;
}

void construct_resize_layer(Interpreter& in, const IValue& self, InstanceValue& inst,
                            ValueList args, Kwargs kwargs, const SourceRange& range) {
  const std::string& type = inst.type;
  if (starts(type, "ConvTranspose")) {
    construct_conv_transpose(in, self, type, std::move(args), std::move(kwargs), range);
  } else if (starts(type, "Upsampl")) {
    construct_upsample(in, self, type, std::move(args), std::move(kwargs), range);
  } else if (starts(type, "Pixel")) {
    const bool up = type == "PixelShuffle";
    const char* what = up ? "upscale_factor" : "downscale_factor";
    ValueList a =
        bind_args("nn." + type, {{what, std::nullopt}}, std::move(args), std::move(kwargs), range);
    in.setattr(self, what, IValue(in.to_index(a[0], PyConversion::Scalar, range, what)), range);
  } else {
    construct_pad(in, self, type, std::move(args), std::move(kwargs), range);
  }
}

LayerCall resize_layer_call(const InstanceValue& m, const SourceRange& range, int64_t input_rank,
                            const std::string& spatial) {
  const std::string& type = m.type;
  LayerCall call;
  if (starts(type, "ConvTranspose")) {
    // ConvTranspose{n}d.forward without output_size: output_padding as constructed.
    call.op = "aten::conv_transpose" + std::to_string(spatial_of(type)) + "d";
    call.args = {input(),
                 attr("weight"),
                 attr("bias"),
                 constant(int_list(get(m, "stride"))),
                 constant(int_list(get(m, "padding"))),
                 constant(int_list(get(m, "output_padding"))),
                 constant(get(m, "groups")),
                 constant(int_list(get(m, "dilation")))};
  } else if (starts(type, "Upsampl")) {
    if (input_rank < 0) {
      // The parse route without the input's rank: TorchScript's aten::__interpolate,
      // which chooses the op when the graph runs.
      call.op = "aten::__interpolate";
      call.args = {input(),
                   constant(get(m, "size")),
                   constant(get(m, "scale_factor")),
                   constant(get(m, "mode")),
                   constant(get(m, "align_corners")),
                   constant(get(m, "recompute_scale_factor")),
                   constant(IValue(false))};
      return call;
    }
    InterpolateOp op;
    try {
      op = interpolate_op(input_rank, spatial, get(m, "size"), get(m, "scale_factor"),
                          get(m, "mode"), get(m, "align_corners"), get(m, "recompute_scale_factor"),
                          IValue(false));
    } catch (const Error& e) {
      throw Error(e.message(), range, e.hint());
    }
    call.op = op.op;
    call.args = {input()};
    for (IValue& v : op.args) call.args.push_back(constant(std::move(v)));
  } else if (starts(type, "Pixel")) {
    const bool up = type == "PixelShuffle";
    call.op = up ? "aten::pixel_shuffle" : "aten::pixel_unshuffle";
    call.args = {input(), constant(get(m, up ? "upscale_factor" : "downscale_factor"))};
  } else {
    const std::string mode = starts(type, "Reflection")    ? "reflect"
                             : starts(type, "Replication") ? "replicate"
                                                           : "constant";
    const IValue value = mode == "constant" ? get(m, "value") : IValue();
    call.op = "aten::pad";
    call.args = {input(), constant(int_list(get(m, "padding"))), constant(IValue(mode)),
                 constant(value.is_none() ? value : IValue(value.to_double()))};
  }
  return call;
}

std::string resize_extra_repr(const Interpreter& in, const InstanceValue& m) {
  const std::string& type = m.type;
  auto s = [&](const char* name) { return in.py_str(get(m, name)); };
  if (starts(type, "ConvTranspose")) {
    auto all = [&](const char* name, int64_t v) {
      for (const IValue& item : get(m, name).items()) {
        if (!item.is_int() || item.to_int() != v) return false;
      }
      return true;
    };
    std::string out = s("in_channels") + ", " + s("out_channels") +
                      ", kernel_size=" + s("kernel_size") + ", stride=" + s("stride");
    if (!all("padding", 0)) out += ", padding=" + s("padding");
    if (!all("dilation", 1)) out += ", dilation=" + s("dilation");
    if (!all("output_padding", 0)) out += ", output_padding=" + s("output_padding");
    if (get(m, "groups").to_int() != 1) out += ", groups=" + s("groups");
    if (get(m, "bias").is_none()) out += ", bias=False";
    return out;
  }
  if (starts(type, "Upsampl")) {
    const std::string what = get(m, "scale_factor").is_none() ? "size=" + s("size")
                                                              : "scale_factor=" + s("scale_factor");
    return what + ", mode=" + s("mode");
  }
  if (type == "PixelShuffle") return "upscale_factor=" + s("upscale_factor");
  if (type == "PixelUnshuffle") return "downscale_factor=" + s("downscale_factor");
  if (starts(type, "Constant")) return "padding=" + s("padding") + ", value=" + s("value");
  return s("padding");
}

IValue conv_transpose_output_padding(Interpreter& in, const InstanceValue& m, const IValue& x,
                                     const IValue& output_size, const SourceRange& range) {
  const int64_t spatial = spatial_of(m.type);
  if (!x.is_tensor()) return int_list(get(m, "output_padding"));  // the op reports it
  const Shape& shape = x.to_tensor().shape();
  const int64_t dim = static_cast<int64_t>(shape.size());
  // _ConvTransposeNd._output_padding, as PyTorch 1.13 writes it.
  const int64_t non_spatial = dim == spatial + 2 ? 2 : 1;
  const ValueList* given = seq_items(output_size);
  if (!given) {
    in.fail(
        "TypeError: output_size must be a list or tuple of ints, not " + py_type_name(output_size),
        range);
  }
  ValueList sizes = *given;
  IValue shown = output_size;  // output_size[non_spatial:] when it is that long
  if (static_cast<int64_t>(sizes.size()) == non_spatial + spatial) {
    sizes.erase(sizes.begin(), sizes.begin() + non_spatial);
    shown = as_obj<SizeValue>(output_size) ? make_size(sizes)
            : output_size.is_list()        ? IValue::list(sizes)
                                           : IValue::tuple(sizes);
  }
  if (static_cast<int64_t>(sizes.size()) != spatial) {
    const std::string n = std::to_string(spatial);
    in.fail("ValueError: ConvTranspose" + n + "D: for " + std::to_string(dim) +
                "D input, output_size must have " + n + " or " +
                std::to_string(non_spatial + spatial) + " elements (got " +
                std::to_string(given->size()) + ")",
            range);
  }
  const std::vector<int64_t> stride = int_list(get(m, "stride")).to_int_list();
  const std::vector<int64_t> padding = int_list(get(m, "padding")).to_int_list();
  const std::vector<int64_t> dilation = int_list(get(m, "dilation")).to_int_list();
  const std::vector<int64_t> kernel = int_list(get(m, "kernel_size")).to_int_list();
  std::vector<int64_t> min_sizes, max_sizes, wanted, result;
  for (int64_t d = 0; d < spatial; ++d) {
    const int64_t size = shape[static_cast<size_t>(d + non_spatial)];
    min_sizes.push_back((size - 1) * stride[d] - 2 * padding[d] + dilation[d] * (kernel[d] - 1) +
                        1);
    max_sizes.push_back(min_sizes.back() + stride[d] - 1);
    wanted.push_back(in.to_index(sizes[static_cast<size_t>(d)], PyConversion::Index, range,
                                 "output_size must hold ints"));
  }
  for (int64_t d = 0; d < spatial; ++d) {
    if (wanted[d] < min_sizes[d] || wanted[d] > max_sizes[d]) {
      ValueList input_spatial;
      for (size_t i = 2; i < shape.size(); ++i) input_spatial.push_back(IValue(shape[i]));
      in.fail("ValueError: requested an output size of " + in.py_str(shown) +
                  ", but valid sizes range from " + in.py_str(IValue::int_list(min_sizes)) +
                  " to " + in.py_str(IValue::int_list(max_sizes)) + " (for an input of " +
                  in.py_str(make_size(input_spatial)) + ")",
              range);
    }
    result.push_back(wanted[d] - min_sizes[d]);
  }
  return IValue::int_list(result);
}

}  // namespace d2s::interp

namespace d2s::interp {

IValue functional_interpolate(Interpreter& in, const std::string& fname, ValueList args,
                              Kwargs kwargs, const SourceRange& range) {
  ValueList a = bind_args(fname,
                          {{"input", std::nullopt},
                           {"size", IValue()},
                           {"scale_factor", IValue()},
                           {"mode", IValue(std::string("nearest"))},
                           {"align_corners", IValue()},
                           {"recompute_scale_factor", IValue()},
                           {"antialias", IValue(false)}},
                          std::move(args), std::move(kwargs), range);
  if (!a[0].is_tensor()) {
    in.fail(
        "TypeError: " + fname + "(): argument 'input' must be Tensor, not " + py_type_name(a[0]),
        range);
  }
  const Tensor x = a[0].to_tensor();
  // A size given as a torch.Size (x.shape[2:]) is a tuple of ints to the op. Sizes the
  // trace derived from shapes choose the op by their value in this run and reach it
  // as they are, so the trace keeps them symbolic (as torch.jit.trace does).
  IValue size = a[1].is_none() ? a[1] : size_to_tuple(a[1]);
  auto concrete = [](const IValue& v) {
    if (v.is_object()) {
      if (auto* s = dynamic_cast<const SymbolicValue*>(v.to_object().get())) return s->concrete();
    }
    return v;
  };
  IValue plain_size = concrete(size);
  bool symbolic = plain_size.is_int() && !size.is_int();
  if (size.is_tuple() || size.is_list()) {
    ValueList items;
    for (const IValue& item : size.items()) {
      items.push_back(concrete(item));
      symbolic = symbolic || !item.is_int();
    }
    plain_size = IValue::tuple(std::move(items));
  }
  InterpolateOp op;
  try {
    op = interpolate_op(x.dim(), spatial_repr(x.shape()), plain_size, a[2], a[3], a[4], a[5], a[6]);
  } catch (const Error& e) {
    in.fail(e.message(), range, e.hint());
  }
  if (symbolic) {
    ValueList items = size.is_tuple() || size.is_list()
                          ? size.items()
                          : ValueList(static_cast<size_t>(x.dim() - 2), size);
    op.args[0] = IValue::list(std::move(items));
  }
  ValueList op_args{a[0]};
  for (IValue& v : op.args) op_args.push_back(std::move(v));
  return in.call_op(op.op, std::move(op_args), {}, range);
}

}  // namespace d2s::interp
